import { filterOperators, operatorsOf, type FilterOperator } from "./list-operators.js";
import { setByServer } from "../spec/set-by-server.js";
import type { FieldSpec } from "../spec/types.js";
import { fieldType } from "./field-types.js";
import { fieldOutputSchema, tsTypeOf } from "./output-schema.js";
import type { FieldModel, FileRulesModel } from "./types.js";
import { defaultFileMaxKb } from "../spec/file-checks.js";

/** How a field is filtered and searched on lists: its type's operators, narrowed or turned off by its spec. */
function filterOptions(spec: FieldSpec): Pick<FieldModel, "filter" | "operators" | "narrowed" | "search"> {
  const kind = spec.filter === false ? undefined : fieldType(spec.type).filter;
  const narrowed = Array.isArray(spec.filter);
  const operators = kind === undefined ? [] : narrowed ? filterOperators.filter((operator) => (spec.filter as FilterOperator[]).includes(operator)) : [...operatorsOf[kind]];
  return { filter: kind, operators, narrowed: kind !== undefined && narrowed, search: spec.search === true };
}

/** A field of a spec as every later stage reads it: its column, list options, output and access. */
export function fieldModel(spec: FieldSpec): FieldModel {
  const field: FieldModel = {
    name: spec.name,
    label: spec.name.replaceAll("_", " "),
    type: spec.type,
    kind: fieldType(spec.type).kind,
    nullable: spec.nullable ?? false,
    unique: spec.unique !== undefined && spec.unique !== false,
    ...(spec.unique === "global" ? { uniqueAcrossTenants: true } : {}),
    indexed: spec.index === true,
    // The server fills a `set:` field when a payload leaves it out, as a default would.
    hasDefault: spec.default !== undefined || spec.set !== undefined,
    tsType: "",
    outputSchema: {},
    values: spec.values ?? [],
    column: {
      ...(spec.max !== undefined && spec.type !== "file" ? { max: spec.max } : {}),
      ...(spec.precision !== undefined ? { precision: spec.precision } : {}),
      ...(spec.scale !== undefined ? { scale: spec.scale } : {}),
      ...(spec.default !== undefined ? { default: spec.default } : {}),
    },
    scale: spec.type === "decimal" ? (spec.scale ?? 2) : 0,
    ...filterOptions(spec),
    // A trigram index serves a substring of the folded text: the types that can be searched.
    textIndex: fieldType(spec.type).searchable && spec.textIndex !== false,
    sortable: fieldType(spec.type).sortable,
    ...(spec.visibleTo ? { visibleTo: spec.visibleTo } : {}),
    ...(spec.writableBy ? { writableBy: spec.writableBy } : {}),
    ...(spec.set !== undefined ? { setByServer: setByServer(spec)! } : {}),
    ...(spec.type === "file" ? { file: fileRulesOf(spec) } : {}),
  };
  field.tsType = tsTypeOf(field);
  field.outputSchema = fieldOutputSchema(field, spec);
  return field;
}

/** A file field's rules: its sizes in bytes (the spec's are kilobytes, as Laravel's), its types. */
function fileRulesOf(spec: FieldSpec): FileRulesModel {
  return {
    label: spec.name.replaceAll("_", " "),
    maxBytes: (spec.max ?? defaultFileMaxKb) * 1024,
    ...(spec.min !== undefined ? { minBytes: spec.min * 1024 } : {}),
    ...(spec.mimes ? { mimes: spec.mimes } : {}),
    ...(spec.mimetypes ? { mimetypes: spec.mimetypes } : {}),
    ...(spec.image ? { image: true } : {}),
    ...(spec.dimensions ? { dimensions: spec.dimensions as Record<string, number> } : {}),
  };
}
