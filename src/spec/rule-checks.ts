import { withArticle } from "../model/naming.js";
import { didYouMean } from "./problem.js";
import { parseRule, ruleArgumentProblem, ruleTable } from "./rules.js";
import type { SpecSource } from "./source.js";
import type { Problem, ResourceSpec } from "./types.js";

/**
 * Rules must name the resource's own fields or belongsTo relations, use known rules with the right
 * arguments, suit the field's type, and never let a create write NULL into a NOT NULL column.
 */
export function checkRules(source: SpecSource, spec: ResourceSpec): Problem[] {
  const problems: Problem[] = [];
  const fields = new Map(spec.fields.map((field) => [field.name, field]));
  const belongsTo = new Map((spec.relations ?? []).filter((relation) => relation.type === "belongsTo").map((relation) => [relation.name, relation]));
  const keys = [...fields.keys(), ...belongsTo.keys()];

  for (const action of ["create", "update"] as const) {
    const actionRules = spec.rules?.[action];
    if (actionRules === undefined) continue;
    for (const [key, rules] of Object.entries(actionRules)) {
      const field = fields.get(key);
      const relation = belongsTo.get(key);
      if (!field && !relation) {
        const hasMany = spec.relations?.some((candidate) => candidate.name === key);
        const message = hasMany
          ? `"${key}" is a hasMany relation, which is read-only in payloads`
          : `unknown field "${key}"${didYouMean(key, keys)}`;
        problems.push(source.problem(["rules", action, key], message, "key"));
        continue;
      }
      const target = field ? field.type : "relation";
      const names = rules.map((text) => parseRule(text).name);
      rules.forEach((text, index) => {
        const at = ["rules", action, key, index];
        const rule = parseRule(text);
        if (!ruleTable[rule.name]) {
          problems.push(source.problem(at, `unknown rule "${rule.name}"${didYouMean(rule.name, Object.keys(ruleTable))}`));
          return;
        }
        const argumentProblem = ruleArgumentProblem(rule);
        if (argumentProblem) problems.push(source.problem(at, argumentProblem));
        else if (!ruleTable[rule.name]!.appliesTo.includes(target)) {
          const what = field ? withArticle(`${field.type} field`) : "a belongsTo relation";
          problems.push(source.problem(at, `rule "${rule.name}" does not apply to ${what}`));
        } else if (rule.name === "required" && field?.type === "file" && action === "create") {
          problems.push(source.problem(at, `a file cannot be required on create: records are made without their file (seed data, the generated tests) and get it from an upload; refuse a missing one in a policy or hook of your own`));
        } else if (rule.name === "nullable" && !(field ? field.nullable : !relation!.required)) {
          problems.push(
            source.problem(at, field ? `rule "nullable" on a field that is not nullable: add nullable: true to fields.${key}` : `rule "nullable" on a required relation`),
          );
        } else if (rule.name === "in" && field?.type === "enum") {
          const unknown = rule.args.filter((value) => !(field.values ?? []).includes(value));
          if (unknown.length > 0) problems.push(source.problem(at, `rule "in" lists values the enum does not have: ${unknown.join(", ")}`));
        }
      });
      if (names.includes("required") && names.includes("sometimes")) {
        problems.push(source.problem(["rules", action, key], `"required" and "sometimes" contradict each other`));
      }
    }
    if (action === "create") problems.push(...checkCreateCoversRequired(source, spec, actionRules));
  }
  return problems;
}

function checkCreateCoversRequired(source: SpecSource, spec: ResourceSpec, rules: Record<string, string[]>): Problem[] {
  // What the server fills (`set:`, a direct owner) is never the payload's to hold: not required of it.
  const directOwner = spec.owner?.relation.includes(".") ? undefined : spec.owner?.relation;
  const mustBeRequired = [
    ...spec.fields.filter((field) => !field.nullable && field.default === undefined && field.set === undefined).map((field) => field.name),
    ...(spec.relations ?? [])
      .filter((relation) => relation.type === "belongsTo" && relation.required && relation.set === undefined && relation.name !== directOwner)
      .map((relation) => relation.name),
  ];
  return mustBeRequired
    .filter((key) => !(rules[key] ?? []).some((text) => parseRule(text).name === "required"))
    .map((key) =>
      source.problem(
        rules[key] ? ["rules", "create", key] : ["rules", "create"],
        `"${key}" must be required on create: it is not nullable and has no default`,
        rules[key] ? "key" : "value",
      ),
    );
}
