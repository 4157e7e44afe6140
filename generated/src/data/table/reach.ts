// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue, type ColumnKind } from "../column-codec.js";
import { Binder, quote, type SqlRow } from "../../db/sql.js";
import { belongsToOf, columnName, tableContext, type TableContext } from "./context.js";
import {
  columnsOf,
  fromClause,
  rowKeyCondition,
  scopeList,
  type Reach,
  type RowKey,
  type RowScope,
} from "./spec.js";

/*
 * Reach: which rows a caller may read or write (a policy's scope, an ownership), decided inside the
 * statement that reads them, or under the lock the write holds. Never a check before and a write after.
 */

/** What a row the caller reaches must be: live, and within `scope` when given (qualified by the alias). */
export function reachConditions(
  context: TableContext,
  scope: Reach | undefined,
  values: Binder,
): string[] {
  return [
    ...(context.spec.softDelete ? [`${context.alias}."deleted_at" IS NULL`] : []),
    ...(scope ? scopeConditions(context, scope, values) : []),
  ];
}

/** A scope's conditions on this table's rows (see RowScope); its columns come from code, never from a request. */
export function scopeConditions(context: TableContext, scope: Reach, values: Binder): string[] {
  return scopeList(scope).flatMap((one) => oneScopeConditions(context, one, values));
}

function oneScopeConditions(context: TableContext, scope: RowScope, values: Binder): string[] {
  const { dialect } = context.sql;
  const equal = (column: string, kind: ColumnKind, value: unknown, owner: string) =>
    value === null || value === undefined
      ? `${owner}${quote(column)} IS NULL`
      : `${owner}${quote(column)} = ${values.add(encodeValue(kind, value, dialect))}`;
  const conditions = Object.entries(scope.where ?? {}).map(([column, value]) => {
    columnName(context, column); // a column of this table, or a programming error
    return equal(column, context.columns[column]!, value, `${context.alias}.`);
  });
  for (const [name, where] of Object.entries(scope.through ?? {})) {
    const relation = belongsToOf(context, name);
    const target = relation.target();
    const kinds = columnsOf(target);
    const inner = Object.entries(where).map(([column, value]) => {
      if (!Object.hasOwn(kinds, column)) throw new Error(`${target.name} has no column ${column}`);
      return equal(column, kinds[column]!, value, "");
    });
    if (target.softDelete) inner.push(`"deleted_at" IS NULL`);
    conditions.push(
      `${context.alias}.${quote(relation.foreignKey)} IN (SELECT "id" FROM ${quote(target.name)} WHERE ${inner.join(" AND ") || "TRUE"})`,
    );
  }
  return conditions;
}

/** One row by hash or id that is live and within `scope`, locked as asked: its id. */
export async function reachedRow(
  context: TableContext,
  column: "hash" | "id",
  value: string | number,
  lock: "share" | undefined,
  scope: Reach | undefined,
): Promise<SqlRow | undefined> {
  const { sql, spec, alias } = context;
  const values = new Binder(sql.dialect);
  const conditions = [
    `${alias}.${quote(column)} = ${values.add(value)}`,
    ...reachConditions(context, scope, values),
  ];
  return sql.get(
    `SELECT ${alias}."id" FROM ${fromClause(spec)} WHERE ${conditions.join(" AND ")} LIMIT 1${sql.dialect.lockClause(lock)}`,
    values.list,
  );
}

/**
 * The rows among `hashes` that are live and within `scope`, locked as asked, in one statement:
 * hash → id (a hash missing from the map finds no such row).
 */
export async function reachedRows(
  context: TableContext,
  hashes: readonly string[],
  lock: "share" | undefined,
  scope: Reach | undefined,
): Promise<Map<string, number>> {
  if (hashes.length === 0) return new Map();
  const { sql, spec, alias } = context;
  const values = new Binder(sql.dialect);
  const listed = hashes.map((hash) => values.add(hash)).join(", ");
  const conditions = [`${alias}."hash" IN (${listed})`, ...reachConditions(context, scope, values)];
  const rows = await sql.all(
    `SELECT ${alias}."id", ${alias}."hash" FROM ${fromClause(spec)} WHERE ${conditions.join(" AND ")}${sql.dialect.lockClause(lock)}`,
    values.list,
  );
  return new Map(rows.map((row) => [String(row.hash), Number(row.id)]));
}

/**
 * Locks the row `key` names (by id, or by hash) for a write and decides, under that lock, whether
 * the caller still reaches it: live (trashed, for a restore) and within `scope`. The parents a
 * scope runs through are locked first (FOR SHARE, the order a cascade locks in: parent, then
 * child) and matched again, so a doctor whose account moved, or a record reassigned, meanwhile is
 * out of reach here and not written afterwards. Run inside a transaction. The row's own columns as
 * stored, or null when it is gone or out of reach: then the write must not happen (the 404 of a
 * missing record).
 */
export async function lockReached(
  context: TableContext,
  key: RowKey,
  state: "live" | "trashed",
  scope?: Reach,
): Promise<SqlRow | null> {
  const throughs = scopeList(scope).flatMap((one) => Object.entries(one.through ?? {}));
  // A parent may change between reading its key and locking the row: read, lock, compare, again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const parents = throughs.length > 0 ? await lockParents(context, key, throughs) : {};
    if (parents === null) return null;
    const row = await lockRow(context, key, state, scope);
    if (!row) return null;
    const moved = Object.entries(parents).some(([key, parentId]) => row[key] !== parentId);
    if (!moved) return row;
  }
  return null;
}

/**
 * The parents row `id` points at through the scope's relations, each locked FOR SHARE and matched
 * against its part of the scope: foreign key → parent id, or null when one is missing or out of reach.
 */
async function lockParents(
  context: TableContext,
  key: RowKey,
  throughs: readonly [string, Readonly<Record<string, unknown>>][],
): Promise<Record<string, unknown> | null> {
  const { sql, table } = context;
  const values = new Binder(sql.dialect);
  const where = rowKeyCondition(key, "", (value) => values.add(value));
  const keys = await sql.get(`SELECT * FROM ${table} WHERE ${where}`, values.list);
  if (!keys) return null;
  const parents: Record<string, unknown> = {};
  for (const [name, where] of throughs) {
    const relation = belongsToOf(context, name);
    const parentId = keys[relation.foreignKey];
    if (parentId === null || parentId === undefined) return null;
    const parent = tableContext(sql, relation.target());
    if (!(await reachedRow(parent, "id", Number(parentId), "share", { where }))) return null;
    parents[relation.foreignKey] = parentId;
  }
  return parents;
}

/** The row `key` names locked FOR UPDATE when it is in `state` and within `scope`; its stored columns. */
async function lockRow(
  context: TableContext,
  key: RowKey,
  state: "live" | "trashed",
  scope: Reach | undefined,
): Promise<SqlRow | undefined> {
  const { sql, spec, alias } = context;
  const values = new Binder(sql.dialect);
  const conditions = [rowKeyCondition(key, `${alias}.`, (value) => values.add(value))];
  if (spec.softDelete)
    conditions.push(`${alias}."deleted_at" IS ${state === "live" ? "" : "NOT "}NULL`);
  if (scope) conditions.push(...scopeConditions(context, scope, values));
  return sql.get(
    `SELECT ${alias}.* FROM ${fromClause(spec)} WHERE ${conditions.join(" AND ")}${sql.dialect.lockClause("update")}`,
    values.list,
  );
}
