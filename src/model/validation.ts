import type { ParsedRule } from "../spec/rules.js";
import { hashPattern } from "./hash-format.js";
import { laravelMessage } from "./laravel-messages.js";
import { baseMessages, fieldType, type FieldType } from "./field-types.js";
import type { JsonSchema } from "./json-schema.js";

/**
 * Turns Laravel rule lists into one JSON Schema per action plus the Laravel message for every way the
 * schema can fail. The schema is what ajv compiles in the generated service and what the OpenAPI
 * document publishes, so the two can never disagree.
 */

export type Action = "create" | "update";

export type { ParsedRule };

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

/** What a generated validator needs beyond the schema: checks that need the database. */
export interface ActionValidation {
  action: Action;
  schema: JsonSchema;
  /** field → failing JSON Schema keyword (or `null` for a null value) → Laravel message */
  messages: Record<string, Record<string, string>>;
  /** The same messages, each written once: field → [message, ...the keywords it answers]. */
  messageList: Record<string, [string, ...string[]][]>;
  /** accepted payload keys, in declaration order */
  keys: string[];
  /** The typed payload the validator returns: one entry per accepted key. */
  payload: PayloadKey[];
  confirmed: string[];
}

export interface PayloadKey {
  key: string;
  tsType: string;
  optional: boolean;
}


export function deriveRules(
  action: Action,
  fields: PayloadField[],
  relations: PayloadRelation[],
): Map<string, ParsedRule[]> {
  const rules = new Map<string, ParsedRule[]>();
  for (const field of fields) {
    const presence =
      action === "update" ? "sometimes" : field.nullable || field.hasDefault ? "sometimes" : "required";
    const list: ParsedRule[] = [{ name: presence, args: [] }];
    if (field.nullable) list.push({ name: "nullable", args: [] });
    list.push(...typeRules(field));
    if (field.unique) list.push({ name: "unique", args: [] });
    rules.set(field.name, list);
  }
  for (const relation of relations) {
    const presence = action === "create" && relation.required && !relation.setFromToken ? "required" : "sometimes";
    const list: ParsedRule[] = [{ name: presence, args: [] }];
    if (!relation.required) list.push({ name: "nullable", args: [] });
    list.push({ name: "exists", args: [] });
    rules.set(relation.name, list);
  }
  return rules;
}

function typeRules(field: PayloadField): ParsedRule[] {
  const rules: ParsedRule[] = [];
  const name = fieldType(field.type).payload.rule;
  if (name) rules.push({ name, args: [] });
  if (field.values && field.values.length > 0) rules.push({ name: "in", args: field.values });
  if (field.length !== undefined) rules.push({ name: "size", args: [String(field.length)] });
  if (field.min !== undefined) rules.push({ name: "min", args: [String(field.min)] });
  if (field.max !== undefined) rules.push({ name: "max", args: [String(field.max)] });
  if (field.pattern !== undefined) rules.push({ name: "regex", args: [`/${field.pattern}/`] });
  return rules;
}

export function buildActionValidation(
  action: Action,
  fields: PayloadField[],
  relations: PayloadRelation[],
  rules: Map<string, ParsedRule[]>,
): ActionValidation {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const messages: Record<string, Record<string, string>> = {};
  const result: ActionValidation = {
    action,
    schema: {},
    messages,
    messageList: {},
    keys: [],
    payload: [],
    confirmed: [],
  };

  for (const [key, keyRules] of rules) {
    const field = fields.find((candidate) => candidate.name === key);
    const relation = relations.find((candidate) => candidate.name === key);
    const has = (name: string) => keyRules.some((rule) => rule.name === name);
    const isRequired = has("required");
    const isNullable = has("nullable");
    // A field every record must have (not nullable, no default) may be left out of an update but not
    // emptied by it: text trimmed to nothing is refused as on create (Laravel's `filled`).
    const filled = isRequired || (action === "update" && field !== undefined && !field.nullable && !field.hasDefault && !isNullable);
    const built = field
      ? fieldSchema(field, keyRules, filled)
      : relationSchema(relation!);
    if (isNullable) built.schema = allowNull(built.schema);
    if (field?.example !== undefined) built.schema = { ...built.schema, examples: [field.example] };
    built.messages.null = isRequired
      ? laravelMessage("required", key)
      : (built.messages.type ?? laravelMessage("string", key));
    if (isRequired) {
      required.push(key);
      built.messages.required = laravelMessage("required", key);
    }
    properties[key] = built.schema;
    messages[key] = built.messages;
    result.keys.push(key);
    result.payload.push(payloadKey(key, field, isRequired, isNullable));
    if (has("confirmed")) {
      const confirmation = `${key}_confirmation`;
      properties[confirmation] = { ...built.schema };
      messages[confirmation] = { ...built.messages };
      // Equality is checked by the generated validator after the schema (JSON Schema cannot say it).
      built.messages.confirmed = laravelMessage("confirmed", key);
      result.confirmed.push(key);
    }
  }

  result.schema = {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
  result.messageList = groupMessages(messages);
  return result;
}

/** Each field's messages written once, with every keyword that answers with it, in first-seen order. */
function groupMessages(messages: Record<string, Record<string, string>>): ActionValidation["messageList"] {
  return Object.fromEntries(
    Object.entries(messages).map(([field, byKeyword]) => {
      const groups = new Map<string, string[]>();
      for (const [keyword, message] of Object.entries(byKeyword)) groups.set(message, [...(groups.get(message) ?? []), keyword]);
      return [field, [...groups].map(([message, keywords]): [string, ...string[]] => [message, ...keywords])];
    }),
  );
}

function payloadKey(key: string, field: PayloadField | undefined, required: boolean, nullable: boolean): PayloadKey {
  const base = field ? inputTsType(field) : "string";
  return { key, tsType: nullable && base !== "unknown" ? `${base} | null` : base, optional: !required };
}

function inputTsType(field: PayloadField): string {
  return fieldType(field.type).payload.tsType(field);
}

interface BuiltProperty {
  schema: JsonSchema;
  messages: Record<string, string>;
}

function relationSchema(relation: PayloadRelation): BuiltProperty {
  const invalid = laravelMessage("exists", relation.name);
  return {
    schema: { type: "string", pattern: hashPattern(relation.targetPrefix) },
    messages: { type: invalid, pattern: invalid },
  };
}

/** `nonEmpty`: text must not be empty (a required field, or one an update must not empty). */
function fieldSchema(field: PayloadField, rules: ParsedRule[], nonEmpty: boolean): BuiltProperty {
  const key = field.name;
  const numeric = fieldType(field.type).payload.numeric;
  const schema: JsonSchema = fieldType(field.type).payload.schema(field);
  const messages: Record<string, string> = baseMessages(field.type, key);

  for (const rule of rules) {
    const [first, second] = rule.args;
    switch (rule.name) {
      case "max":
        setUpperBound(schema, messages, key, numeric, Number(first));
        break;
      case "min":
        setLowerBound(schema, messages, key, numeric, Number(first));
        break;
      case "between":
        setLowerBound(schema, messages, key, numeric, Number(first));
        setUpperBound(schema, messages, key, numeric, Number(second));
        break;
      case "size":
        if (numeric) {
          schema.minimum = schema.maximum = Number(first);
          messages.minimum = messages.maximum = laravelMessage("sizeNumeric", key, { size: Number(first) });
        } else {
          schema.minLength = schema.maxLength = Number(first);
          messages.minLength = messages.maxLength = laravelMessage("sizeString", key, { size: Number(first) });
        }
        break;
      case "digits":
        if (field.type === "integer") {
          schema.minimum = 10 ** (Number(first) - 1);
          schema.maximum = 10 ** Number(first) - 1;
          messages.minimum = messages.maximum = laravelMessage("digits", key, { digits: Number(first) });
        } else {
          schema.pattern = `^[0-9]{${Number(first)}}$`;
          messages.pattern = laravelMessage("digits", key, { digits: Number(first) });
        }
        break;
      case "in":
        schema.enum = [...rule.args];
        delete schema.type;
        messages.enum = laravelMessage("in", key);
        messages.type = laravelMessage("in", key);
        break;
      case "regex":
        schema.pattern = stripRegexDelimiters(rule.args.join(","));
        messages.pattern = laravelMessage("regex", key);
        break;
      case "email":
        schema.format = "email";
        messages.format = laravelMessage("email", key);
        break;
      case "uuid":
        schema.format = "uuid";
        messages.format = laravelMessage("uuid", key);
        break;
      case "url":
        schema.format = "uri";
        messages.format = laravelMessage("url", key);
        break;
      default:
        // presence rules, type rules (already in baseSchema), unique/exists/confirmed (database or
        // cross-field checks made by the generated validator).
        break;
    }
  }

  if (field.type === "integer") limitToInt32(schema, messages, key);
  if (field.type === "decimal") addDecimalLimits(schema, messages, field);

  if (nonEmpty && schema.type === "string" && (schema.minLength ?? 0) < 1) {
    // Laravel's `required` rejects the empty string; say so in its own words.
    schema.minLength = 1;
    messages.minLength = laravelMessage("required", key);
  }
  return { schema, messages };
}

/** Prisma's Int is 32-bit on SQLite and PostgreSQL alike: a larger value could not be stored. */
const int32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 };

function limitToInt32(schema: JsonSchema, messages: Record<string, string>, key: string): void {
  if (schema.minimum === undefined || schema.minimum < int32.minimum) {
    schema.minimum = int32.minimum;
    messages.minimum = laravelMessage("minNumeric", key, { min: int32.minimum });
  }
  if (schema.maximum === undefined || schema.maximum > int32.maximum) {
    schema.maximum = int32.maximum;
    messages.maximum = laravelMessage("maxNumeric", key, { max: int32.maximum });
  }
}

/**
 * `x-decimal` (checked by the generated service's validation.ts): the column's precision and scale,
 * and any min/max rule, applied alike to a value sent as a string or as a number. `minimum` and
 * `maximum` stay in the schema too, where every JSON Schema tool reads them (for numbers).
 */
function addDecimalLimits(schema: JsonSchema, messages: Record<string, string>, field: PayloadField): void {
  const scale = field.scale ?? 2;
  const precision = field.precision ?? 10;
  schema["x-decimal"] = {
    precision,
    scale,
    ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
    ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
  };
  messages.numeric = laravelMessage("numeric", field.name);
  messages.decimalIntegerDigits = laravelMessage("decimalIntegerDigits", field.name, { digits: precision - scale });
  messages.decimalPlaces = laravelMessage("decimal", field.name, { decimal: `0-${scale}` });
}

function setUpperBound(
  schema: JsonSchema,
  messages: Record<string, string>,
  key: string,
  numeric: boolean,
  max: number,
): void {
  if (numeric) {
    schema.maximum = max;
    messages.maximum = laravelMessage("maxNumeric", key, { max });
  } else {
    schema.maxLength = max;
    messages.maxLength = laravelMessage("maxString", key, { max });
  }
}

function setLowerBound(
  schema: JsonSchema,
  messages: Record<string, string>,
  key: string,
  numeric: boolean,
  min: number,
): void {
  if (numeric) {
    schema.minimum = min;
    messages.minimum = laravelMessage("minNumeric", key, { min });
  } else {
    schema.minLength = min;
    messages.minLength = laravelMessage("minString", key, { min });
  }
}

function allowNull(schema: JsonSchema): JsonSchema {
  if (schema.not !== undefined) {
    const { not: _nullRefused, ...anyValue } = schema;
    return anyValue;
  }
  if (schema.enum) return { ...schema, enum: [...schema.enum, null] };
  if (schema.type === undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return { ...schema, type: [...types, "null"] };
}

function stripRegexDelimiters(regex: string): string {
  return regex.startsWith("/") && regex.lastIndexOf("/") > 0 ? regex.slice(1, regex.lastIndexOf("/")) : regex;
}

/** A belongsToMany as payloads write it: the related records' hashes, with the pivot's fields. */
export interface ManyPayloadRelation {
  name: string;
  targetPrefix: string;
  pivotFields: PayloadField[];
  /** The pivot's fields as an attach's body validates them: a create of those fields. */
  pivot: ActionValidation;
}

/** The most related records one payload may link through one relation (each is looked up and locked). */
export const maxLinksPerPayload = 1000;

/**
 * Adds each belongsToMany to an action's payload (always optional; an update replaces the whole set):
 * an array of hashes, or of objects `{ hash, ...pivot fields }` when the relation has pivot fields
 * (validated as the attach's body is). Item errors are keyed `<relation>.<index>` (and
 * `.<pivot field>`), as Laravel names them; the runtime looks their messages up under
 * `<relation>.*`.
 */
export function addManyRelations(validation: ActionValidation, relations: ManyPayloadRelation[]): ActionValidation {
  if (relations.length === 0) return validation;
  const properties = { ...(validation.schema.properties ?? {}) };
  const messages = { ...validation.messages };
  const keys = [...validation.keys];
  const payload = [...validation.payload];
  for (const relation of relations) {
    const item = `${relation.name}.*`;
    const invalid = laravelMessage("exists", item);
    const hash: JsonSchema = { type: "string", pattern: hashPattern(relation.targetPrefix) };
    let items: JsonSchema = hash;
    let itemType = "string";
    if (relation.pivotFields.length > 0) {
      // The same rules, their messages naming each field as an item's: `specialties.*.since`.
      const named = relation.pivotFields.map((field) => ({ ...field, name: `${item}.${field.name}` }));
      Object.assign(messages, buildActionValidation("create", named, [], deriveRules("create", named, [])).messages);
      const { schema } = relation.pivot;
      items = { type: "object", properties: { hash, ...schema.properties }, required: ["hash", ...(schema.required ?? [])], additionalProperties: false };
      itemType = `{ ${["hash: string", ...relation.pivot.payload.map((key) => `${key.key}${key.optional ? "?" : ""}: ${key.tsType}`)].join("; ")} }`;
    }
    properties[relation.name] = { type: "array", maxItems: maxLinksPerPayload, items };
    messages[relation.name] = { type: laravelMessage("array", relation.name), null: laravelMessage("array", relation.name), maxItems: laravelMessage("maxArray", relation.name, { max: maxLinksPerPayload }) };
    // With pivot fields an item is an object: a bare hash there is told so, not "invalid" (it may exist).
    const itemShape = relation.pivotFields.length > 0 ? `The ${item} field must be an object with the related record's hash and the pivot's fields.` : invalid;
    messages[item] = { type: itemShape, pattern: invalid };
    keys.push(relation.name);
    payload.push({ key: relation.name, tsType: `${itemType}[]`, optional: true });
  }
  return {
    ...validation,
    schema: { ...validation.schema, properties },
    messages,
    messageList: groupMessages(messages),
    keys,
    payload,
  };
}
