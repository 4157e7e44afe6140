// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue, type ColumnKind } from "../column-codec.js";
import { maxNestedPerParent } from "../list-operators.js";
import { Binder, type SqlDialect, type SqlRow } from "../sql.js";
import { tableContext, type TableContext } from "./context.js";
import { reachConditions } from "./reach.js";
import { nestedShape, type Shape } from "./shape.js";
import { fromClause, rootAlias, type Reach, type TableSpec } from "./spec.js";

/*
 * What the relation kinds that nest lists (hasMany, belongsToMany) share: a page's nested records
 * are loaded in one statement per relation, never a query per row, at most maxNestedPerParent per
 * parent, each live and within the caller's reach in its own resource.
 */

/** What the statement that loads the items of a page is made of. */
export interface NestedItems {
  /** The items' SELECT list and joins (their own belongsTo, as hashes): their read shape. */
  readonly columns: string;
  readonly joins: string;
  /** The items' table and its alias in the statement. */
  readonly from: string;
  readonly alias: string;
  /** The parents' ids, as placeholders: `?, ?, ?`. */
  readonly parents: string;
  /** ` AND …` conditions the items must also meet (live, within the caller's reach). */
  readonly reach: string;
}

/** A page's nested list of one relation, ready to be loaded. */
export interface NestedPage {
  /** The parent's id → its list (each record's `name` set to its own empty list). */
  readonly byParent: Map<number, Record<string, unknown>[]>;
  readonly shape: Shape;
  readonly items: NestedItems;
  readonly values: unknown[];
}

/**
 * Sets an empty list `name` on every record and prepares the statement of their items in `target`:
 * the items' read shape, the parents' ids bound, and what the items must also be (live, within
 * `scope`). Undefined for an empty page.
 */
export function nestedPage(
  context: TableContext,
  records: Record<string, unknown>[],
  name: string,
  target: TableSpec,
  scope: Reach | undefined,
): NestedPage | undefined {
  const byParent = new Map<number, Record<string, unknown>[]>();
  for (const record of records) {
    const items: Record<string, unknown>[] = [];
    byParent.set(Number(record.id), items);
    record[name] = items;
  }
  if (records.length === 0) return undefined;
  const shape = nestedShape(context, name, target);
  const values = new Binder(context.sql.dialect);
  const parents = values.addAll([...byParent.keys()]);
  const reach = reachConditions(tableContext(context.sql, target), scope, values)
    .map((condition) => ` AND ${condition}`)
    .join("");
  const items = {
    columns: shape.columns,
    joins: shape.joins,
    from: fromClause(target),
    alias: rootAlias(target),
    parents,
    reach,
  };
  return { byParent, shape, items, values: values.list };
}

/**
 * `SELECT …` of nested records, at most maxNestedPerParent per parent (`parent` names the column,
 * qualified, that tells whose each is), in list order: the window numbers them, the outer query keeps
 * the first ones. Its columns are the inner SELECT list's, so rows decode as before.
 */
export function firstPerParent(
  select: string,
  from: string,
  parent: string,
  alias: string,
): string {
  const order = `${alias}."created_at" ASC, ${alias}."id" ASC`;
  const ranked = `SELECT ${select}, ROW_NUMBER() OVER (PARTITION BY ${parent} ORDER BY ${order}) AS "nested.rank" FROM ${from}`;
  return `SELECT * FROM (${ranked}) AS "nested" WHERE "nested.rank" <= ${maxNestedPerParent} ORDER BY "nested"."created_at" ASC, "nested"."id" ASC`;
}

/** A link's pivot values, decoded from a row that holds them under `prefix`. */
export function pivotValues(
  kinds: Readonly<Record<string, ColumnKind>>,
  row: SqlRow,
  prefix: string,
  dialect: SqlDialect,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(kinds).map(([column, kind]) => [
      column,
      decodeValue(kind, row[`${prefix}${column}`], dialect),
    ]),
  );
}
