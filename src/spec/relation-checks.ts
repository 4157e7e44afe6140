import { kindOf, relationKindNames, relationKinds } from "../model/relations/kinds.js";
import { reservedFieldNames } from "./field-checks.js";
import { didYouMean } from "./problem.js";
import { builtInUser, type CheckedResource } from "./checked.js";
import type { Problem } from "./types.js";

/** Each relation's options, as its kind takes them (within one resource file). */
export function checkRelationOptions({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  for (const relation of spec.relations ?? []) {
    const at = ["relations", relation.name];
    if (reservedFieldNames.has(relation.name)) problems.push(source.problem(at, `"${relation.name}" is reserved; choose another relation name`, "key"));
    problems.push(...kindOf(relation).checkOptions(relation, at, source));
  }
  return problems;
}

/**
 * What each relation points at, across resources: a known resource (or the built-in User, for the
 * kinds that may), then what its kind checks there (the other side a hasMany or an inverse names),
 * and a rename that leaves no two tables.
 */
export function checkRelationTargets(resources: readonly CheckedResource[], byName: ReadonlyMap<string, CheckedResource>, otherNames: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  const known = (name: string) => byName.has(name) || otherNames.includes(name);
  const toUsers = relationKindNames.filter((name) => relationKinds[name].mayPointAtUsers).join(" or ");
  for (const { spec, source } of resources) {
    const renamedFrom = spec.renamedFrom;
    if (renamedFrom !== undefined && renamedFrom !== spec.name && byName.has(renamedFrom)) {
      problems.push(source.problem(["renamedFrom"], `"${renamedFrom}" is still a resource (${byName.get(renamedFrom)!.spec.file}); a table cannot be renamed into two`));
    }
    for (const relation of spec.relations ?? []) {
      const kind = kindOf(relation);
      if (relation.resource === builtInUser) {
        // The built-in users: any resource may point at one; they list nothing back.
        if (!kind.mayPointAtUsers) problems.push(source.problem(["relations", relation.name, "type"], `only a ${toUsers} may point at the built-in User: users list nothing back`));
        else problems.push(...kind.checkTarget({ spec, source, relation, target: undefined, targetComplete: true }));
        continue;
      }
      const target = byName.get(relation.resource);
      if (!target) {
        // A resource whose own file has errors still exists: those errors are reported there.
        if (!otherNames.includes(relation.resource)) problems.push(source.problem(["relations", relation.name, "resource"], `unknown resource "${relation.resource}"${didYouMean(relation.resource, [...byName.keys(), ...otherNames])}`));
        continue;
      }
      const targetComplete = (target.spec.relations ?? []).every((other) => known(other.resource));
      problems.push(...kind.checkTarget({ spec, source, relation, target, targetComplete }));
    }
  }
  return problems;
}

/**
 * Required belongsTo relations that lead back to where they start (a resource requiring itself, or
 * A requiring B requiring A): no record of any of them could be created first. Reported once per
 * cycle, at the relation of the first resource in spec order that starts it.
 */
export function checkRequiredCycles(resources: readonly CheckedResource[]): Problem[] {
  const byName = new Map(resources.map((resource) => [resource.spec.name, resource]));
  const required = (name: string) => (byName.get(name)?.spec.relations ?? []).filter((relation) => relation.type === "belongsTo" && relation.required === true && byName.has(relation.resource));
  const problems: Problem[] = [];
  const reported = new Set<string>();
  for (const { spec, source } of resources)
    for (const start of required(spec.name)) {
      // A path of required relations from the target back to this resource, if any.
      const path = [spec.name, start.resource];
      const seen = new Set<string>();
      const back = (name: string): boolean => {
        if (name === spec.name) return true;
        if (seen.has(name)) return false;
        seen.add(name);
        for (const next of required(name)) {
          path.push(next.resource);
          if (back(next.resource)) return true;
          path.pop();
        }
        return false;
      };
      if (!back(start.resource)) continue;
      const cycle = [...new Set(path)].sort().join(",");
      if (reported.has(cycle)) continue;
      reported.add(cycle);
      problems.push(source.problem(["relations", start.name, "required"], `required relations lead back to ${spec.name} (${path.join(" → ")}): no record of ${path.length > 2 ? "any of them" : "it"} could be created first; make one of them optional`));
    }
  return problems;
}
