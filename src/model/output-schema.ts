import type { FieldSpec } from "../spec/types.js";
import { fieldType } from "./field-types.js";
import type { JsonSchema } from "./json-schema.js";
import type { FieldModel } from "./types.js";

/** TypeScript type of a field as the serializer outputs it. */
export function tsTypeOf(field: FieldModel): string {
  const type = fieldType(field.type).output.tsType(field);
  return field.nullable && field.type !== "json" ? `${type} | null` : type;
}

/** JSON Schema of a field's output value: decimals are exact strings, dates ISO strings. */
export function fieldOutputSchema(field: FieldModel, spec: FieldSpec): JsonSchema {
  const schema = fieldType(field.type).output.schema({ ...spec, values: field.values });
  if (!field.nullable || field.type === "json") return schema;
  if (schema.enum) return { ...schema, type: ["string", "null"], enum: [...schema.enum, null] };
  return { ...schema, type: [schema.type as string, "null"] };
}
