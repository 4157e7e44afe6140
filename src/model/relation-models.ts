import { setByServer } from "../spec/set-by-server.js";
import type { RelationSpec, ResourceSpec } from "../spec/types.js";
import { fieldModel } from "./field-model.js";
import { operatorsOf, type FilterOperator } from "./list-operators.js";
import { toPascal } from "./naming.js";
import type { BelongsToManyModel, BelongsToModel, HasManyModel, RelationModel, ResourceRef } from "./types.js";

/** A resource's relations, by kind, as the model reads them (eager ones marked). */
export function relationModelsOf(
  spec: ResourceSpec,
  refs: Map<string, ResourceRef>,
  specs: Map<string, ResourceSpec>,
): { belongsTo: BelongsToModel[]; hasMany: HasManyModel[]; belongsToMany: BelongsToManyModel[] } {
  const eagerLoad = spec.eagerLoad ?? [];
  const relations = spec.relations ?? [];
  const belongsTo: BelongsToModel[] = relations
    .filter((relation) => relation.type === "belongsTo")
    .map((relation) => ({
      kind: "belongsTo" as const,
      name: relation.name,
      label: relation.name.replaceAll("_", " "),
      foreignKey: `${relation.name}_id`,
      target: refs.get(relation.resource)!,
      required: relation.required ?? false,
      onDelete: relation.onDelete ?? "restrict",
      eager: eagerLoad.includes(relation.name),
      ...(relation.set !== undefined ? { setByCaller: setByServer(relation)! } : {}),
    }));
  const hasMany: HasManyModel[] = relations
    .filter((relation) => relation.type === "hasMany")
    .map((relation) => {
      const inverse = relation.inverse ?? inverseOf(spec.name, specs.get(relation.resource)!);
      return {
        kind: "hasMany" as const,
        name: relation.name,
        target: refs.get(relation.resource)!,
        inverse,
        // The belongsTo's column on the target, named like every belongsTo's (see above).
        foreignKey: `${inverse}_id`,
        eager: eagerLoad.includes(relation.name),
      };
    });
  const belongsToMany = relations
    .filter((relation) => relation.type === "belongsToMany")
    .map((relation) => manyToMany(spec, relation, refs, specs, eagerLoad));
  return { belongsTo, hasMany, belongsToMany };
}

/** The side of a belongsToMany that owns its pivot (the one without inverse), and its resource. */
export function owningSide(spec: ResourceSpec, relation: RelationSpec, specs: Map<string, ResourceSpec>): { spec: ResourceSpec; relation: RelationSpec } {
  if (relation.inverse === undefined) return { spec, relation };
  const owner = specs.get(relation.resource)!;
  return { spec: owner, relation: (owner.relations ?? []).find((candidate) => candidate.name === relation.inverse)! };
}


/** A belongsToMany filters by the related records' hashes: linked to this one, or to any of these. */
export const manyOperators: readonly FilterOperator[] = ["eq", "in"];

/**
 * A belongsToMany as both sides read it: the owning side (no `inverse`) names the pivot table
 * `<its table>_<relation>` and declares its fields; its keys are `<owner>_id` and `<target>_id`
 * (`related_<target>_id` when a resource relates to itself). The inverse side swaps the keys.
 */
function manyToMany(
  spec: ResourceSpec,
  relation: RelationSpec,
  refs: Map<string, ResourceRef>,
  specs: Map<string, ResourceSpec>,
  eagerLoad: string[],
): BelongsToManyModel {
  const target = refs.get(relation.resource)!;
  const owning = relation.inverse === undefined;
  const { spec: ownerSpec, relation: ownerRelation } = owningSide(spec, relation, specs);
  const owner = refs.get(ownerSpec.name)!;
  const related = refs.get(ownerRelation.resource)!;
  const ownerKey = `${owner.names.snake}_id`;
  const relatedKey = related.name === owner.name ? `related_${related.names.snake}_id` : `${related.names.snake}_id`;
  return {
    kind: "belongsToMany",
    name: relation.name,
    label: relation.name.replaceAll("_", " "),
    target,
    pivotTable: `${owner.table}_${ownerRelation.name}`,
    pivotModel: `${owner.names.pascal}${toPascal(ownerRelation.name)}`,
    ownKey: owning ? ownerKey : relatedKey,
    otherKey: owning ? relatedKey : ownerKey,
    pivotFields: (ownerRelation.pivot ?? []).map(fieldModel),
    owning,
    eager: eagerLoad.includes(relation.name),
  };
}


/** The one belongsTo on the target that points back to the owner (validation made sure there is one). */
function inverseOf(owner: string, target: ResourceSpec): string {
  return (target.relations ?? []).find((relation) => relation.type === "belongsTo" && relation.resource === owner)!.name;
}


/** The filter operators `?filter[<relation>]` takes: by hash for belongsTo, through the pivot for belongsToMany, none for hasMany. */
export function relationOperators(relation: RelationModel): readonly FilterOperator[] | undefined {
  switch (relation.kind) {
    case "belongsTo":
      return operatorsOf.relation;
    case "belongsToMany":
      // The records linked to one (or any of several) of the related records.
      return manyOperators;
    case "hasMany":
      return undefined;
  }
}
