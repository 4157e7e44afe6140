/** The spec language (docs/spec-format.md) as TypeScript, after validation and defaults. */

import type { FieldType } from "../model/field-types.js";

export type { FieldType };
export type ActionName = "index" | "store" | "show" | "update" | "destroy" | "restore";

export interface FieldSpec {
  name: string;
  type: FieldType;
  max?: number;
  min?: number;
  length?: number;
  pattern?: string;
  unique?: boolean;
  nullable?: boolean;
  default?: unknown;
  values?: string[];
  precision?: number;
  scale?: number;
}

export interface RelationSpec {
  name: string;
  type: "belongsTo" | "hasMany";
  resource: string;
  required?: boolean;
  onDelete?: "restrict" | "cascade" | "setNull";
  inverse?: string;
}

export interface ResourceSpec {
  /** The file as the user named it, for messages: `specs/patient.yaml`. */
  file: string;
  name: string;
  collection?: string;
  prefix?: string;
  softDelete?: boolean;
  fields: FieldSpec[];
  rules?: { create?: Record<string, string[]>; update?: Record<string, string[]> };
  relations?: RelationSpec[];
  eagerLoad?: string[];
  serializer?: { publicId?: "hash" | "public_id"; fields?: string[]; hidden?: string[] };
  auth?: { public?: ActionName[] };
}

export interface ProjectSpec {
  name: string;
  database: "sqlite" | "postgresql";
  auth: { ttl: number; refreshTtl: number; user: { fields: FieldSpec[] } };
  pagination: { defaultPerPage: number; maxPerPage: number };
}

export interface ValidSpecs {
  project: ProjectSpec;
  resources: ResourceSpec[];
}

/** One thing wrong, where it is. */
export interface Problem {
  file: string;
  line: number;
  column: number;
  /** Path inside the document, e.g. `relations.member.resource`. */
  path: string;
  message: string;
}
