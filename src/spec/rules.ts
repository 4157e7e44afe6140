import { fieldTypeNames, fieldTypes, type TypeRule } from "../model/field-types.js";
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

/** Rules whose meaning does not depend on the field's type: they apply to every field and relation. */
const presenceRules = ["required", "sometimes", "nullable"] as const;
type PresenceRule = (typeof presenceRules)[number];

/** Every rule hashapi knows and its argument shape; where a type rule applies is the registry's word. */
const arities: Record<PresenceRule | "exists" | TypeRule, Arity> = {
  required: "none",
  sometimes: "none",
  nullable: "none",
  string: "none",
  integer: "none",
  numeric: "none",
  boolean: "none",
  date: "none",
  email: "none",
  max: "number",
  min: "number",
  size: "number",
  digits: "number",
  between: "two-numbers",
  in: "list",
  regex: "regex",
  unique: "none",
  exists: "none",
  confirmed: "none",
  uuid: "none",
  url: "none",
  file: "none",
};

/** The field types (src/model/field-types.ts) a rule applies to, and "relation" for a belongsTo. */
function targetsOf(rule: string): readonly (FieldType | "relation")[] {
  if ((presenceRules as readonly string[]).includes(rule)) return [...fieldTypeNames, "relation"];
  if (rule === "exists") return ["relation"];
  return fieldTypeNames.filter((type) => (fieldTypes[type].rules as readonly string[]).includes(rule));
}

/** Every rule hashapi knows, its argument shape, and the field types it applies to. */
export const ruleTable: Record<string, { arity: Arity; appliesTo: readonly (FieldType | "relation")[] }> = Object.fromEntries(
  Object.entries(arities).map(([rule, arity]) => [rule, { arity, appliesTo: targetsOf(rule) }]),
);

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
