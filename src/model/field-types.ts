import { laravelMessage, type LaravelMessageKey } from "./laravel-messages.js";
import type { JsonSchema } from "./json-schema.js";
import { uploadTokenPattern, uuidPattern } from "./public-names.js";

/**
 * Everything hashapi knows about a field type, in one place: what a spec may say about it, how it is
 * stored (Prisma and PostgreSQL types), validated (payload schema and messages), output (schema,
 * TypeScript type, example), filtered and sorted, and how the runtime library reads it (`kind`, one
 * of the runtime's `ColumnKind`s in runtime/common/src/data/column-codec.ts). Adding a type is adding
 * an entry here (and, for a new `kind`, teaching column-codec.ts and list-operators.ts to read it:
 * docs/architecture.md lists the files).
 */
export interface FieldTypeDescriptor {
  /** How a value travels between JSON, the runtime and the database (the runtime's ColumnKind). */
  kind: "string" | "integer" | "decimal" | "boolean" | "date" | "datetime" | "json";
  /** Spec options the type takes, besides `type`, `nullable` and `default`. */
  options: readonly string[];
  prisma: {
    type: "String" | "Int" | "Decimal" | "Boolean" | "DateTime" | "Json";
    /** The PostgreSQL column type (`@db.…`); SQLite takes Prisma's defaults. */
    postgres(field: FieldFacts): string;
  };
  /** A spec default as Prisma's `@default(…)` argument. */
  prismaDefault(value: unknown): string;
  /** Why a spec default does not suit the type, or undefined when it does. */
  defaultProblem(value: unknown, field: FieldFacts): string | undefined;
  payload: {
    /** The JSON Schema every payload value starts from (rules add keywords to a copy). */
    schema(field: FieldFacts): JsonSchema;
    /** The Laravel type rule a spec without explicit rules gets (`string`, `numeric`…), if any. */
    rule: string | undefined;
    /** The Laravel rule named when the value has the wrong type. */
    typeMessage: LaravelMessageKey;
    /** Messages of the keywords the base schema itself carries. */
    keywordMessages: Partial<Record<string, LaravelMessageKey>>;
    /** TypeScript type of the validated payload value. */
    tsType(field: FieldFacts): string;
    /** max/min/between/size count characters (false) or compare values (true). */
    numeric: boolean;
  };
  output: {
    schema(field: FieldFacts): JsonSchema;
    tsType(field: FieldFacts): string;
    /** The value the OpenAPI examples show. */
    example(field: FieldFacts & { label: string; nullable: boolean }): unknown;
  };
  /** How `?field=value` parses on a list (the runtime's FilterKind), or undefined when it cannot be filtered. */
  filter: "string" | "enum" | "uuid" | "integer" | "decimal" | "boolean" | "date" | "datetime" | undefined;
  /** Whether `search: true` may include it in `?search=` (free text). */
  searchable: boolean;
  sortable: boolean;
  /**
   * `unique` holds regardless of case (e-mails: `Ana@X.com` is taken when `ana@x.com` exists): a
   * unique index on lower(column) beside the plain one, and `unique` compares lower-cased.
   */
  uniqueIgnoresCase?: true;
  /** The validation rules a spec may give a field of this type, beyond required, sometimes and nullable. */
  rules: readonly TypeRule[];
}

/**
 * The Laravel rules that depend on a field's type. Each type lists the ones it takes (`rules`);
 * src/spec/rules.ts gives each its argument shape and derives from this registry where it applies.
 */
export type TypeRule =
  | "string"
  | "integer"
  | "numeric"
  | "boolean"
  | "date"
  | "email"
  | "max"
  | "min"
  | "size"
  | "digits"
  | "between"
  | "in"
  | "regex"
  | "unique"
  | "confirmed"
  | "uuid"
  | "url"
  | "file";

/** What a descriptor may read of one field's spec. */
export interface FieldFacts {
  name: string;
  max?: number;
  precision?: number;
  scale?: number;
  values?: readonly string[];
}

const decimalSyntax = "^-?[0-9]+(\\.[0-9]+)?$";
/** max, min, size and between: characters for text, values for numbers (payload.numeric). */
const sizeRules: readonly TypeRule[] = ["max", "min", "size", "between"];
/** What every free-text type takes. */
const textRules: readonly TypeRule[] = ["string", ...sizeRules, "regex", "unique", "confirmed"];
const common = ["max", "min", "length", "pattern", "unique"] as const;
const quoted = (value: unknown) => JSON.stringify(String(value));
const textDefault = (value: unknown) => (typeof value === "string" ? undefined : "must be a string");
const dateTimeDefault = (value: unknown) =>
  value === "now" ? "now()" : JSON.stringify(new Date(String(value)).toISOString());

const stringLike = (
  postgres: FieldTypeDescriptor["prisma"]["postgres"],
  options: readonly string[],
  rules: readonly TypeRule[],
): FieldTypeDescriptor => ({
  kind: "string",
  options,
  rules,
  prisma: { type: "String", postgres },
  prismaDefault: quoted,
  defaultProblem: textDefault,
  payload: { schema: () => ({ type: "string" }), rule: "string", typeMessage: "string", keywordMessages: {}, tsType: () => "string", numeric: false },
  output: {
    schema: (field) => ({ type: "string", ...(field.max !== undefined ? { maxLength: field.max } : {}) }),
    tsType: () => "string",
    example: (field) => (field.nullable ? null : `Example ${field.label}`),
  },
  filter: "string",
  searchable: true,
  sortable: true,
});

/** A calendar date or an instant: ISO strings in JSON, DateTime in Prisma, Laravel's `date` rule. */
function dateLike(
  kind: "date" | "datetime",
  format: "date" | "date-time",
  postgres: string,
  example: string,
  defaultProblem: FieldTypeDescriptor["defaultProblem"],
): FieldTypeDescriptor {
  return {
    kind,
    // `set`: the server sets it to the current time (spec-format "Fields the server sets").
    options: ["set"],
    prisma: { type: "DateTime", postgres: () => postgres },
    prismaDefault: dateTimeDefault,
    defaultProblem,
    payload: {
      schema: () => ({ type: "string", format }),
      rule: "date",
      typeMessage: "date",
      keywordMessages: { format: "date" },
      tsType: () => "string",
      numeric: false,
    },
    output: { schema: () => ({ type: "string", format }), tsType: () => "string", example: () => example },
    filter: kind,
    searchable: false,
    sortable: true,
    rules: ["date", "unique"],
  };
}

export const fieldTypes = {
  string: stringLike((field) => (field.max !== undefined ? `@db.VarChar(${field.max})` : "@db.Text"), common, [
    ...textRules,
    "email",
    "digits",
    "in",
    "uuid",
    "url",
  ]),
  text: stringLike(() => "@db.Text", ["max"], [...textRules, "url"]),
  email: {
    ...stringLike((field) => `@db.VarChar(${field.max ?? 255})`, common, [...textRules, "email", "in"]),
    payload: {
      schema: () => ({ type: "string", format: "email" }),
      rule: "email",
      typeMessage: "email",
      keywordMessages: { format: "email" },
      tsType: () => "string",
      numeric: false,
    },
    output: { schema: () => ({ type: "string", format: "email" }), tsType: () => "string", example: () => "maria@example.com" },
    uniqueIgnoresCase: true,
  },
  uuid: {
    ...stringLike(() => "@db.Uuid", ["unique"], ["string", "unique", "uuid"]),
    defaultProblem: (value) => (typeof value === "string" && new RegExp(uuidPattern).test(value) ? undefined : "must be a lowercase UUID"),
    payload: {
      schema: () => ({ type: "string", pattern: uuidPattern }),
      rule: undefined,
      typeMessage: "uuid",
      keywordMessages: { pattern: "uuid" },
      tsType: () => "string",
      numeric: false,
    },
    output: {
      schema: () => ({ type: "string", format: "uuid" }),
      tsType: () => "string",
      example: () => "0b7e4c1a-3f9d-4e2b-9a61-5d8c2f0e7b34",
    },
    filter: "uuid",
    searchable: false,
  },
  enum: {
    ...stringLike((field) => `@db.VarChar(${Math.max(...(field.values ?? []).map((value) => value.length), 1)})`, ["values"], ["string", "in", "unique"]),
    defaultProblem: (value, field) =>
      typeof value === "string" && (field.values ?? []).includes(value) ? undefined : `must be one of the enum values: ${(field.values ?? []).join(", ")}`,
    payload: {
      schema: (field) => ({ enum: [...(field.values ?? [])] }),
      rule: undefined,
      typeMessage: "in",
      keywordMessages: { enum: "in" },
      tsType: (field) => (field.values ?? []).map((value) => JSON.stringify(value)).join(" | "),
      numeric: false,
    },
    output: {
      schema: (field) => ({ type: "string", enum: [...(field.values ?? [])] }),
      tsType: (field) => (field.values ?? []).map((value) => JSON.stringify(value)).join(" | "),
      example: (field) => field.values?.[0] ?? null,
    },
    // A value outside `values` matches no row: refused (422) like any other invalid filter value.
    filter: "enum",
    searchable: false,
  },
  integer: {
    kind: "integer",
    options: ["min", "max", "unique"],
    prisma: { type: "Int", postgres: () => "" },
    prismaDefault: String,
    defaultProblem: (value) => (Number.isInteger(value) ? undefined : "must be a whole number"),
    payload: { schema: () => ({ type: "integer" }), rule: "integer", typeMessage: "integer", keywordMessages: {}, tsType: () => "number", numeric: true },
    output: { schema: () => ({ type: "integer" }), tsType: () => "number", example: () => 42 },
    filter: "integer",
    searchable: false,
    sortable: true,
    rules: ["integer", "numeric", ...sizeRules, "digits", "in", "unique"],
  },
  decimal: {
    kind: "decimal",
    options: ["precision", "scale", "min", "max"],
    prisma: { type: "Decimal", postgres: (field) => `@db.Decimal(${field.precision ?? 10}, ${field.scale ?? 2})` },
    prismaDefault: String,
    defaultProblem: (value) => (typeof value === "number" ? undefined : "must be a number"),
    payload: {
      // The syntax of a string; the limits of both strings and numbers are x-decimal's (validation.ts).
      schema: () => ({ type: ["string", "number"], pattern: decimalSyntax }),
      rule: "numeric",
      typeMessage: "numeric",
      keywordMessages: { pattern: "numeric" },
      tsType: () => "string | number",
      numeric: true,
    },
    output: {
      schema: () => ({ type: "string", pattern: decimalSyntax }),
      tsType: () => "string",
      example: (field) => `12.${"5".padEnd(field.scale ?? 2, "0")}`.replace(/\.$/, ""),
    },
    filter: "decimal",
    searchable: false,
    sortable: true,
    rules: ["numeric", ...sizeRules, "unique"],
  },
  boolean: {
    kind: "boolean",
    options: [],
    prisma: { type: "Boolean", postgres: () => "" },
    prismaDefault: String,
    defaultProblem: (value) => (typeof value === "boolean" ? undefined : "must be true or false"),
    payload: { schema: () => ({ type: "boolean" }), rule: "boolean", typeMessage: "boolean", keywordMessages: {}, tsType: () => "boolean", numeric: false },
    output: { schema: () => ({ type: "boolean" }), tsType: () => "boolean", example: () => true },
    filter: "boolean",
    searchable: false,
    sortable: true,
    rules: ["boolean"],
  },
  date: dateLike("date", "date", "@db.Date", "2026-01-15", (value) =>
    value === "now" || (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) ? undefined : 'must be a date "YYYY-MM-DD" or "now"',
  ),
  datetime: dateLike("datetime", "date-time", "@db.Timestamptz(3)", "2026-01-15T09:30:00.000Z", (value) =>
    value === "now" || (typeof value === "string" && !Number.isNaN(Date.parse(value))) ? undefined : 'must be an ISO 8601 date-time or "now"',
  ),
  json: {
    kind: "json",
    options: [],
    prisma: { type: "Json", postgres: () => "@db.JsonB" },
    prismaDefault: (value) => JSON.stringify(JSON.stringify(value)),
    defaultProblem: () => undefined,
    // Any JSON value but null, which only a nullable field takes (its column is NOT NULL otherwise).
    payload: { schema: () => ({ not: { type: "null" } }), rule: undefined, typeMessage: "json", keywordMessages: {}, tsType: () => "unknown", numeric: false },
    output: { schema: () => ({}), tsType: () => "unknown", example: () => ({}) },
    filter: undefined,
    searchable: false,
    sortable: false,
    rules: [],
  },
  file: {
    // Stored as JSON (the object's key, name, size and type); output as { name, size, type, url }.
    kind: "json",
    options: ["max", "min", "mimes", "mimetypes", "image", "dimensions"],
    prisma: { type: "Json", postgres: () => "@db.JsonB" },
    prismaDefault: () => "null",
    defaultProblem: () => "a file field takes no default: a record gets its file from an upload",
    // The payload names an upload by its token (a multipart part becomes one too).
    payload: {
      schema: () => ({ type: "string", pattern: uploadTokenPattern }),
      rule: "file",
      typeMessage: "file",
      keywordMessages: { pattern: "file" },
      tsType: () => "string",
      numeric: false,
    },
    output: {
      schema: () => fileOutputSchema,
      tsType: () => "{ name: string; size: number; type: string; url: string }",
      example: (field) =>
        field.nullable ? null : { name: "resume.pdf", size: 48213, type: "application/pdf", url: "https://api.example.com/api/files/k7x9mq2bf3a4c5d6e7f8g2h3j4?expires=1767225600&signature=…" },
    },
    filter: undefined,
    searchable: false,
    sortable: false,
    rules: ["file"],
  },
} satisfies Record<string, FieldTypeDescriptor>;

/** What a file field outputs to a reader who may see it (api-contract "Files"). */
const fileOutputSchema: JsonSchema = {
  type: "object",
  required: ["name", "size", "type", "url"],
  properties: {
    name: { type: "string", description: "the file's name as uploaded (its last path segment)" },
    size: { type: "integer", description: "bytes" },
    type: { type: "string", description: "the media type read from its bytes" },
    url: { type: "string", description: "a short-lived signed URL that downloads it" },
  },
};

export type FieldType = keyof typeof fieldTypes;

export const fieldTypeNames = Object.keys(fieldTypes) as FieldType[];

export function fieldType(type: FieldType): FieldTypeDescriptor {
  return fieldTypes[type];
}

/** The Laravel messages of a payload value's base schema: its type, and the keywords that schema carries. */
export function baseMessages(type: FieldType, key: string): Record<string, string> {
  const payload = fieldTypes[type].payload;
  const messages: Record<string, string> = { type: laravelMessage(payload.typeMessage, key) };
  for (const [keyword, rule] of Object.entries(payload.keywordMessages)) if (rule) messages[keyword] = laravelMessage(rule, key);
  return messages;
}
