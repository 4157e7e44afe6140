// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { recordDeletion } from "../cascade-events.js";
import { cascadeRows, everyRow, isHeldBack } from "./cascade.js";
import type { Actor } from "../outbox.js";
import { Binder, quote } from "../../db/sql.js";
import { columnName, encodeColumn, type TableContext } from "./context.js";
import { loadsNested } from "./nested.js";
import { findOne } from "./reads.js";
import { shapeOf, type ReturnedRow } from "./shape.js";
import { readableColumnsOf, relationsOfKind } from "./spec.js";

/*
 * Inserts and updates of one row: timestamps set here (as Prisma's @default(now()) and @updatedAt
 * would), the row read back in the same statement (RETURNING) when the read needs no join.
 */

/** A statement's text with its values, ready for the driver. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Column → value of a write; undefined values are left out (the column keeps what it has). */
export type WriteValues = Readonly<Record<string, unknown>>;

/** Inserts a row and returns its id. */
export async function insert(context: TableContext, values: WriteValues): Promise<number> {
  const statement = insertStatement(context, values);
  const inserted = await context.sql.get(`${statement.text} RETURNING "id"`, statement.values);
  return Number(inserted!.id);
}

/**
 * Inserts a row and reads it back with the relations asked for: in the same statement (RETURNING)
 * when the read needs no join, else by id.
 */
export async function insertAndRead(
  context: TableContext,
  values: WriteValues,
  relations: readonly string[],
): Promise<Record<string, unknown>> {
  const returning = returnedRow(context, relations);
  if (returning === undefined) {
    const id = await insert(context, values);
    return (await findOne(context, { id }, relations, {}))!;
  }
  const statement = insertStatement(context, values);
  const [row] = await context.sql.rows(`${statement.text} ${returning.text}`, statement.values);
  return returning.decode(row!);
}

/**
 * Updates the given columns (and updated_at) of one row; false when no row has that id (with
 * `live`, none that is live: a row soft-deleted since it was read is not written).
 */
export async function update(
  context: TableContext,
  id: number,
  values: WriteValues,
  live: boolean,
): Promise<boolean> {
  const statement = updateStatement(context, id, values, live);
  return (await context.sql.run(statement.text, statement.values)) > 0;
}

/** Updates one row and reads it back (see insertAndRead and update); null when none was written. */
export async function updateAndRead(
  context: TableContext,
  id: number,
  values: WriteValues,
  relations: readonly string[],
  live: boolean,
): Promise<Record<string, unknown> | null> {
  const returning = returnedRow(context, relations);
  if (returning === undefined)
    return (await update(context, id, values, live))
      ? findOne(context, { id }, relations, {})
      : null;
  const statement = updateStatement(context, id, values, live);
  const [row] = await context.sql.rows(`${statement.text} ${returning.text}`, statement.values);
  return row ? returning.decode(row) : null;
}

/**
 * Deletes one row with its event and those of what the database's own foreign keys do to the rows
 * pointing at it (see soft-delete.ts for soft deletes): "referenced" when a live row the delete
 * does not take points at one it takes through a restrict relation, "gone" when there was no such
 * row. The row is locked first, as soft deletes lock theirs: a delete that waited for another to
 * commit finds it gone, instead of recording the events of rows that other delete took.
 */
export async function deleteRow(
  context: TableContext,
  id: number,
  actor: Actor | null,
): Promise<"deleted" | "referenced" | "gone"> {
  const { sql, spec } = context;
  const root = new Binder(sql.dialect);
  const present = await sql.get(
    `SELECT "id" FROM ${context.table} WHERE "id" = ${root.add(id)}${sql.dialect.lockClause("update")}`,
    root.list,
  );
  if (present === undefined) return "gone";
  const rows = await cascadeRows(sql, spec, [id], everyRow);
  if (await isHeldBack(sql, rows)) return "referenced";
  await recordDeletion(sql, actor, rows);
  const values = new Binder(sql.dialect);
  const deleted = await sql.run(
    `DELETE FROM ${context.table} WHERE "id" = ${values.add(id)}`,
    values.list,
  );
  return deleted > 0 ? "deleted" : "gone";
}

/** The INSERT of a row (timestamps included) and its values, bound through `bound`. */
export function insertStatement(
  context: TableContext,
  values: WriteValues,
  bound = new Binder(context.sql.dialect),
): Statement {
  const now = new Date();
  const row: Record<string, unknown> = {
    created_at: now,
    updated_at: now,
    ...defined(values),
  };
  const columns = Object.keys(row);
  const list = columns.map((column) => bound.add(encodeColumn(context, column, row[column])));
  const names = columns.map((column) => columnName(context, column)).join(", ");
  return {
    text: `INSERT INTO ${context.table} (${names}) VALUES (${list.join(", ")})`,
    values: bound.list,
  };
}

/** The SET list of an update of the given columns and updated_at, bound through `bound`. */
export function assignmentsOf(context: TableContext, values: WriteValues, bound: Binder): string {
  const row: Record<string, unknown> = {
    ...defined(values),
    updated_at: new Date(),
  };
  return Object.keys(row)
    .map(
      (column) =>
        `${columnName(context, column)} = ${bound.add(encodeColumn(context, column, row[column]))}`,
    )
    .join(", ");
}

/** The UPDATE of one row's given columns and updated_at (of a live row only, with `live`), and its values. */
function updateStatement(
  context: TableContext,
  id: number,
  values: WriteValues,
  live: boolean,
): Statement {
  const bound = new Binder(context.sql.dialect);
  const assignments = assignmentsOf(context, values, bound);
  const text = `UPDATE ${context.table} SET ${assignments} WHERE "id" = ${bound.add(id)}${stillLive(context, live)}`;
  return { text, values: bound.list };
}

/** The condition that keeps a write to live rows (`live`, on a soft-deleting table). */
export function stillLive(context: TableContext, live: boolean): string {
  return live && context.spec.softDelete ? ` AND "deleted_at" IS NULL` : "";
}

/**
 * A write's RETURNING list and decoder when the row it returns is the whole read (a table without
 * belongsTo, whose read shape has no join, and no nested list asked for); undefined otherwise. The
 * list is the read shape's, in its order, so the shape's decoder reads it.
 */
export function returnedRow(
  context: TableContext,
  relations: readonly string[],
): ReturnedRow | undefined {
  if (relationsOfKind(context.spec, "belongsTo").length > 0 || loadsNested(context, relations))
    return undefined;
  context.cache.returnsRow ??= {
    text: `RETURNING ${Object.keys(readableColumnsOf(context.spec)).map(quote).join(", ")}`,
    decode: shapeOf(context, []).decode,
  };
  return context.cache.returnsRow;
}

function defined(values: WriteValues): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
