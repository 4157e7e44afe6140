// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { RelationKindName, RelationOfKind, RelationSpec } from "../table/spec.js";
import { belongsToMany } from "./belongs-to-many.js";
import { belongsTo } from "./belongs-to.js";
import { hasMany } from "./has-many.js";
import type { RelationKind } from "./kind.js";

/** Every relation kind by name: a kind missing here does not compile. */
const kinds: { readonly [Kind in RelationKindName]: RelationKind<RelationOfKind<Kind>> } = {
  belongsTo,
  hasMany,
  belongsToMany,
};

/** The module of a relation's kind, typed for that relation. */
export function kindOf<Spec extends RelationSpec>(relation: Spec): RelationKind<Spec> {
  return kinds[relation.kind] as RelationKind<RelationSpec> as RelationKind<Spec>;
}
