import type { ParsedRule } from "../spec/rules.js";
import { hashPattern } from "./hash-format.js";
import { laravelMessage } from "./laravel-messages.js";
import { baseMessages, fieldType } from "./field-types.js";
import type { JsonSchema } from "./json-schema.js";
import type { PayloadField, PayloadRelation } from "./payload-field.js";

/*
 * One payload property's JSON Schema and its Laravel messages, per failing keyword: a field's from
 * its type and its rules, a relation's from the related resource's hash format.
 */

export interface BuiltProperty {
  schema: JsonSchema;
  messages: Record<string, string>;
}

export function relationSchema(relation: PayloadRelation): BuiltProperty {
  const invalid = laravelMessage("exists", relation.name);
  return {
    schema: { type: "string", pattern: hashPattern(relation.targetPrefix) },
    messages: { type: invalid, pattern: invalid },
  };
}

/** `nonEmpty`: text must not be empty (a required field, or one an update must not empty). */
export function fieldSchema(field: PayloadField, rules: ParsedRule[], nonEmpty: boolean): BuiltProperty {
  const key = field.name;
  const numeric = fieldType(field.type).payload.numeric;
  const schema: JsonSchema = fieldType(field.type).payload.schema(field);
  const messages: Record<string, string> = baseMessages(field.type, key);

  for (const rule of rules) applyRule(schema, messages, field, rule, numeric);

  if (field.type === "integer") limitToInt32(schema, messages, key);
  if (field.type === "decimal") addDecimalLimits(schema, messages, field);

  if (nonEmpty && schema.type === "string" && (schema.minLength ?? 0) < 1) {
    // Laravel's `required` rejects the empty string; say so in its own words.
    schema.minLength = 1;
    messages.minLength = laravelMessage("required", key);
  }
  return { schema, messages };
}

/** What one Laravel rule adds to a field's schema, with the message for each keyword it sets. */
function applyRule(schema: JsonSchema, messages: Record<string, string>, field: PayloadField, rule: ParsedRule, numeric: boolean): void {
  const key = field.name;
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
      setExactSize(schema, messages, key, numeric, Number(first));
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

/** Laravel's `size`: a number equal to it, or a text of exactly that many characters. */
function setExactSize(schema: JsonSchema, messages: Record<string, string>, key: string, numeric: boolean, size: number): void {
  if (numeric) {
    schema.minimum = schema.maximum = size;
    messages.minimum = messages.maximum = laravelMessage("sizeNumeric", key, { size });
  } else {
    schema.minLength = schema.maxLength = size;
    messages.minLength = messages.maxLength = laravelMessage("sizeString", key, { size });
  }
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

export function allowNull(schema: JsonSchema): JsonSchema {
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
