// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue } from "../column-codec.js";
import { recordCleared, recordDeletion, recordRows, type RowIds } from "../cascade-events.js";
import type { Actor } from "../outbox.js";
import { Binder, quote, type Sql } from "../../db/sql.js";
import {
  cascadeChildren,
  cascadeRows,
  chunks,
  everyRow,
  heldBack,
  inIds,
  isHeldBack,
  type CascadeRows,
  type HeldBack,
  type CascadeWalk,
} from "./cascade.js";
import type { TableContext } from "./context.js";
import { relationsOfKind, type ForeignKeySpec, type TableSpec } from "./spec.js";

/*
 * Soft deletes and restores, with what a hard delete's foreign keys would do to the rows pointing at
 * the row (TableSpec.cascadeTo, nullOnDelete, restrictedBy), decided under the locks the write takes.
 */

/**
 * Soft-deletes a live row and applies its relations' onDelete to what points at it, all or
 * nothing. Run inside a transaction: the row is locked first, so a write that references it either
 * finished before (and is seen here) or waits and then finds it deleted. "referenced" when a live
 * row the delete does not take points at one it takes (here or down a cascade) through restrict.
 */
export async function softDelete(
  context: TableContext,
  id: number,
  actor: Actor | null,
): Promise<"deleted" | "referenced" | "gone"> {
  const { sql, table } = context;
  const values = new Binder(sql.dialect);
  const locked = await sql.get(
    `SELECT "id" FROM ${table} WHERE "id" = ${values.add(id)} AND "deleted_at" IS NULL${sql.dialect.lockClause("update")}`,
    values.list,
  );
  if (!locked) return "gone";
  const deleted = await softDeleteRows(sql, context.spec, [id], new Date(), actor);
  return deleted ? "deleted" : "referenced";
}

/** A restore's outcome: done, no such trashed row, or the name of a parent that is deleted. */
export type Restored = { outcome: "restored" | "gone" } | { outcome: "parent"; relation: string };

/**
 * Restores a soft-deleted row with the rows its delete cascaded to (those deleted at the same
 * instant). Run inside a transaction: the parents it points at are locked live, or the name of
 * the first deleted one comes back ("parent"), as a new record pointing at it would be refused.
 */
export async function restore(
  context: TableContext,
  id: number,
  actor: Actor | null,
): Promise<Restored> {
  const { sql, table } = context;
  const values = new Binder(sql.dialect);
  const row = await sql.get(
    `SELECT * FROM ${table} WHERE "id" = ${values.add(id)} AND "deleted_at" IS NOT NULL${sql.dialect.lockClause("update")}`,
    values.list,
  );
  if (!row) return { outcome: "gone" };
  const rows = await cascadeRows(sql, context.spec, [id], deletedAt(row.deleted_at));
  for (const [name, relation] of relationsOfKind(context.spec, "belongsTo")) {
    const parentId = row[relation.foreignKey];
    if (parentId === null || parentId === undefined) continue;
    const parent = relation.target();
    // A parent the restore brings back itself (the row, or one of a ring) is no obstacle.
    if (!parent.softDelete || rows.has(parent, Number(parentId))) continue;
    const bound = new Binder(sql.dialect);
    const live = await sql.get(
      `SELECT "id" FROM ${quote(parent.name)} WHERE "id" = ${bound.add(parentId)} AND "deleted_at" IS NULL${sql.dialect.lockClause("share")}`,
      bound.list,
    );
    if (!live) return { outcome: "parent", relation: name };
  }
  await restoreRows(sql, rows, actor);
  return { outcome: "restored" };
}

/**
 * Why a delete of row `id` answered "referenced": the restrict relation that holds it back, read
 * again for the 409's message (outside the refused write: undefined when it no longer holds).
 */
export async function whatHoldsBack(
  context: TableContext,
  id: number,
): Promise<HeldBack | undefined> {
  const walk = context.spec.softDelete ? liveRows : everyRow;
  return heldBack(context.sql, await cascadeRows(context.sql, context.spec, [id], walk));
}

/** Soft deletes and restores follow cascades into the tables with soft delete only. */
const intoSoftDeletes = (relation: ForeignKeySpec) => relation.target().softDelete;

/** A soft delete's cascade: the live rows of the tables with soft delete. */
const liveRows: CascadeWalk = { follows: intoSoftDeletes, state: () => `"deleted_at" IS NULL` };

/** A restore's cascade: the rows of the tables with soft delete deleted at the instant `at`. */
function deletedAt(at: unknown): CascadeWalk {
  return { follows: intoSoftDeletes, state: (values) => `"deleted_at" = ${values.add(at)}` };
}

/**
 * Soft-deletes the live rows `ids` of `spec` at `at` and applies onDelete to what points at them:
 * restrict → false, and nothing is written; setNull → links cleared; cascade → soft-deleted at the
 * same instant or, without soft delete, deleted (the database's own foreign keys apply below those,
 * and a refusal there throws its foreign-key error, which rolls the transaction back).
 */
async function softDeleteRows(
  sql: Sql,
  spec: TableSpec,
  ids: number[],
  at: Date,
  actor: Actor | null,
): Promise<boolean> {
  const rows = await cascadeRows(sql, spec, ids, liveRows);
  if (await isHeldBack(sql, rows)) return false;
  const stamp = encodeValue("datetime", at, sql.dialect);
  for (const step of rows.steps)
    for (const chunk of chunks(step.ids))
      await softDeleteChunk(sql, step.spec, chunk, stamp, actor);
  return true;
}

/**
 * One chunk of a soft delete's rows: links cleared, hard cascades deleted, the rows stamped, each
 * with its events (the rows' own first).
 */
async function softDeleteChunk(
  sql: Sql,
  spec: TableSpec,
  chunk: readonly number[],
  stamp: unknown,
  actor: Actor | null,
): Promise<void> {
  const rows: RowIds = (values) => values.addAll(chunk);
  await recordRows(sql, actor, spec, "deleted", rows);
  for (const relation of spec.nullOnDelete) {
    await recordCleared(sql, actor, spec, relation, rows);
    const values = new Binder(sql.dialect);
    await sql.run(
      `UPDATE ${quote(relation.target().name)} SET ${quote(relation.foreignKey)} = NULL, "updated_at" = ${values.add(stamp)} WHERE ${inIds(values, relation.foreignKey, chunk)}`,
      values.list,
    );
  }
  for (const relation of spec.cascadeTo.filter((entry) => !entry.target().softDelete)) {
    const children = await cascadeChildren(sql, relation, chunk, everyRow);
    await recordDeletion(sql, actor, await cascadeRows(sql, relation.target(), children, everyRow));
    const values = new Binder(sql.dialect);
    await sql.run(
      `DELETE FROM ${quote(relation.target().name)} WHERE ${inIds(values, relation.foreignKey, chunk)}`,
      values.list,
    );
  }
  const values = new Binder(sql.dialect);
  await sql.run(
    `UPDATE ${quote(spec.name)} SET "deleted_at" = ${values.add(stamp)}, "updated_at" = ${values.add(stamp)} WHERE ${inIds(values, "id", chunk)} AND "deleted_at" IS NULL`,
    values.list,
  );
}

/** Restores the rows a restore's cascade took (cascadeRows with deletedAt), with their events. */
async function restoreRows(sql: Sql, rows: CascadeRows, actor: Actor | null): Promise<void> {
  const now = encodeValue("datetime", new Date(), sql.dialect);
  // What the cascade reached first, the row asked for last.
  for (const step of [...rows.steps].reverse())
    for (const chunk of chunks(step.ids)) {
      await recordRows(sql, actor, step.spec, "restored", (values) => values.addAll(chunk));
      const values = new Binder(sql.dialect);
      await sql.run(
        `UPDATE ${quote(step.spec.name)} SET "deleted_at" = NULL, "updated_at" = ${values.add(now)} WHERE ${inIds(values, "id", chunk)}`,
        values.list,
      );
    }
}
