/** How a resource is named everywhere (see types.ts): its names in each case, and its reference. */

export interface Names {
  pascal: string;
  camel: string;
  kebab: string;
  snake: string;
  /** Lowercase words, for messages: "medical record". */
  label: string;
  /** The label with its indefinite article: "an appointment". */
  aLabel: string;
  pluralPascal: string;
  pluralCamel: string;
  pluralKebab: string;
  pluralSnake: string;
  pluralLabel: string;
}

export interface ResourceRef {
  name: string;
  names: Names;
  prefix: string;
  collection: string;
  /** The table Prisma maps the model to: `medical_records`. */
  table: string;
  publicIdKey: "hash" | "public_id";
  softDelete: boolean;
  /** The built-in users (a belongsTo target only). */
  builtIn?: true;
}
