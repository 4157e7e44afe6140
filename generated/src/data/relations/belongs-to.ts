// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { quote, type SqlValues } from "../../db/sql.js";
import type { BelongsToSpec } from "../table/spec.js";
import { boundHashes, type RelationKind } from "./kind.js";

/*
 * A belongsTo relation: a column of this table (`foreignKey`) holds the id of a row of another.
 * Reads join it in the record's own statement (one LEFT JOIN per relation, so a page costs one
 * statement whatever it nests) and output it as `{ hash }`, or as the whole record when loaded;
 * writes set the key from a hash that Table.liveId resolves (and locks) in the write's transaction.
 */

/** ` LEFT JOIN target AS joined ON joined.id = alias.foreignKey`: a row without a parent keeps its place. */
export function belongsToJoin(relation: BelongsToSpec, joined: string, alias: string): string {
  return ` LEFT JOIN ${quote(relation.target().name)} AS ${quote(joined)} ON ${quote(joined)}."id" = ${quote(alias)}.${quote(relation.foreignKey)}`;
}

/** A relation that is not loaded: the related record as its public hash alone, read at `at`. */
export function hashOnly(at: number): (row: SqlValues) => { hash: unknown } {
  return (row) => ({ hash: row[at] });
}

export const belongsTo: RelationKind<BelongsToSpec> = {
  joined: true,
  // Joined into the record's own read (table/shape.ts): nothing to load after the page.
  loadPage: async () => undefined,
  /** The foreign key among the related hashes' ids, or NULL. */
  filter(context, relation, op, value, values) {
    const foreignKey = `${context.alias}.${quote(relation.foreignKey)}`;
    if (op === "null") return `${foreignKey} IS ${value === true ? "" : "NOT "}NULL`;
    const hashes = boundHashes(op, value, values);
    return `${foreignKey} IN (SELECT "id" FROM ${quote(relation.target().name)} WHERE "hash" IN (${hashes.join(", ")}))`;
  },
};
