import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import { didYouMean } from "./problem.js";
import { ajvOptions } from "./schema-options.js";
import type { SpecSource } from "./source.js";
import type { Problem } from "./types.js";

const schemaDir = new URL("../../schema/", import.meta.url);
const loadSchema = (name: string) => JSON.parse(readFileSync(new URL(name, schemaDir), "utf8")) as object;

// Compiled by `npm run build` (scripts/compile-spec-schemas.mjs); absent when running from the sources.
const built = (await import(new URL("./spec-validators.js", import.meta.url).href).catch(() => undefined)) as
  | { resource: ValidateFunction; project: ValidateFunction }
  | undefined;

// Ajv itself (its compiler) is loaded only to compile them here: importing it cost every run ≈ 50 ms.
const validators: { resource: ValidateFunction; project: ValidateFunction } = built ?? (await compileSchemas());

async function compileSchemas() {
  const { Ajv } = await import("ajv");
  const ajv = new Ajv(ajvOptions);
  return { resource: ajv.compile(loadSchema("spec.schema.json")), project: ajv.compile(loadSchema("project.schema.json")) };
}

/** Checks a file against the shipped JSON Schema and explains each failure in user terms. */
export function checkAgainstSchema(kind: "resource" | "project", source: SpecSource, data: unknown): Problem[] {
  const validate = validators[kind];
  if (validate(data ?? {})) return [];
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of validate.errors ?? []) {
    const problem = explain(error, source);
    if (!problem) continue;
    const key = `${problem.line}:${problem.column}:${problem.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function pathOf(instancePath: string): (string | number)[] {
  return instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

const patternHints: [RegExp, string][] = [
  [/^name$/, 'must be a PascalCase singular class name, e.g. "MedicalRecord"'],
  [/^prefix$/, 'must be exactly three uppercase letters, e.g. "PAT"'],
  [/^collection$/, 'must be lowercase kebab-case, e.g. "medical-records"'],
  [/^relations\.[^.]+\.resource$/, 'must be a resource name in PascalCase, e.g. "Patient"'],
  [/\.values\[\d+\]$/, "must use letters, digits, _ . or - only"],
  [/^auth\.(roles\.\d+|defaultRole|users\.manage\.\d+)$/, 'must be a snake_case role name: lowercase letters, digits and _, starting with a letter, e.g. "admin"'],
];

function explain(error: ErrorObject, source: SpecSource): Problem | undefined {
  const path = pathOf(error.instancePath);
  const dotted = path.map(String).join(".");
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      return source.problem([...path, key], `unknown key "${key}"${didYouMean(key, known)}`, "key");
    }
    case "required":
      return source.problem(path, `missing required key "${String(params.missingProperty)}"`);
    case "type":
      return source.problem(path, `must be ${article(String(params.type))}`);
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const value = String(valueAt(source, path));
      return source.problem(path, `must be one of ${allowed.join(", ")}; got "${value}"${didYouMean(value, allowed)}`);
    }
    case "pattern": {
      if (error.propertyName !== undefined) {
        const name = error.propertyName;
        return source.problem([...path, name], `"${name}" must be snake_case: lowercase letters, digits and _, starting with a letter`, "key");
      }
      const hint = patternHints.find(([pattern]) => pattern.test(dotted))?.[1] ?? `must match ${String(params.pattern)}`;
      return source.problem(path, hint);
    }
    case "propertyNames":
      return undefined; // the nested pattern error above says it better
    case "minProperties":
      return source.problem(path, "must have at least one entry");
    case "minItems":
      return source.problem(path, "must not be empty");
    case "uniqueItems":
      return source.problem(path, "must not repeat an entry");
    case "minimum":
    case "maximum":
      return source.problem(path, `must be ${error.keyword === "minimum" ? ">=" : "<="} ${String(params.limit)}`);
    case "minLength":
      return source.problem(path, "must not be empty");
    default:
      return source.problem(path, error.message ?? "is invalid");
  }
}

function article(type: string): string {
  const words: Record<string, string> = { object: "a map (key: value)", array: "a list", string: "a string", boolean: "true or false", integer: "a whole number", number: "a number" };
  return type.split(",").map((part) => words[part] ?? part).join(" or ");
}

function valueAt(source: SpecSource, path: (string | number)[]): unknown {
  return path.reduce<unknown>((value, segment) => (value as Record<string | number, unknown> | undefined)?.[segment], source.data());
}
