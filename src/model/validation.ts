import type { ParsedRule } from "../spec/rules.js";
import { laravelMessage } from "./laravel-messages.js";
import { fieldType } from "./field-types.js";
import { hashPattern } from "./hash-format.js";
import { allowNull, fieldSchema, relationSchema, type BuiltProperty } from "./property-schema.js";
import type { PayloadField, PayloadRelation } from "./payload-field.js";
import type { JsonSchema } from "./json-schema.js";

/**
 * Turns Laravel rule lists into one JSON Schema per action plus the Laravel message for every way the
 * schema can fail. The schema is what ajv compiles in the generated service and what the OpenAPI
 * document publishes, so the two can never disagree.
 */

export type Action = "create" | "update";

export type { ParsedRule };

export type { PayloadField, PayloadRelation } from "./payload-field.js";

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
    const has = (name: string) => keyRules.some((rule) => rule.name === name);
    const isRequired = has("required");
    const isNullable = has("nullable");
    const built = keyProperty(action, key, keyRules, field, relations);
    if (isRequired) required.push(key);
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

/** One payload key's schema and messages: a field's or a relation's, with its presence rules. */
function keyProperty(action: Action, key: string, keyRules: ParsedRule[], field: PayloadField | undefined, relations: PayloadRelation[]): BuiltProperty {
  const has = (name: string) => keyRules.some((rule) => rule.name === name);
  const isRequired = has("required");
  const isNullable = has("nullable");
  // A field every record must have (not nullable, no default) may be left out of an update but not
  // emptied by it: text trimmed to nothing is refused as on create (Laravel's `filled`).
  const filled = isRequired || (action === "update" && field !== undefined && !field.nullable && !field.hasDefault && !isNullable);
  const built = field ? fieldSchema(field, keyRules, filled) : relationSchema(relations.find((candidate) => candidate.name === key)!);
  if (isNullable) built.schema = allowNull(built.schema);
  if (field?.example !== undefined) built.schema = { ...built.schema, examples: [field.example] };
  built.messages.null = isRequired ? laravelMessage("required", key) : (built.messages.type ?? laravelMessage("string", key));
  if (isRequired) built.messages.required = laravelMessage("required", key);
  return built;
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
