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
  [extension: string]: unknown;
}
