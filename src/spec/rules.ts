import { fieldTypeNames } from "../model/field-types.js";
import type { FieldType } from "./types.js";

export interface ParsedRule {
  name: string;
  args: string[];
}

/** `between:1,5` → { name: "between", args: ["1", "5"] }; a regex keeps its commas. */
export function parseRule(text: string): ParsedRule {
  const colon = text.indexOf(":");
  if (colon === -1) return { name: text.trim(), args: [] };
  const name = text.slice(0, colon).trim();
  const rest = text.slice(colon + 1);
  return { name, args: name === "regex" ? [rest] : rest.split(",").map((arg) => arg.trim()) };
}

type Arity = "none" | "number" | "two-numbers" | "list" | "regex";

/** Presence rules suit every field type (src/model/field-types.ts) and relations. */
const everyField: readonly (FieldType | "relation")[] = [...fieldTypeNames, "relation"];

/** Every rule hashapi knows, its argument shape, and the field types it applies to. */
export const ruleTable: Record<string, { arity: Arity; appliesTo: readonly (FieldType | "relation")[] }> = {
  required: { arity: "none", appliesTo: everyField },
  sometimes: { arity: "none", appliesTo: everyField },
  nullable: { arity: "none", appliesTo: everyField },
  string: { arity: "none", appliesTo: ["string", "text", "email", "enum", "uuid"] },
  integer: { arity: "none", appliesTo: ["integer"] },
  numeric: { arity: "none", appliesTo: ["integer", "decimal"] },
  boolean: { arity: "none", appliesTo: ["boolean"] },
  date: { arity: "none", appliesTo: ["date", "datetime"] },
  email: { arity: "none", appliesTo: ["string", "email"] },
  max: { arity: "number", appliesTo: ["string", "text", "email", "integer", "decimal"] },
  min: { arity: "number", appliesTo: ["string", "text", "email", "integer", "decimal"] },
  size: { arity: "number", appliesTo: ["string", "text", "email", "integer", "decimal"] },
  digits: { arity: "number", appliesTo: ["string", "integer"] },
  between: { arity: "two-numbers", appliesTo: ["string", "text", "email", "integer", "decimal"] },
  in: { arity: "list", appliesTo: ["string", "email", "enum", "integer"] },
  regex: { arity: "regex", appliesTo: ["string", "text", "email"] },
  unique: { arity: "none", appliesTo: ["string", "text", "integer", "decimal", "date", "datetime", "email", "enum", "uuid"] },
  exists: { arity: "none", appliesTo: ["relation"] },
  confirmed: { arity: "none", appliesTo: ["string", "text", "email"] },
  uuid: { arity: "none", appliesTo: ["string", "uuid"] },
  url: { arity: "none", appliesTo: ["string", "text"] },
};

/** Why a rule's arguments are wrong, or undefined when they are fine. */
export function ruleArgumentProblem(rule: ParsedRule): string | undefined {
  const entry = ruleTable[rule.name];
  if (!entry) return undefined;
  const isNumber = (text: string | undefined) => text !== undefined && /^-?\d+(\.\d+)?$/.test(text);
  switch (entry.arity) {
    case "none":
      return rule.args.length === 0 ? undefined : `rule "${rule.name}" takes no argument`;
    case "number":
      return rule.args.length === 1 && isNumber(rule.args[0]) ? undefined : `rule "${rule.name}" needs one number, e.g. "${rule.name}:10"`;
    case "two-numbers":
      return rule.args.length === 2 && isNumber(rule.args[0]) && isNumber(rule.args[1]) && Number(rule.args[0]) <= Number(rule.args[1])
        ? undefined
        : `rule "${rule.name}" needs two numbers, smallest first, e.g. "${rule.name}:1,10"`;
    case "list":
      return rule.args.length > 0 && rule.args.every((arg) => arg !== "") ? undefined : `rule "${rule.name}" needs a list of values, e.g. "${rule.name}:a,b"`;
    case "regex": {
      const match = /^\/(.*)\/$/s.exec(rule.args[0] ?? "");
      if (!match) return `rule "regex" needs a pattern between slashes, e.g. "regex:/^[A-Z]+$/"`;
      try {
        new RegExp(match[1]!, "u");
        return undefined;
      } catch (error) {
        return `rule "regex": invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}`;
      }
    }
  }
}
