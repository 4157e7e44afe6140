// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { maxPasswordLength } from "../auth/password-policy.js";
import { compileValidator } from "../base/validation.js";

/*
 * The payloads of the account routes: each field a required string with Laravel's messages, no
 * other key accepted. One set of rules for every account controller, so a field is checked and
 * worded alike wherever it is sent.
 */

/** One field's JSON Schema and its message per failed keyword. */
export interface FieldRule {
  readonly schema: object;
  readonly messages: Readonly<Record<string, string>>;
}

/** A required string of 1 to `max` characters; `extra` adds keywords and their messages. */
export function stringRule(
  field: string,
  max: number,
  extra: { schema?: object; messages?: Record<string, string> } = {},
): FieldRule {
  return {
    schema: { type: "string", minLength: 1, maxLength: max, ...extra.schema },
    messages: {
      required: `The ${field} field is required.`,
      null: `The ${field} field is required.`,
      type: `The ${field} field must be a string.`,
      minLength: `The ${field} field is required.`,
      maxLength: `The ${field} field must not be greater than ${max} characters.`,
      ...extra.messages,
    },
  };
}

export const emailRule = stringRule("email", 255, {
  schema: { format: "email" },
  messages: { format: "The email field must be a valid email address." },
});
export const tokenRule = stringRule("token", 200);
export const passwordRule = stringRule("password", maxPasswordLength);
/** A name with something in it besides spaces. */
export const nameRule = stringRule("name", 255, {
  schema: { pattern: "\\S" },
  messages: { pattern: "The name field is required." },
});

/** The validator of an object holding exactly these fields, each required. */
export function payloadOf<T>(rules: Readonly<Record<string, FieldRule>>) {
  const entries = Object.entries(rules);
  return compileValidator<T>(
    {
      type: "object",
      properties: Object.fromEntries(entries.map(([field, rule]) => [field, rule.schema])),
      required: Object.keys(rules),
      additionalProperties: false,
    },
    Object.fromEntries(entries.map(([field, rule]) => [field, rule.messages])),
  );
}
