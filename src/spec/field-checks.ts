import { fieldType } from "../model/field-types.js";
import { withArticle } from "../model/naming.js";
import { operatorsOf, type FilterOperator } from "../model/list-operators.js";
import { reservedQueryParameters } from "../model/public-names.js";
import type { SpecSource } from "./source.js";
import { checkFileField } from "./file-checks.js";
import type { FieldSpec, FieldType, Problem } from "./types.js";

/** Field names the generated code uses itself, or list query parameters would shadow. */
export const reservedFieldNames = new Set([
  "id",
  "hash",
  "public_id",
  "created_at",
  "updated_at",
  "deleted_at",
  ...reservedQueryParameters,
]);

/** Which options each field type accepts (spec-format.md, "Field types"; src/model/field-types.ts). */
export function optionsOf(type: FieldType): readonly string[] {
  const listOptions = fieldType(type).filter ? ["filter", ...(fieldType(type).searchable ? ["search", "textIndex"] : [])] : [];
  // What a B-tree orders (every sortable type) can be indexed; json cannot.
  const indexOption = fieldType(type).sortable ? ["index"] : [];
  return ["type", "nullable", "default", "renamedFrom", "backfill", "example", "visibleTo", "writableBy", ...listOptions, ...indexOption, ...fieldType(type).options];
}

/** Whether a string, text or email field's trigram index has a reader: `?search=` or a substring filter. */
export function readsTextIndex(field: Pick<FieldSpec, "search" | "filter">): boolean {
  if (field.search === true) return true;
  if (field.filter === false) return false;
  return !Array.isArray(field.filter) || field.filter.some((operator) => substringOperators.includes(operator));
}

/** The filter operators a trigram index serves (a substring of the folded text). */
export const substringOperators: readonly FilterOperator[] = ["contains", "starts_with", "ends_with"];

/**
 * Checks of one field that the JSON Schema cannot express: options that suit the type, ranges,
 * defaults of the right type.
 */
export function checkField(source: SpecSource, base: (string | number)[], field: FieldSpec, place: "resource" | "pivot" | "user" = "resource"): Problem[] {
  const at = [...base, field.name];
  const problems: Problem[] = checkFileField(source, at, field, place);
  const allowed = optionsOf(field.type);
  for (const option of Object.keys(field)) {
    if (option === "name" || allowed.includes(option)) continue;
    problems.push(
      source.problem([...at, option], `option "${option}" does not apply to ${withArticle(`${field.type} field`)} (it takes ${allowed.filter((name) => name !== "type").join(", ")})`, "key"),
    );
  }
  if (Array.isArray(field.filter) && fieldType(field.type).filter) {
    const takes = operatorsOf[fieldType(field.type).filter!];
    const foreign = field.filter.filter((operator) => !takes.includes(operator));
    if (foreign.length > 0) problems.push(source.problem([...at, "filter"], `${withArticle(`${field.type} field`)} cannot take ${foreign.join(", ")} (it takes ${takes.join(", ")})`));
  }
  if (field.textIndex === true && fieldType(field.type).searchable && !readsTextIndex(field)) {
    problems.push(source.problem([...at, "textIndex"], "nothing would read this index: the field is not in search and takes no contains, starts_with or ends_with filter"));
  }
  if (field.index === true && field.unique === true) {
    problems.push(source.problem([...at, "index"], "a unique field is indexed by its unique index already: drop index: true"));
  }
  if (field.type === "enum" && field.values === undefined) {
    problems.push(source.problem(at, 'an enum field needs "values", e.g. values: [active, inactive]'));
  }
  if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
    problems.push(source.problem([...at, "min"], `min (${field.min}) must not be greater than max (${field.max})`));
  }
  if (field.length !== undefined && (field.max !== undefined || field.min !== undefined)) {
    problems.push(source.problem([...at, "length"], "length fixes the size: use it without min or max"));
  }
  if (field.scale !== undefined && field.scale > (field.precision ?? 10)) {
    problems.push(source.problem([...at, "scale"], `scale (${field.scale}) must not be greater than precision (${field.precision ?? 10})`));
  }
  if (field.pattern !== undefined) {
    try {
      new RegExp(field.pattern, "u");
    } catch (error) {
      problems.push(source.problem([...at, "pattern"], `invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}`));
    }
  }
  for (const option of ["default", "backfill"] as const) {
    // An enum without values is reported once, above; its default cannot be checked against nothing.
    if (field[option] === undefined || (field.type === "enum" && field.values === undefined)) continue;
    const problem = valueProblem(field, field[option], option);
    if (problem) problems.push(source.problem([...at, option], problem));
  }
  // One value for every record that leaves the field out: the second such record could not be stored.
  if (field.unique === true && field.default !== undefined && field.default !== null && field.default !== "now")
    problems.push(source.problem([...at, "default"], "a unique field cannot have a fixed default: the second record that leaves it out would take the same value; remove default or unique"));
  if (field.example !== undefined && !(field.type === "enum" && field.values === undefined)) {
    const problem = field.example === null ? "null is no example: give a value of the field" : valueProblem(field, field.example, "default");
    if (problem) problems.push(source.problem([...at, "example"], problem));
    else if (field.pattern !== undefined && typeof field.example === "string" && !safeMatch(field.pattern, field.example))
      problems.push(source.problem([...at, "example"], `the example does not match the field's pattern /${field.pattern}/`));
  }
  if (field.renamedFrom === field.name) {
    problems.push(source.problem([...at, "renamedFrom"], "renamedFrom names the field itself; give its previous name, or remove the key"));
  }
  return problems;
}

/** Whether text matches a pattern; an invalid pattern is reported on its own, and matches nothing here. */
function safeMatch(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return true;
  }
}

/** A default or backfill: a value of the field's type (null only for a nullable default). */
function valueProblem(field: FieldSpec, value: unknown, option: "default" | "backfill"): string | undefined {
  if (value === null) {
    if (option === "backfill") return "null is no backfill: existing rows need a value when the field becomes required";
    return field.nullable ? undefined : "null is not a valid default for a field that is not nullable";
  }
  return fieldType(field.type).defaultProblem(value, field);
}
