import type { JsonSchema } from "./json-schema.js";
import type { BelongsToModel } from "./types.js";

/**
 * A TypeScript expression producing a valid value for one payload key, derived from the very schema
 * that validates it. `n` is a number that makes unique values differ; a belongsTo becomes a call to
 * the related resource's factory in the generated tests. Undefined when no value can be derived
 * (a free-form regex): the generated tests then leave the key out.
 */
export function exampleExpression(key: string, schema: JsonSchema, relation?: BelongsToModel): string | undefined {
  if (relation) return `await factories.${relation.target.names.camel}(api, n)`;
  if (schema.enum) return JSON.stringify(schema.enum.find((value) => value !== null));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const digits = /^\^\[0-9\]\{(\d+)\}\$$/.exec(schema.pattern ?? "");
  if (types.includes("integer")) return integerExpression(schema);
  if (types.includes("number")) return JSON.stringify(decimalExample(schema));
  if (types.includes("boolean")) return "true";
  if (schema.format === "date") return '"2026-01-15"';
  if (schema.format === "date-time") return '"2026-01-15T09:30:00.000Z"';
  if (schema.format === "email") return "`user${n}@example.com`";
  if (schema.format === "uri") return "`https://example.com/${n}`";
  if (schema.format === "uuid") return "`00000000-0000-4000-8000-${String(n).padStart(12, \"0\")}`";
  if (digits) return `String(n).padStart(${digits[1]}, "0")`;
  if (types.includes("string")) {
    if (schema.pattern !== undefined) return undefined;
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 255;
    if (min === max) return `String(n).padStart(${max}, "0")`;
    return `\`${key.replaceAll("_", " ")} \${n}\`.padEnd(${Math.max(min, 1)}, "x").slice(0, ${max})`;
  }
  if (types.length === 0 || types[0] === undefined) return "{ example: n }";
  return undefined;
}

function integerExpression(schema: JsonSchema): string {
  const min = schema.minimum ?? 0;
  const max = schema.maximum ?? 1_000_000;
  return `${min} + (n % ${Math.max(max - min, 1)})`;
}

function decimalExample(schema: JsonSchema): string {
  const scale = (schema["x-decimal"] as { scale?: number } | undefined)?.scale ?? 0;
  return scale > 0 ? `12.${"5".padEnd(scale, "0")}` : "12";
}
