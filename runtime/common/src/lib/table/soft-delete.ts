// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue } from "../column-codec.js";
import {
  recordCleared,
  recordForeignKeyEffects,
  recordRows,
  type RowIds,
} from "../events/cascade-events.js";
import type { Actor } from "../events/outbox.js";
import { Binder, quote, type Sql } from "../sql.js";
import type { TableContext } from "./context.js";
import { relationsOfKind, type ForeignKeySpec, type TableSpec } from "./spec.js";

/*
 * Soft deletes and restores, with what a hard delete's foreign keys would do to the rows pointing at
 * the row (TableSpec.cascadeTo, nullOnDelete, restrictedBy), decided under the locks the write takes.
 */

/**
 * Soft-deletes a live row and applies its relations' onDelete to what points at it, all or
 * nothing. Run inside a transaction: the row is locked first, so a write that references it either
 * finished before (and is seen here) or waits and then finds it deleted. "referenced" when a
 * restrict relation (here or down a cascade) still has live rows.
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
  for (const [name, relation] of relationsOfKind(context.spec, "belongsTo")) {
    const parentId = row[relation.foreignKey];
    if (parentId === null || parentId === undefined) continue;
    const parent = relation.target();
    if (!parent.softDelete) continue;
    const bound = new Binder(sql.dialect);
    const live = await sql.get(
      `SELECT "id" FROM ${quote(parent.name)} WHERE "id" = ${bound.add(parentId)} AND "deleted_at" IS NULL${sql.dialect.lockClause("share")}`,
      bound.list,
    );
    if (!live) return { outcome: "parent", relation: name };
  }
  await restoreRows(sql, context.spec, [id], row.deleted_at, actor);
  return { outcome: "restored" };
}

// Ids per statement of a cascade: well under SQLite's and PostgreSQL's bound-value limits.
const idsPerStatement = 500;

function chunks(ids: readonly number[]): number[][] {
  const all: number[][] = [];
  for (let start = 0; start < ids.length; start += idsPerStatement)
    all.push(ids.slice(start, start + idsPerStatement));
  return all;
}

/** `"column" IN (…)` for a chunk of ids, bound through `values`. */
function inIds(values: Binder, column: string, ids: readonly number[]): string {
  return `${quote(column)} IN (${values.addAll(ids)})`;
}

/**
 * The rows of a cascade's target that point at `parentIds`, locked for the write: live ones
 * (`deletedAt` null), or those soft-deleted at the instant `deletedAt` (a restore's).
 */
async function lockedChildren(
  sql: Sql,
  relation: ForeignKeySpec,
  parentIds: readonly number[],
  deletedAt: unknown,
): Promise<number[]> {
  const values = new Binder(sql.dialect);
  // Bound in the order of the text: SQLite's placeholders are positional.
  const parents = inIds(values, relation.foreignKey, parentIds);
  const deleted = deletedAt === null ? "IS NULL" : `= ${values.add(deletedAt)}`;
  const children = await sql.all(
    `SELECT "id" FROM ${quote(relation.target().name)} WHERE ${parents} AND "deleted_at" ${deleted}${sql.dialect.lockClause("update")}`,
    values.list,
  );
  return children.map((child) => Number(child.id));
}

/** Whether live rows point at any of `ids` through one of the table's restrict relations. */
export async function isReferenced(
  sql: Sql,
  spec: TableSpec,
  ids: readonly number[],
): Promise<boolean> {
  for (const relation of spec.restrictedBy) {
    const target = relation.target();
    const live = target.softDelete ? ` AND "deleted_at" IS NULL` : "";
    for (const chunk of chunks(ids)) {
      const values = new Binder(sql.dialect);
      const found = await sql.get(
        `SELECT 1 AS "found" FROM ${quote(target.name)} WHERE ${inIds(values, relation.foreignKey, chunk)}${live} LIMIT 1`,
        values.list,
      );
      if (found !== undefined) return true;
    }
  }
  return false;
}

/** The rows one soft delete takes: each table's ids, the row asked for first and its cascade after it. */
type SoftDeletion = { spec: TableSpec; ids: number[] }[];

/**
 * What soft-deleting the live rows `ids` of `spec` takes, decided before anything is written:
 * false when a restrict relation (here or down a cascade) has live rows, else the rows, with each
 * soft-delete cascade's rows locked and followed down in turn.
 */
async function planSoftDelete(
  sql: Sql,
  spec: TableSpec,
  ids: number[],
  plan: SoftDeletion,
): Promise<boolean> {
  if (ids.length === 0) return true;
  if (await isReferenced(sql, spec, ids)) return false;
  plan.push({ spec, ids });
  for (const relation of spec.cascadeTo) {
    const target = relation.target();
    if (!target.softDelete) continue;
    for (const chunk of chunks(ids)) {
      const childIds = await lockedChildren(sql, relation, chunk, null);
      if (!(await planSoftDelete(sql, target, childIds, plan))) return false;
    }
  }
  return true;
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
  const plan: SoftDeletion = [];
  if (!(await planSoftDelete(sql, spec, ids, plan))) return false;
  const stamp = encodeValue("datetime", at, sql.dialect);
  for (const step of plan)
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
    const target = relation.target();
    const children: RowIds = (values) =>
      `SELECT "id" FROM ${quote(target.name)} WHERE ${inIds(values, relation.foreignKey, chunk)}`;
    await recordRows(sql, actor, target, "deleted", children);
    await recordForeignKeyEffects(sql, actor, target, children);
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

/** Restores the rows `ids` of `spec`, and what their soft delete cascaded to (deleted at `at`, the same instant). */
async function restoreRows(
  sql: Sql,
  spec: TableSpec,
  ids: readonly number[],
  at: unknown,
  actor: Actor | null,
): Promise<void> {
  for (const relation of spec.cascadeTo) {
    const target = relation.target();
    if (!target.softDelete) continue;
    for (const chunk of chunks(ids)) {
      const children = await lockedChildren(sql, relation, chunk, at);
      if (children.length > 0) await restoreRows(sql, target, children, at, actor);
    }
  }
  const now = encodeValue("datetime", new Date(), sql.dialect);
  for (const chunk of chunks(ids)) {
    await recordRows(sql, actor, spec, "restored", (values) => values.addAll(chunk));
    const values = new Binder(sql.dialect);
    await sql.run(
      `UPDATE ${quote(spec.name)} SET "deleted_at" = NULL, "updated_at" = ${values.add(now)} WHERE ${inIds(values, "id", chunk)}`,
      values.list,
    );
  }
}
