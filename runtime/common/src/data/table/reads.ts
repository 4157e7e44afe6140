// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { keysetCondition } from "../list-conditions.js";
import { Binder, type SqlRow } from "../../db/sql.js";
import {
  columnName,
  encodeColumn,
  qualified,
  type OrderKey,
  type TableContext,
} from "./context.js";
import { listFrom, narrows, whereClause } from "./filters.js";
import { withNested } from "./nested.js";
import type { CountOptions, FindOptions } from "./options.js";
import { scopeConditions } from "./reach.js";
import { shapeOf, type Shape } from "./shape.js";

export type { OrderKey } from "./context.js";
import { defaultOrder, fromClause, standardColumns, type Reach } from "./spec.js";

/** A findOne's lookup: by hash or id, of a live row, a trashed one, or either. */
export interface OneRow {
  readonly hash?: string;
  readonly id?: number;
  readonly deleted?: boolean;
}

/** One row by hash or id, with the relations asked for, within the caller's reach. */
export async function findOne(
  context: TableContext,
  where: OneRow,
  relations: readonly string[],
  reach: { scope?: Reach; scopeOf?: FindOptions<object>["scopeOf"] },
): Promise<Record<string, unknown> | null> {
  const { sql } = context;
  const shape = shapeOf(context, relations);
  const values = new Binder(sql.dialect);
  if (where.hash !== undefined) values.list.push(where.hash);
  if (where.id !== undefined) values.list.push(where.id);
  let text = findOneText(context, shape, where);
  // Within the caller's reach: one statement, so "not yours" and "not there" are the same read.
  const scoped = reach.scope ? scopeConditions(context, reach.scope, values) : [];
  if (scoped.length > 0)
    text = `${text.slice(0, -" LIMIT 1".length)} AND ${scoped.join(" AND ")} LIMIT 1`;
  const [row] = await sql.rows(text, values.list);
  if (!row) return null;
  const [record] = await withNested(context, [shape.decode(row)], relations, reach.scopeOf);
  return record ?? null;
}

/** The text of a findOne, built once per read shape and kind of lookup. */
function findOneText(context: TableContext, shape: Shape, where: OneRow): string {
  const kind =
    (where.hash === undefined ? 0 : 1) |
    (where.id === undefined ? 0 : 2) |
    (where.deleted === undefined ? 0 : where.deleted ? 4 : 8);
  let text = shape.findOne.get(kind);
  if (text === undefined) {
    const { alias } = context;
    const values = new Binder(context.sql.dialect);
    const conditions: string[] = [];
    if (where.hash !== undefined) conditions.push(`${alias}."hash" = ${values.add(where.hash)}`);
    if (where.id !== undefined) conditions.push(`${alias}."id" = ${values.add(where.id)}`);
    if (context.spec.softDelete && where.deleted !== undefined)
      conditions.push(`${alias}."deleted_at" IS ${where.deleted ? "NOT NULL" : "NULL"}`);
    text = `SELECT ${shape.columns} FROM ${fromClause(context.spec)}${shape.joins} WHERE ${conditions.join(" AND ") || "TRUE"} LIMIT 1`;
    shape.findOne.set(kind, text);
  }
  return text;
}

/** The rows that match, in order: live ones only unless `withTrashed`. */
export async function findMany(
  context: TableContext,
  options: FindOptions<object>,
): Promise<Record<string, unknown>[]> {
  const { sql } = context;
  const shape = shapeOf(context, options.relations ?? [], options.forOutput?.unshown);
  const values = new Binder(sql.dialect);
  let conditions = whereClause(context, options, values);
  const keys = orderKeys(context, options.orderBy ?? options.listOrder ?? defaultOrder);
  if (options.after) {
    const after = options.after;
    const keyset = keysetCondition(keys, after, (index) =>
      values.add(encodeColumn(context, keys[index]!.name, after[index])),
    );
    conditions = conditions === "" ? ` WHERE ${keyset}` : `${conditions} AND ${keyset}`;
  }
  const order = orderClause(context, keys, Boolean(options.withTrashed));
  const limit = options.limit === undefined ? "" : ` LIMIT ${values.add(options.limit)}`;
  const offset = options.offset === undefined ? "" : ` OFFSET ${values.add(options.offset)}`;
  const rows = await sql.rows(
    `SELECT ${shape.columns} FROM ${listFrom(context, options)}${shape.joins}${conditions} ORDER BY ${order}${limit}${offset}`,
    values.list,
  );
  const forOutput = options.forOutput !== undefined;
  return withNested(
    context,
    rows.map(forOutput ? shape.decodeForOutput : shape.decode),
    options.relations ?? [],
    options.scopeOf,
    forOutput,
  );
}

// Orders are few per table (a list's sort parameter, its default), but a sort of several fields
// has many permutations: the cache keeps the first ones it meets and builds any other each time.
const maxCachedOrders = 64;

/**
 * The keys of an order, qualified; the table's own columns other than the standard ones may be
 * NULL. Built once per table and order: every list request names its order anew.
 */
function orderKeys(
  context: TableContext,
  orderBy: readonly Partial<Record<string, "asc" | "desc">>[],
): readonly OrderKey[] {
  let name = "";
  for (const entry of orderBy) for (const column in entry) name += `${column} ${entry[column]},`;
  const orders = context.cache.orders;
  let keys = orders.get(name);
  if (keys === undefined) {
    keys = buildOrderKeys(context, orderBy);
    if (orders.size < maxCachedOrders) orders.set(name, keys);
  }
  return keys;
}

function buildOrderKeys(
  context: TableContext,
  orderBy: readonly Partial<Record<string, "asc" | "desc">>[],
): OrderKey[] {
  return orderBy.flatMap((entry) =>
    Object.entries(entry).map(([name, direction]) => ({
      name,
      column: qualified(context, name),
      direction: direction === "desc" ? ("desc" as const) : ("asc" as const),
      nullable: !Object.hasOwn(standardColumns, name),
    })),
  );
}

/** The ORDER BY list: NULL orders as the largest value on both databases. */
function orderClause(context: TableContext, keys: readonly OrderKey[], withTrashed: boolean) {
  const { dialect } = context.sql;
  const order = keys.map(
    (key) =>
      `${key.column} ${key.direction === "desc" ? "DESC" : "ASC"}${key.nullable ? dialect.nullsLargest(key.direction) : ""}`,
  );
  // Ordering live rows by deleted_at first (the same order: every one has NULL there) lets
  // PostgreSQL walk the (deleted_at, created_at, id) index and seek a cursor's position in it.
  if (context.spec.softDelete && !withTrashed && dialect.ordersLiveByDeletedAt)
    order.unshift(
      `${context.alias}."deleted_at" ${keys[0]?.direction === "desc" ? "DESC" : "ASC"}`,
    );
  return order.join(", ");
}

/** How many rows match (live ones only unless `withTrashed`). */
export async function count(context: TableContext, options: CountOptions<object>): Promise<number> {
  const { sql, spec, table } = context;
  if (
    sql.dialect.countsLiveBySubtraction &&
    spec.softDelete &&
    !options.withTrashed &&
    !narrows(options)
  ) {
    // All rows minus the few soft-deleted ones: the same exact number, read in one statement (one snapshot).
    const row = await sql.get(
      `SELECT (SELECT COUNT(*) FROM ${table}) - (SELECT COUNT(*) FROM ${table} WHERE "deleted_at" IS NOT NULL) AS "total"`,
    );
    return Number(row?.total ?? 0);
  }
  const values = new Binder(sql.dialect);
  const conditions = whereClause(context, options, values);
  const row = await sql.get(
    `SELECT COUNT(*) AS "total" FROM ${listFrom(context, options)}${conditions}`,
    values.list,
  );
  return Number(row?.total ?? 0);
}

/** How many of the rows `ids` name (once each) match every column = value pair. */
export async function countAmong(
  context: TableContext,
  ids: readonly number[],
  where: Readonly<Record<string, unknown>>,
): Promise<number> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return 0;
  const values = new Binder(context.sql.dialect);
  const list = values.addAll(distinct);
  const conditions = Object.entries(where).map(
    ([column, value]) =>
      ` AND ${columnName(context, column)} = ${values.add(encodeColumn(context, column, value))}`,
  );
  const row = await context.sql.get(
    `SELECT COUNT(*) AS "total" FROM ${context.table} WHERE "id" IN (${list})${conditions.join("")}`,
    values.list,
  );
  return Number(row?.total ?? 0);
}

/**
 * Whether a row (live or not) matches every column = value pair, other than the row `exceptId`;
 * a `caseless` column matches regardless of case.
 */
export async function exists(
  context: TableContext,
  where: Readonly<Record<string, unknown>>,
  exceptId?: number,
): Promise<boolean> {
  const entries = Object.entries(where).filter(([, value]) => value !== undefined);
  // An object or array (from a body that failed validation) is no value a column holds: no row has it.
  if (entries.some(([, value]) => isComposite(value))) return false;
  const values = new Binder(context.sql.dialect);
  const conditions = entries.map(([column, value]) => {
    const name = columnName(context, column);
    if (value === null) return `${name} IS NULL`;
    const bound = values.add(encodeColumn(context, column, value));
    return context.spec.caseless?.includes(column)
      ? `lower(${name}) = lower(${bound})`
      : `${name} = ${bound}`;
  });
  if (exceptId !== undefined) conditions.push(`"id" <> ${values.add(exceptId)}`);
  const found: SqlRow | undefined = await context.sql.get(
    `SELECT 1 AS "found" FROM ${context.table} WHERE ${conditions.join(" AND ") || "TRUE"} LIMIT 1`,
    values.list,
  );
  return found !== undefined;
}

function isComposite(value: unknown): boolean {
  return typeof value === "object" && value !== null && !(value instanceof Date);
}
