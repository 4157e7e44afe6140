import type { FieldSpec } from "../spec/types.js";
import { plainScalarSchema, type JsonSchema } from "./json-schema.js";
import type { FieldModel } from "./types.js";

/** TypeScript type of a field as the serializer outputs it. */
export function tsTypeOf(field: FieldModel): string {
  const base: Record<FieldModel["kind"], string> = {
    string: field.type === "enum" ? field.values.map((value) => JSON.stringify(value)).join(" | ") : "string",
    integer: "number",
    decimal: "string",
    boolean: "boolean",
    date: "string",
    datetime: "string",
    json: "unknown",
  };
  const type = base[field.kind];
  return field.nullable && field.kind !== "json" ? `${type} | null` : type;
}

/** JSON Schema of a field's output value: decimals are exact strings, dates ISO strings. */
export function fieldOutputSchema(field: FieldModel, spec: FieldSpec): JsonSchema {
  const schema: JsonSchema = (() => {
    const plain = plainScalarSchema(field.type);
    if (plain) return plain;
    switch (field.type) {
      case "decimal":
        return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?$" };
      case "enum":
        return { type: "string", enum: [...field.values] };
      case "json":
        return {};
      case "email":
        return { type: "string", format: "email" };
      default:
        return { type: "string", ...(spec.max !== undefined ? { maxLength: spec.max } : {}) };
    }
  })();
  if (!field.nullable || field.type === "json") return schema;
  if (schema.enum) return { ...schema, type: ["string", "null"], enum: [...schema.enum, null] };
  return { ...schema, type: [schema.type as string, "null"] };
}
