import type { ResourceSpec } from "../spec/types.js";
import { kindOf, relationKindNames } from "./relations/kinds.js";
import type { RelationModel, ResourceRef } from "./types.js";

/** A resource's relations as the model reads them (eager ones marked): kind by kind, each in spec order. */
export function relationModelsOf(spec: ResourceSpec, refs: ReadonlyMap<string, ResourceRef>, specs: ReadonlyMap<string, ResourceSpec>): RelationModel[] {
  const eagerLoad = spec.eagerLoad ?? [];
  const relations = spec.relations ?? [];
  return relationKindNames.flatMap((kind) =>
    relations.filter((relation) => relation.type === kind).map((relation) => kindOf(relation).build(relation, { spec, refs, specs, eager: eagerLoad.includes(relation.name) })),
  );
}
