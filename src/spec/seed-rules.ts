import { createRequire } from "node:module";
import type { Ajv as AjvClass, ErrorObject } from "ajv";
import { fieldType } from "../model/field-types.js";
import { payloadField, rulesFor } from "../model/payload-model.js";
import { buildActionValidation } from "../model/validation.js";
import type { CheckedResource } from "./checked.js";
import type { Problem } from "./types.js";

// Loaded only for a resource with seed rows: importing ajv's compiler costs every run ≈ 50 ms.
const require = createRequire(import.meta.url);
let compiler: AjvClass | undefined;
function ajv(): AjvClass {
  const { Ajv } = require("ajv") as { Ajv: new (options: object) => AjvClass };
  // Formats and the runtime's own keywords (x-decimal) are the service's to check: the values
  // their types take were checked already (fieldType's defaultProblem); bounds, lengths, enums and
  // patterns are checked here, as the service's validator checks them.
  return (compiler ??= new Ajv({ allErrors: true, strict: false, validateFormats: false }));
}

/**
 * Each `seed:` row against the resource's create rules (explicit or derived from its fields), as
 * `npm run db:seed` will check it through the service: a value past a field's `max`, a text longer
 * than its rules allow, a value outside an `in:` list is a spec error at `validate`, naming the row
 * and the rule's own message, instead of a seed that stops at run time.
 */
export function seedRuleProblems({ spec, source }: CheckedResource): Problem[] {
  if (spec.seed === undefined || spec.seed.length === 0) return [];
  const fields = spec.fields.map(payloadField);
  const fieldNames = new Set(fields.map((field) => field.name));
  // Rows hold fields only: rules of relations and confirmations are the API's.
  const rules = new Map([...rulesFor(spec, "create", fields, [])].filter(([key]) => fieldNames.has(key)));
  const validation = buildActionValidation("create", fields, [], rules);
  const { required: _required, ...schema } = validation.schema as { required?: string[] };
  const validate = ajv().compile({ ...schema, additionalProperties: true });
  // A value of the wrong type is checkSeedRows' to report (resource-checks.ts), once.
  const typeProblem = (key: string, value: unknown) => {
    const field = spec.fields.find((candidate) => candidate.name === key);
    return value !== null && field !== undefined && fieldType(field.type).defaultProblem(value, field) !== undefined;
  };
  const problems: Problem[] = [];
  spec.seed.forEach((row, index) => {
    if (validate(row)) return;
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const key = fieldOf(error);
      if (key === undefined || !(key in row) || seen.has(key) || typeProblem(key, row[key])) continue;
      seen.add(key);
      const message = validation.messages[key]?.[row[key] === null ? "null" : error.keyword] ?? error.message;
      problems.push(source.problem(["seed", index, key], `${JSON.stringify(row[key])} breaks the create rules, which db:seed applies: ${message}`));
    }
  });
  return problems;
}

/** The top-level key an error is about (`/f_count` → `f_count`). */
function fieldOf(error: ErrorObject): string | undefined {
  const [, key] = error.instancePath.split("/");
  return key === undefined || key === "" ? undefined : key.replaceAll("~1", "/").replaceAll("~0", "~");
}
