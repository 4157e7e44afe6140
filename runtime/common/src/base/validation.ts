// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { parseDate, parseDateTime } from "./dates.js";
import { decimalProblem, type DecimalRule } from "./decimals.js";
import { emptyFieldErrors, ValidationFailed, type FieldErrors } from "./errors.js";
import { isRecord, propertyOf } from "./records.js";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
const addFormats = formatsFunction(propertyOf(addFormatsModule, "default") ?? addFormatsModule);

function formatsFunction(value: unknown): AddFormats {
  if (!isAddFormats(value)) throw new Error("ajv-formats exports no function");
  return value;
}

function isAddFormats(value: unknown): value is AddFormats {
  return typeof value === "function";
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
addFormats(ajv, ["email", "uuid", "uri"]);
// Dates are read by the same parsers the service stores with: what validates can always be stored.
ajv.addFormat("date", {
  type: "string",
  validate: (text: string) => parseDate(text) !== undefined,
});
ajv.addFormat("date-time", {
  type: "string",
  validate: (text: string) => parseDateTime(text) !== undefined,
});

/**
 * `x-decimal: { precision, scale, minimum?, maximum? }`: a decimal column's limits, checked on the
 * value whether the client sent it as a JSON string or a JSON number (a `pattern` applies to strings
 * only, so numbers used to slip past it). Each failure names its own rule, whose message the
 * resource's message table holds.
 */
const decimalKeyword = function validate(rule: DecimalRule, data: unknown): boolean {
  if (typeof data !== "string" && typeof data !== "number") return true;
  const problem = decimalProblem(data, rule);
  if (problem === undefined) return true;
  const errors: Partial<ErrorObject>[] = [
    { keyword: "x-decimal", message: problem, params: { rule: problem } },
  ];
  Reflect.set(validate, "errors", errors);
  return false;
};
ajv.addKeyword({
  keyword: "x-decimal",
  schemaType: "object",
  errors: true,
  validate: decimalKeyword,
});

/** field → failing keyword (or `null` for a null value) → message, produced by hashapi from the rules. */
export type MessageTable = Record<string, Record<string, string>>;

/** The same, written once per message: field → `[message, ...the keywords it answers]`. */
export type MessageList = Readonly<Record<string, readonly (readonly [string, ...string[]])[]>>;

export function messageTable(list: MessageList): MessageTable {
  const table: MessageTable = Object.create(null);
  for (const [field, entries] of Object.entries(list)) {
    const messages: Record<string, string> = Object.create(null);
    for (const [message, ...keywords] of entries)
      for (const keyword of keywords) messages[keyword] = message;
    table[field] = messages;
  }
  return table;
}

export type PayloadValidator<T> = (body: unknown) => T;

export interface ValidatorOptions {
  /** Fields whose `<field>_confirmation` must be equal (Laravel's `confirmed`); the copy is not returned. */
  confirmed?: readonly string[];
}

/**
 * Fields whose text is kept exactly as sent: a password's spaces are part of it (Laravel's
 * TrimStrings leaves the same three alone).
 */
const verbatimFields = new Set(["password", "password_confirmation", "current_password"]);

/** The top-level properties a schema declares as text (a json field, which may hold anything, is not). */
function textFields(schema: object): string[] {
  const properties = propertyOf(schema, "properties");
  return Object.entries(isRecord(properties) ? properties : {})
    .filter(([field, property]) => {
      const type = propertyOf(property, "type");
      const text = type === "string" || (Array.isArray(type) && type.includes("string"));
      return text && !verbatimFields.has(field) && !field.endsWith("_confirmation");
    })
    .map(([field]) => field);
}

/**
 * Text as users see it, before any rule looks at it: trimmed (as Laravel's TrimStrings does) and in
 * Unicode normal form C, so "X123 " and "X123", or "é" typed as e + combining accent and as one
 * character, are the same value to `unique`, to filters and to the database. A `confirmed` copy is
 * normalized with its field. Returns the body itself when nothing changes (the usual case).
 */
export function normalizeText(
  body: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const field of fields) {
    for (const key of [field, `${field}_confirmation`]) {
      const value = Object.hasOwn(body, key) ? body[key] : undefined;
      if (typeof value !== "string") continue;
      const normal = value.trim().normalize("NFC");
      if (normal !== value) (copy ??= { ...body })[key] = normal;
    }
  }
  return copy ?? body;
}

function label(field: string): string {
  return field.replaceAll("_", " ");
}

/**
 * Compiles a JSON Schema once, at start-up. The returned function throws ValidationFailed with
 * Laravel's messages, or returns the body typed as the payload (unknown keys are already refused).
 */
export function compileValidator<T>(
  schema: object,
  messageSource: MessageTable | MessageList,
  options: ValidatorOptions = {},
): PayloadValidator<T> {
  // Compiled on first use: a project's validators are imported at start-up, and compiling them all
  // there made every restart of `npm run dev` wait for resources nobody had asked for yet.
  let compiled: ValidateFunction | undefined;
  const messages = isMessageList(messageSource) ? messageTable(messageSource) : messageSource;
  const confirmed = options.confirmed ?? [];
  const text = textFields(schema);
  return (sent) => {
    if (!isRecord(sent))
      throw new ValidationFailed({ body: ["The request body must be a JSON object."] });
    const record = normalizeText(sent, text);
    const body: unknown = record;
    const validate = (compiled ??= ajv.compile(schema));
    const errors = validate(body)
      ? emptyFieldErrors()
      : toFieldErrors(validate.errors ?? [], record, messages);
    for (const field of confirmed) {
      const confirmation = `${field}_confirmation`;
      if (errors[field] || !Object.hasOwn(record, field)) continue;
      // Laravel compares strictly: the copy must be the same JSON value, not merely similar.
      if (!Object.hasOwn(record, confirmation) || record[field] !== record[confirmation]) {
        errors[field] = [
          messages[field]?.confirmed ?? `The ${label(field)} field confirmation does not match.`,
        ];
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors, record);
    if (confirmed.length === 0) return body as T;
    const payload = { ...record };
    for (const field of confirmed) delete payload[`${field}_confirmation`];
    return payload as T;
  };
}

/** One action's payload rules as `<name>.resource.json` holds them: the schema, each field's messages. */
export interface ActionRules {
  readonly schema: object;
  /** field → `[message, ...the keywords it answers]` (JSON has no tuples: checked when compiled). */
  readonly messages: Readonly<Record<string, readonly (readonly string[])[]>>;
  readonly confirmed?: readonly string[];
}

export interface PayloadRules {
  readonly create: ActionRules;
  readonly update: ActionRules;
}

export interface PayloadValidators<Create, Update> {
  readonly create: PayloadValidator<Create>;
  readonly update: PayloadValidator<Update>;
}

/**
 * A resource's two validators, from the `validation` of its `<name>.resource.json`, typed by the
 * payloads its `<name>.validator.ts` declares: an update accepts any of the create fields unless its
 * rules say otherwise.
 */
export function payloadValidators<Create, Update = Partial<Create>>(declaration: {
  readonly validation: PayloadRules;
}): PayloadValidators<Create, Update> {
  const rules = declaration.validation;
  return {
    create: actionValidator<Create>(rules.create),
    update: actionValidator<Update>(rules.update),
  };
}

function actionValidator<T>(rules: ActionRules): PayloadValidator<T> {
  for (const [field, entries] of Object.entries(rules.messages))
    for (const entry of entries)
      if (entry.length < 2)
        throw new Error(
          `The messages of ${field} need a message and a keyword each: ${JSON.stringify(entry)}`,
        );
  return compileValidator<T>(rules.schema, rules.messages as MessageList, {
    confirmed: rules.confirmed ?? [],
  });
}

/** A text parameter of an ajv error (`missingProperty`, `additionalProperty`, x-decimal's `rule`). */
function errorParam(error: ErrorObject, name: string): string | undefined {
  const value: unknown = error.params[name];
  return typeof value === "string" ? value : undefined;
}

/** Whether messages come written once per message (a `<name>.resource.json`) rather than as a table. */
function isMessageList(source: MessageTable | MessageList): source is MessageList {
  return Object.values(source).some((entry) => Array.isArray(entry));
}

export function toFieldErrors(
  errors: ErrorObject[],
  body: Record<string, unknown>,
  messages: MessageTable,
): FieldErrors {
  const result = emptyFieldErrors();
  const add = (field: string, message: string) => {
    const list = (result[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const error of errors) {
    // Inside a list (a belongsToMany's items): keys as Laravel writes them, `specialties.0.since`.
    const inside = error.instancePath.split("/").slice(1);
    if (inside.length > 1) {
      const { key, message } = itemError(error, inside, messages);
      add(key, message);
      continue;
    }
    if (error.keyword === "additionalProperties") {
      const field = String(errorParam(error, "additionalProperty"));
      add(field, `The ${label(field)} field is prohibited.`);
      continue;
    }
    if (error.keyword === "required") {
      const field = String(errorParam(error, "missingProperty"));
      add(field, messages[field]?.required ?? `The ${label(field)} field is required.`);
      continue;
    }
    const field = error.instancePath.split("/")[1] ?? "body";
    const table = Object.hasOwn(messages, field) ? messages[field]! : {};
    // A keyword that checks several rules (x-decimal) names the one that failed.
    const rule = errorParam(error, "rule") ?? error.keyword;
    const keyword = Object.hasOwn(body, field) && body[field] === null ? "null" : rule;
    add(field, table[keyword] ?? table.type ?? `The ${label(field)} field is invalid.`);
  }
  return result;
}

/**
 * The key and message of an error inside a list item (`/specialties/0` or `/specialties/0/since`):
 * the item's related hash is `specialties.0`, a pivot field `specialties.0.since`. Messages are
 * written once per list under `specialties.*` and `specialties.*.since`, the index put back here.
 */
function itemError(
  error: ErrorObject,
  path: readonly string[],
  messages: MessageTable,
): { key: string; message: string } {
  const [list = "", index = "", property] = path;
  let field = property;
  if (error.keyword === "additionalProperties")
    field = String(errorParam(error, "additionalProperty"));
  else if (error.keyword === "required") field = String(errorParam(error, "missingProperty"));
  // The related record's hash is the item itself, as a list of plain hashes is.
  const named = field === undefined || (field === "hash" && error.keyword !== "required");
  const key = named ? `${list}.${index}` : `${list}.${index}.${field}`;
  const wildcard = named ? `${list}.*` : `${list}.*.${field}`;
  if (error.keyword === "additionalProperties")
    return { key, message: `The ${label(key)} field is prohibited.` };
  const table = Object.hasOwn(messages, wildcard) ? messages[wildcard]! : {};
  const rule = errorParam(error, "rule") ?? error.keyword;
  const message =
    error.keyword === "required"
      ? (table.required ?? `The ${label(key)} field is required.`)
      : (table[rule] ?? table.type ?? `The ${label(key)} field is invalid.`);
  return { key, message: message.replaceAll(`${list}.*`, `${list}.${index}`) };
}
