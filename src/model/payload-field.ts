import type { FieldType } from "./field-types.js";

/** A field as a payload writes it: what its schema and its TypeScript type are made from. */
export interface PayloadField {
  name: string;
  type: FieldType;
  nullable: boolean;
  hasDefault: boolean;
  max?: number;
  min?: number;
  length?: number;
  pattern?: string;
  values?: string[];
  precision?: number;
  scale?: number;
  unique: boolean;
  /** The spec's `example:`, emitted as the property's `examples` for the tests and seed data. */
  example?: unknown;
}

export interface PayloadRelation {
  name: string;
  targetResource: string;
  targetPrefix: string;
  required: boolean;
  /** A payload may leave it out on create (a direct owner, set from the token), yet never send null. */
  setFromToken?: boolean;
}
