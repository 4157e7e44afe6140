import { toSnake } from "../model/naming.js";
import { checkField, reservedFieldNames } from "./field-checks.js";
import { didYouMean } from "./problem.js";
import { builtInUser, type CheckedResource } from "./checked.js";
import type { SpecSource } from "./source.js";
import type { Problem, ResourceSpec } from "./types.js";

/** Each relation's options, as its kind takes them (within one resource file). */
export function checkRelationOptions({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  for (const relation of spec.relations ?? []) {
    const at = ["relations", relation.name];
    if (reservedFieldNames.has(relation.name)) problems.push(source.problem(at, `"${relation.name}" is reserved; choose another relation name`, "key"));
    if (relation.type !== "belongsToMany" && relation.pivot !== undefined) problems.push(source.problem([...at, "pivot"], `"pivot" applies to belongsToMany only`, "key"));
    if (relation.type === "belongsToMany") {
      if (relation.name === "restore") problems.push(source.problem(at, `"restore" is the path of a restore; choose another relation name`, "key"));
      for (const option of ["required", "onDelete"] as const) {
        if (relation[option] !== undefined) problems.push(source.problem([...at, option], `"${option}" applies to belongsTo only; a belongsToMany's links are removed with either record`, "key"));
      }
      if (relation.pivot !== undefined && relation.inverse !== undefined) problems.push(source.problem([...at, "pivot"], `the pivot fields belong to the side without inverse (${relation.resource}.${relation.inverse}); declare them there`, "key"));
      for (const field of relation.pivot ?? []) {
        if (["hash", "id", "pivot"].includes(field.name) || field.name.endsWith("_id")) problems.push(source.problem([...at, "pivot", field.name], `"${field.name}" is reserved in a pivot (its keys and the related record's hash); choose another name`, "key"));
        if (field.unique) problems.push(source.problem([...at, "pivot", field.name, "unique"], "a pivot field cannot be unique"));
        if (field.index) problems.push(source.problem([...at, "pivot", field.name, "index"], "a pivot field takes no index of its own (the pivot is read by its keys)"));
        problems.push(...checkField(source, [...at, "pivot"], field));
      }
    } else if (relation.type === "hasMany") {
      for (const option of ["required", "onDelete"] as const) {
        if (relation[option] !== undefined) problems.push(source.problem([...at, option], `"${option}" applies to belongsTo only; set it on the other side`, "key"));
      }
    } else {
      if (relation.inverse !== undefined) problems.push(source.problem([...at, "inverse"], `"inverse" applies to hasMany only`, "key"));
      if (relation.onDelete === "setNull" && relation.required) {
        problems.push(source.problem([...at, "onDelete"], "setNull needs a relation that is not required (its column must accept NULL)"));
      }
    }
  }
  return problems;
}

/**
 * What each relation points at, across resources: a known resource (or the built-in User, for a
 * belongsTo), the other side a hasMany or an inverse names, a rename that leaves no two tables.
 */
export function checkRelationTargets(resources: readonly CheckedResource[], byName: ReadonlyMap<string, CheckedResource>, otherNames: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  for (const { spec, source } of resources) {
    const renamedFrom = spec.renamedFrom;
    if (renamedFrom !== undefined && renamedFrom !== spec.name && byName.has(renamedFrom)) {
      problems.push(source.problem(["renamedFrom"], `"${renamedFrom}" is still a resource (${byName.get(renamedFrom)!.spec.file}); a table cannot be renamed into two`));
    }
    for (const relation of spec.relations ?? []) {
      const at = ["relations", relation.name];
      if (relation.resource === builtInUser) {
        // The built-in users: any resource may point at one; they list nothing back.
        if (relation.type !== "belongsTo") problems.push(source.problem([...at, "type"], `only a belongsTo may point at the built-in User: users list nothing back`));
        else if (spec.eagerLoad?.includes(relation.name) && (spec.auth?.public ?? []).some((action) => action === "index" || action === "show"))
          problems.push(source.problem(["eagerLoad", spec.eagerLoad.indexOf(relation.name)], `"${relation.name}" is a user, which anonymous callers may not see: a resource with public reads cannot nest it in every response`));
        continue;
      }
      const target = byName.get(relation.resource);
      if (!target) {
        // A resource whose own file has errors still exists: those errors are reported there.
        if (otherNames.includes(relation.resource)) continue;
        problems.push(source.problem([...at, "resource"], `unknown resource "${relation.resource}"${didYouMean(relation.resource, [...byName.keys(), ...otherNames])}`));
        continue;
      }
      // A belongsTo on the target with an unknown resource is reported there; its hasMany mirror is not checked.
      const targetHasUnknown = (target.spec.relations ?? []).some((other) => !byName.has(other.resource) && !otherNames.includes(other.resource));
      if (relation.type === "hasMany" && !targetHasUnknown) problems.push(...checkInverse(spec, source, relation, target.spec));
      if (relation.type === "belongsToMany" && relation.inverse !== undefined) problems.push(...checkManyInverse(spec, source, relation, target.spec));
      if (relation.type === "belongsTo" && spec.eagerLoad?.includes(relation.name) && relation.resource === spec.name) {
        problems.push(source.problem([...at, "resource"], "a resource cannot eager-load a relation to itself"));
      }
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

/** A belongsToMany's `inverse`: the other resource's belongsToMany back here, which owns the pivot. */
function checkManyInverse(spec: ResourceSpec, source: SpecSource, relation: NonNullable<ResourceSpec["relations"]>[number], target: ResourceSpec): Problem[] {
  const at = ["relations", relation.name, "inverse"];
  const other = (target.relations ?? []).find((candidate) => candidate.name === relation.inverse);
  if (!other || other.type !== "belongsToMany" || other.resource !== spec.name) return [source.problem(at, `${target.name} has no belongsToMany "${relation.inverse}" pointing to ${spec.name}`)];
  if (other.inverse !== undefined) return [source.problem(at, `${target.name}.${relation.inverse} has an inverse too: exactly one side of a belongsToMany (the one that owns the pivot table) goes without inverse`)];
  return [];
}

function checkInverse(spec: ResourceSpec, source: SpecSource, relation: NonNullable<ResourceSpec["relations"]>[number], target: ResourceSpec): Problem[] {
  const candidates = (target.relations ?? []).filter((other) => other.type === "belongsTo" && other.resource === spec.name);
  const at = ["relations", relation.name];
  if (relation.inverse !== undefined) {
    return candidates.some((candidate) => candidate.name === relation.inverse)
      ? []
      : [source.problem([...at, "inverse"], `${target.name} has no belongsTo "${relation.inverse}" pointing to ${spec.name}`)];
  }
  if (candidates.length === 0) {
    return [
      source.problem(
        [...at, "resource"],
        `hasMany needs a matching belongsTo on ${target.name}: add relations: { ${toSnake(spec.name)}: { type: belongsTo, resource: ${spec.name} } } to ${target.file}`,
      ),
    ];
  }
  if (candidates.length > 1) {
    return [source.problem(at, `${target.name} has several belongsTo to ${spec.name} (${candidates.map((candidate) => candidate.name).join(", ")}); name the one this hasMany mirrors with inverse:`, "key")];
  }
  return [];
}
