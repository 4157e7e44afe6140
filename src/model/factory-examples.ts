import type { ResourceSpec } from "../spec/types.js";
import { exampleValue, type PropertySchema } from "./example-values.js";
import type { ResourceCore, ResourceModel } from "./types.js";

/**
 * What the generated tests' factories make: every payload value, and a record for each belongsTo of
 * the create payload, made by the target's factory. An optional relation that could lead back here
 * (a comment's optional ticket whose ticket needs a comment) is left out: factories calling each
 * other would never end (required cycles are refused by validate). One the ownership runs through is
 * kept but marked `unlessMaking`: the factory leaves it out while its target is already being made.
 */
export function examplesOf(resource: ResourceCore, specs: ReadonlyMap<string, ResourceSpec>): ResourceModel["examples"] {
  const relations = resource.validation.create.keys.flatMap((key) => {
    const relation = resource.belongsTo.find((candidate) => candidate.name === key);
    if (!relation) return [];
    // The parent an ownership runs through is needed on every create, required or not.
    const ownedThrough = resource.owner?.through === relation.name;
    const leadsBack = !relation.required && reachesByBelongsTo(relation.target.name, resource.name, specs);
    if (leadsBack && !ownedThrough) return [];
    // An ownership parent that leads back (a ticket owned through a comment that needs a ticket) is
    // made for the record under test and left out of records made for one of its own parents.
    return [{ key, target: relation.target, unlessMaking: leadsBack }];
  });
  // The field the update test changes: one the rules can make values for, not a relation, and not
  // unique where another will do.
  const properties = resource.validation.update.schema.properties ?? {};
  const updatable = resource.validation.update.keys.filter(
    (key) =>
      !resource.belongsTo.some((relation) => relation.name === key) &&
      !resource.belongsToMany.some((relation) => relation.name === key) &&
      !key.endsWith("_confirmation") &&
      !resource.validation.update.confirmed.includes(key) &&
      exampleValue(properties[key] as PropertySchema, key, 1) !== undefined,
  );
  const plain = updatable.find((key) => !resource.fields.find((field) => field.name === key)?.unique);
  const key = plain ?? updatable[0];
  const unique = resource.fields.some((field) => field.name === key && field.unique);
  const links = resource.belongsToMany.map((relation) => ({ name: relation.name, target: relation.target }));
  const linkImports = links
    .map((link) => link.target)
    .filter((target, index, all) => target.name !== resource.name && all.findIndex((other) => other.name === target.name) === index);
  return { relations, update: key === undefined ? null : { key, unique }, links, linkImports };
}


/** Whether `to` is `from` or a resource `from`'s belongsTo relations lead to, at any depth. */
function reachesByBelongsTo(from: string, to: string, specs: ReadonlyMap<string, ResourceSpec>): boolean {
  const seen = new Set<string>();
  const visit = (name: string): boolean => {
    if (name === to) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return (specs.get(name)?.relations ?? []).some((relation) => relation.type === "belongsTo" && visit(relation.resource));
  };
  return visit(from);
}
