// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { listOf } from "../base/records.js";
import { foldText } from "../db/text-folding.js";
import type { FilterOperator } from "./list-operators.js";
import type { ManyToManySpec } from "./table/spec.js";
import type { SqlDialect } from "../db/sql.js";

/*
 * A list query's conditions, as one tree: each query parameter's parser (http/list-query.ts) adds
 * its conditions, code adds its own (a relation's own list), and data/table/filters.ts compiles the
 * tree to SQL in one place. The text building for one column comparison, `?search=` and cursor
 * (keyset) positions is here: column names come quoted from the table, values go through `bind`
 * (which encodes them for the column and hands out a placeholder per use), never into text.
 */

/**
 * One of the table's own columns compared with a value of its kind: `?field=v` and
 * `?filter[field]=v` are `eq`; `value` is a list for in/nin/between, a boolean for null.
 */
export interface ColumnCondition {
  readonly column: string;
  readonly op: FilterOperator;
  readonly value: unknown;
}

/**
 * A relation by the related records' hashes (`eq` one, `in` a list), or its absence (`null`,
 * belongsTo only): a belongsTo compares its foreign key, a belongsToMany looks through its pivot.
 */
export interface RelationCondition {
  readonly relation: string;
  readonly op: "eq" | "in" | "null";
  readonly value: unknown;
}

/**
 * The rows another row links to through a belongsToMany (a relation's own list route): `relation`
 * is that row's table's relation (from code, never from a request), `ownId` the row.
 */
export interface LinkedCondition {
  readonly linkedFrom: { readonly relation: ManyToManySpec; readonly ownId: number };
}

/** Every one of `all` holds (none: every row). */
export interface AllOf {
  readonly all: readonly ListCondition[];
}

/** At least one of `any` holds (none: no row). */
export interface AnyOf {
  readonly any: readonly ListCondition[];
}

export type ListCondition = ColumnCondition | RelationCondition | LinkedCondition | AllOf | AnyOf;

/**
 * `?search=`: every word appears, case-insensitively, in at least one of `columns`; a word is a
 * `contains` like `?filter[field][contains]=`, so it is compiled (and bound) the same way.
 */
export function searchCondition(columns: readonly string[], words: readonly string[]): AllOf {
  return {
    all: words.map((word) => ({
      any: columns.map((column) => ({ column, op: "contains" as const, value: word })),
    })),
  };
}

/** The tree with each column condition replaced by `change(condition)` (users.service.ts lower-cases e-mails). */
export function mapColumnConditions(
  conditions: readonly ListCondition[],
  change: (condition: ColumnCondition) => ColumnCondition,
): ListCondition[] {
  return conditions.map((condition) => {
    if ("all" in condition) return { all: mapColumnConditions(condition.all, change) };
    if ("any" in condition) return { any: mapColumnConditions(condition.any, change) };
    return "column" in condition ? change(condition) : condition;
  });
}

/** A LIKE pattern that takes `text` literally: `\`, `%` and `_` escaped (LIKE … ESCAPE '\'). */
export function likePattern(op: FilterOperator, text: string): string {
  const literal = foldText(text).replace(/[\\%_]/g, (character) => `\\${character}`);
  if (op === "starts_with") return `${literal}%`;
  if (op === "ends_with") return `%${literal}`;
  return `%${literal}%`;
}

/** `column <op> value` for one column condition; `bind` turns a value of the column into a placeholder. */
export function columnComparison(
  dialect: SqlDialect,
  column: string,
  condition: Pick<ColumnCondition, "op" | "value">,
  bind: (value: unknown) => string,
): string {
  const { op, value } = condition;
  const list = () => listOf(value).map(bind).join(", ");
  switch (op) {
    case "eq":
      return value === null ? `${column} IS NULL` : `${column} = ${bind(value)}`;
    case "null":
      return `${column} IS ${value === true ? "" : "NOT "}NULL`;
    // "Not equal" keeps the records without a value: null is not v either.
    case "ne":
      return `(${column} <> ${bind(value)} OR ${column} IS NULL)`;
    case "nin":
      return `(${column} NOT IN (${list()}) OR ${column} IS NULL)`;
    case "in":
      return `${column} IN (${list()})`;
    case "gt":
      return `${column} > ${bind(value)}`;
    case "gte":
      return `${column} >= ${bind(value)}`;
    case "lt":
      return `${column} < ${bind(value)}`;
    case "lte":
      return `${column} <= ${bind(value)}`;
    case "between": {
      const [low, high] = listOf(value);
      return `${column} BETWEEN ${bind(low)} AND ${bind(high)}`;
    }
    case "contains":
    case "starts_with":
    case "ends_with":
      return `${dialect.foldedText(column)} LIKE ${bind(likePattern(op, String(value)))} ESCAPE '\\'`;
  }
}

/** One key of an order, as a keyset condition reads it. */
export interface KeysetKey {
  /** The qualified, quoted column. */
  readonly column: string;
  readonly direction: "asc" | "desc";
  /** Whether the column may hold NULL (ordered as the largest value: last ascending, first descending). */
  readonly nullable: boolean;
}

/**
 * The rows strictly after the row whose keys are `values`, in the order `keys` (the last key is
 * unique: the id). Keys of one direction without NULLs compare as one row value, which both
 * databases answer from an index on those columns; other orders as the equivalent OR chain.
 */
export function keysetCondition(
  keys: readonly KeysetKey[],
  values: readonly unknown[],
  bind: (index: number) => string,
): string {
  const uniform = keys.every(
    (key, index) => key.direction === keys[0]!.direction && !key.nullable && values[index] !== null,
  );
  if (uniform) {
    const columns = keys.map((key) => key.column).join(", ");
    const placeholders = keys.map((_, index) => bind(index)).join(", ");
    return `(${columns}) ${keys[0]!.direction === "asc" ? ">" : "<"} (${placeholders})`;
  }
  const after = (index: number): string => {
    const key = keys[index]!;
    const value = values[index];
    const beyond = strictlyAfter(key, value, () => bind(index));
    if (index === keys.length - 1) return beyond;
    const same = value === null ? `${key.column} IS NULL` : `${key.column} = ${bind(index)}`;
    return `(${beyond} OR (${same} AND ${after(index + 1)}))`;
  };
  return after(0);
}

function strictlyAfter(key: KeysetKey, value: unknown, placeholder: () => string): string {
  if (key.direction === "asc") {
    // NULL is the largest value: nothing is after it but other NULLs (decided by later keys).
    if (value === null) return "FALSE";
    return key.nullable
      ? `(${key.column} > ${placeholder()} OR ${key.column} IS NULL)`
      : `${key.column} > ${placeholder()}`;
  }
  if (value === null) return `${key.column} IS NOT NULL`;
  return `${key.column} < ${placeholder()}`;
}
