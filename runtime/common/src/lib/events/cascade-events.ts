// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Binder, quote, type Sql } from "../sql.js";
import { relationsOfKind, type ForeignKeySpec, type TableSpec } from "../table/spec.js";
import { appendEventsOfRows, changeOfHashes, type Actor } from "./outbox.js";

/*
 * The events of writes to many rows at once (a delete's cascade, a restore's), each appended by one
 * statement that selects the rows the write is about to touch, before it does.
 */

/** A SQL text of the ids of some rows (`SELECT "id" FROM …`), binding through the Binder given. */
export type RowIds = (values: Binder) => string;

/** Records `<resource>.<what>` with no changes for each row of `spec` whose id `ids` selects. */
export function recordRows(
  sql: Sql,
  actor: Actor | null,
  spec: TableSpec,
  what: "deleted" | "restored",
  ids: RowIds,
): Promise<void> {
  return appendEventsOfRows(
    sql,
    actor,
    `${spec.event}.${what}`,
    (values) =>
      `SELECT "hash", '{}' AS "changes" FROM ${quote(spec.name)} WHERE "id" IN (${ids(values)})`,
  );
}

/**
 * Records what deleting the rows of `spec` that `ids` selects makes the database's own foreign keys
 * do: each row pointing at them through an onDelete setNull relation is `.updated` (that relation
 * from the deleted row's hash to null), each row an onDelete cascade deletes is `.deleted`, and so
 * on down the cascade. A table met again down its own cascade is not followed twice.
 */
export async function recordForeignKeyEffects(
  sql: Sql,
  actor: Actor | null,
  spec: TableSpec,
  ids: RowIds,
  followed: ReadonlySet<TableSpec> = new Set([spec]),
): Promise<void> {
  for (const relation of spec.nullOnDelete) await recordCleared(sql, actor, spec, relation, ids);
  for (const relation of spec.cascadeTo) {
    const target = relation.target();
    const children: RowIds = (values) =>
      `SELECT "id" FROM ${quote(target.name)} WHERE ${quote(relation.foreignKey)} IN (${ids(values)})`;
    // Locked before they are recorded: a row added under one meanwhile waits, and is refused after.
    const locking = new Binder(sql.dialect);
    await sql.all(`${children(locking)}${sql.dialect.lockClause("update")}`, locking.list);
    await recordRows(sql, actor, target, "deleted", children);
    if (!followed.has(target))
      await recordForeignKeyEffects(sql, actor, target, children, new Set([...followed, target]));
  }
}

/** Records `.updated` for the rows of `relation`'s table whose link to the rows `ids` is cleared. */
export function recordCleared(
  sql: Sql,
  actor: Actor | null,
  parent: TableSpec,
  relation: ForeignKeySpec,
  ids: RowIds,
): Promise<void> {
  const child = relation.target();
  const name = relationsOfKind(child, "belongsTo").find(
    ([, belongsTo]) =>
      belongsTo.foreignKey === relation.foreignKey && belongsTo.target() === parent,
  )?.[0];
  if (name === undefined) return Promise.resolve();
  const key = quote(relation.foreignKey);
  return appendEventsOfRows(sql, actor, `${child.event}.updated`, (values) => {
    const changes = changeOfHashes(name, `"parent"."hash"`, null);
    return `SELECT "child"."hash" AS "hash", ${changes} AS "changes" FROM ${quote(child.name)} AS "child" JOIN ${quote(parent.name)} AS "parent" ON "parent"."id" = "child".${key} WHERE "child".${key} IN (${ids(values)})`;
  });
}
