/** The subset of JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it) that hashapi emits. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: (string | number | boolean | null)[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
  examples?: unknown[];
  $ref?: string;
  /** Only as `{ type: "null" }`: any value but null (a json field that is not nullable). */
  not?: JsonSchema;
  [extension: string]: unknown;
}

const plainScalars = {
  integer: { type: "integer" },
  boolean: { type: "boolean" },
  date: { type: "string", format: "date" },
  datetime: { type: "string", format: "date-time" },
} as const;

/**
 * The schema of a type that reads the same in payloads, output and query filters; undefined for
 * the others. A fresh object each call: callers add keywords to it.
 */
export function plainScalarSchema(type: string): JsonSchema | undefined {
  const schema = plainScalars[type as keyof typeof plainScalars];
  return schema ? { ...schema } : undefined;
}
