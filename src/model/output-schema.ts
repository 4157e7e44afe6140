import type { FieldSpec } from "../spec/types.js";
import { hashPattern } from "./hash-format.js";
import type { JsonSchema } from "./json-schema.js";
import type { FieldModel, ResourceModel } from "./types.js";

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
    switch (field.type) {
      case "integer":
        return { type: "integer" };
      case "decimal":
        return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?$" };
      case "boolean":
        return { type: "boolean" };
      case "date":
        return { type: "string", format: "date" };
      case "datetime":
        return { type: "string", format: "date-time" };
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

const timestamp: JsonSchema = { type: "string", format: "date-time" };

/**
 * JSON Schema of one serialized record. Related records are nested one level deep, serialized by
 * their own resource's serializer, with their own relations as hashes.
 */
export function buildOutputSchema(resource: ResourceModel, resources: ResourceModel[]): JsonSchema {
  return recordSchema(resource, resources, true);
}

function recordSchema(resource: ResourceModel, resources: ResourceModel[], nest: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const entry of resource.serializer) {
    switch (entry.kind) {
      case "publicId":
        properties[entry.key] = { type: "string", pattern: hashPattern(resource.prefix), examples: [resource.exampleHash] };
        required.push(entry.key);
        break;
      case "field":
        properties[entry.key] = entry.field.outputSchema;
        required.push(entry.key);
        break;
      case "belongsTo": {
        const hash: JsonSchema = { type: entry.relation.required ? "string" : ["string", "null"], pattern: hashPattern(entry.relation.target.prefix) };
        const target = resources.find((candidate) => candidate.name === entry.relation.target.name)!;
        properties[entry.key] =
          nest && entry.relation.eager ? nullableIf(!entry.relation.required, recordSchema(target, resources, false)) : hash;
        required.push(entry.key);
        break;
      }
      case "hasMany": {
        const target = resources.find((candidate) => candidate.name === entry.relation.target.name)!;
        properties[entry.key] = { type: "array", items: recordSchema(target, resources, false) };
        required.push(entry.key);
        break;
      }
      case "timestamp":
        properties[entry.key] = entry.key === "deleted_at" ? { type: ["string", "null"], format: "date-time" } : timestamp;
        required.push(entry.key);
        break;
    }
  }
  return { type: "object", properties, required, additionalProperties: false };
}

function nullableIf(nullable: boolean, schema: JsonSchema): JsonSchema {
  return nullable ? { anyOf: [schema, { type: "null" }] } : schema;
}
