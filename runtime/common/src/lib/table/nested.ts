// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue, type ColumnKind } from "../column-codec.js";
import { linkedItems, pivotRows } from "../relations/belongs-to-many.js";
import { hasManyItems, nestedLists, type NestedItems } from "../relations/has-many.js";
import { Binder, type SqlRow } from "../sql.js";
import { belongsToManyOf, tableContext, type TableContext } from "./context.js";
import type { FindOptions } from "./options.js";
import { reachConditions } from "./reach.js";
import { nestedShape, type Shape } from "./shape.js";
import { fromClause, rootAlias, type ManyToManySpec, type Reach, type TableSpec } from "./spec.js";

/*
 * Nested lists of a page (hasMany, belongsToMany): one statement per relation for the whole page,
 * never a query per row, each item within the caller's reach in its own resource.
 */

type ScopeOf = FindOptions<object>["scopeOf"];

/** Whether `relations` asks for a nested list (which a write's RETURNING cannot give). */
export function loadsNested(context: TableContext, relations: readonly string[]): boolean {
  const { hasMany, belongsToMany } = context.spec;
  return relations.some(
    (name) => Object.hasOwn(hasMany, name) || Object.hasOwn(belongsToMany, name),
  );
}

/** Loads each requested nested list for every record at once, ordered like lists. */
export async function withNested(
  context: TableContext,
  records: Record<string, unknown>[],
  relations: readonly string[],
  scopeOf?: ScopeOf,
): Promise<Record<string, unknown>[]> {
  for (const [name, relation] of Object.entries(context.spec.hasMany)) {
    if (!relations.includes(name)) continue;
    const byParent = nestedLists(records, name);
    if (records.length === 0) continue;
    const target = relation.target();
    const shape = nestedShape(context, `hasMany:${name}`, target);
    const statement = nestedItems(context, target, shape, byParent.keys(), scopeOf?.(name));
    const rows = await context.sql.all(hasManyItems(relation, statement.items), statement.values);
    for (const row of rows.map(shape.decode))
      byParent.get(row[relation.foreignKey] as number)?.push(row);
  }
  for (const [name, relation] of Object.entries(context.spec.belongsToMany))
    if (relations.includes(name)) await withLinked(context, records, name, relation, scopeOf);
  return records;
}

/**
 * Loads one belongsToMany for every record at once: one statement through the pivot, live related
 * records only (a soft-deleted one stays linked, unseen), each with its `pivot` values.
 */
async function withLinked(
  context: TableContext,
  records: Record<string, unknown>[],
  name: string,
  relation: ManyToManySpec,
  scopeOf?: ScopeOf,
): Promise<void> {
  const byOwner = nestedLists(records, name);
  if (records.length === 0) return;
  const target = relation.target();
  const shape = nestedShape(context, `belongsToMany:${name}`, target);
  const statement = nestedItems(context, target, shape, byOwner.keys(), scopeOf?.(name));
  const pivotKinds = relation.pivotColumns ?? {};
  const hasPivot = Object.keys(pivotKinds).length > 0;
  for (const row of await context.sql.all(
    linkedItems(relation, statement.items),
    statement.values,
  )) {
    const record = shape.decode(row);
    if (hasPivot) record.pivot = pivotOf(context, pivotKinds, row, "link.");
    byOwner.get(Number(row["link.owner"]))?.push(record);
  }
}

/**
 * The parts of the statement that loads a page's nested records of `target` (has-many.ts,
 * belongs-to-many.ts): their read shape, the parents' ids bound, and what the records must also
 * be — live, and within the caller's reach in their own resource, as a list of them would be.
 */
function nestedItems(
  context: TableContext,
  target: TableSpec,
  shape: Shape,
  parentIds: Iterable<number>,
  scope: Reach | undefined,
): { items: NestedItems; values: unknown[] } {
  const values = new Binder(context.sql.dialect);
  const parents = values.addAll([...parentIds]);
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
  return { items, values: values.list };
}

/** The pivot values of row `ownId`'s links to `records` (set as their `pivot`), for a relation's own list. */
export async function withPivot(
  context: TableContext,
  ownId: number,
  name: string,
  records: readonly Record<string, unknown>[],
): Promise<void> {
  const relation = belongsToManyOf(context, name);
  const kinds = relation.pivotColumns ?? {};
  if (Object.keys(kinds).length === 0) return;
  const ids = records.map((record) => record.id as number);
  const found = await pivotRows(context.sql, relation, ownId, ids);
  for (const record of records)
    record.pivot = pivotOf(context, kinds, found.get(record.id as number) ?? {}, "");
}

/** A link's pivot values, decoded from a row that holds them under `prefix`. */
function pivotOf(
  context: TableContext,
  kinds: Readonly<Record<string, ColumnKind>>,
  row: SqlRow,
  prefix: string,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(kinds).map(([column, kind]) => [
      column,
      decodeValue(kind, row[`${prefix}${column}`], context.sql.dialect),
    ]),
  );
}
