import type { RelationSpec } from "../../spec/types.js";
import type { RelationKindName, RelationModel, RelationModels } from "../types.js";
import { belongsTo } from "./belongs-to.js";
import { belongsToMany } from "./belongs-to-many.js";
import { hasMany } from "./has-many.js";
import type { RelationKind } from "./kind.js";

/**
 * Every relation kind's module, in the order a resource lists its relations (belongsTo, hasMany,
 * belongsToMany). A mapped type over the spec format's kinds: a kind named there without a model
 * (model/types.ts `RelationModels`) or a module does not compile.
 */
export const relationKinds: { readonly [K in RelationSpec["type"]]: RelationKind<K> } = { belongsTo, hasMany, belongsToMany };

export const relationKindNames = Object.keys(relationKinds) as RelationKindName[];

/**
 * The module of a relation's kind, from its spec (`type`) or its model (`kind`). Its facets take
 * any relation model: each kind's module is only ever handed its own kind's.
 */
export function kindOf(relation: { type: RelationKindName } | { kind: RelationKindName }): RelationKind<RelationKindName> {
  return relationKinds["type" in relation ? relation.type : relation.kind];
}

/** The relations of `kind` among `relations`, in their order. */
export const relationsOfKind = <K extends RelationKindName>(relations: readonly RelationModel[], kind: K): RelationModels[K][] =>
  relations.filter((relation): relation is RelationModels[K] => relation.kind === kind);
