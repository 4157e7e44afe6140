// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { quote, type SqlRow } from "../sql.js";
import type { RelationSpec } from "../table/spec.js";

/*
 * A belongsTo relation: a column of this table (`foreignKey`) holds the id of a row of another.
 * Reads join it in the record's own statement (one LEFT JOIN per relation, so a page costs one
 * statement whatever it nests) and output it as `{ hash }`, or as the whole record when loaded;
 * writes set the key from a hash that Table.liveId resolves (and locks) in the write's transaction.
 * The other kinds: has-many.ts, belongs-to-many.ts.
 */

export type { RelationSpec };

/** ` LEFT JOIN target AS joined ON joined.id = alias.foreignKey`: a row without a parent keeps its place. */
export function belongsToJoin(relation: RelationSpec, joined: string, alias: string): string {
  return ` LEFT JOIN ${quote(relation.target().name)} AS ${quote(joined)} ON ${quote(joined)}."id" = ${quote(alias)}.${quote(relation.foreignKey)}`;
}

/** A relation that is not loaded: the related record as its public hash alone, read from `column`. */
export function hashOnly(column: string): (row: SqlRow) => { hash: unknown } {
  return (row) => ({ hash: row[column] });
}
