// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { quote, type Binder, type Sql } from "../db/sql.js";
import { chunks, type CascadeRows } from "./table/cascade.js";
import { relationsOfKind, type ForeignKeySpec, type TableSpec } from "./table/spec.js";
import { appendEventsOfRows, changeOfHashes, noTenant, type Actor } from "./outbox.js";

/*
 * The events of writes to many rows at once (a delete's cascade, a restore's), each appended by one
 * statement that selects the rows the write is about to touch, before it does.
 */

/** A SQL text of the ids of some rows (`SELECT "id" FROM …`), binding through the Binder given. */
/** A row's tenant's id as a column of its table (`prefix`: its alias and a dot), or NULL without tenants. */
function tenantOf(spec: TableSpec, prefix: string): string {
  return spec.tenantColumn === undefined ? noTenant : `${prefix}${quote(spec.tenantColumn)}`;
}

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
      `SELECT "hash", '{}' AS "changes", ${tenantOf(spec, "")} AS "tenant" FROM ${quote(spec.name)} WHERE "id" IN (${ids(values)})`,
  );
}

/**
 * Records a hard delete of `rows` (cascadeRows with everyRow: the rows asked for and what the
 * database's own foreign keys delete with them): each row is `.deleted`, and each row pointing at
 * one through an onDelete setNull relation is `.updated` (that relation from the hash to null).
 */
export async function recordDeletion(
  sql: Sql,
  actor: Actor | null,
  rows: CascadeRows,
): Promise<void> {
  for (const step of rows.steps)
    for (const chunk of chunks(step.ids)) {
      const ids: RowIds = (values) => values.addAll(chunk);
      await recordRows(sql, actor, step.spec, "deleted", ids);
      for (const relation of step.spec.nullOnDelete)
        await recordCleared(sql, actor, step.spec, relation, ids);
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
    return `SELECT "child"."hash" AS "hash", ${changes} AS "changes", ${tenantOf(child, `"child".`)} AS "tenant" FROM ${quote(child.name)} AS "child" JOIN ${quote(parent.name)} AS "parent" ON "parent"."id" = "child".${key} WHERE "child".${key} IN (${ids(values)})`;
  });
}
