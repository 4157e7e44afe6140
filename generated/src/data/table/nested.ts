// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { pivotRows } from "../relations/belongs-to-many.js";
import { kindOf } from "../relations/kinds.js";
import { belongsToManyOf, type TableContext } from "./context.js";
import { pivotDecoder } from "./nested-items.js";
import type { FindOptions } from "./options.js";
import { relationNamed } from "./spec.js";

/*
 * The relations a read asks for that are not joined into its statement: each kind loads them for
 * the whole page (relations/<kind>.ts loadPage), in declaration order.
 */

/** Whether `relations` asks for a relation loaded after the page (which a write's RETURNING cannot give). */
export function loadsNested(context: TableContext, relations: readonly string[]): boolean {
  return relations.some((name) => {
    const relation = relationNamed(context.spec, name);
    return relation !== undefined && !kindOf(relation).joined;
  });
}

/** Loads each requested relation that is not joined, for every record at once. */
export async function withNested(
  context: TableContext,
  records: Record<string, unknown>[],
  relations: readonly string[],
  scopeOf?: FindOptions<object>["scopeOf"],
  forOutput = false,
): Promise<Record<string, unknown>[]> {
  for (const [name, relation] of Object.entries(context.spec.relations)) {
    if (!relations.includes(name)) continue;
    const kind = kindOf(relation);
    if (!kind.joined)
      await kind.loadPage(context, records, name, relation, scopeOf?.(name), forOutput);
  }
  return records;
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
  const ids = records.map((record) => Number(record.id));
  const found = await pivotRows(context.sql, relation, ownId, ids);
  const pivot = pivotDecoder(kinds, 1, context.sql.dialect);
  for (const record of records) record.pivot = pivot(found.get(Number(record.id)) ?? []);
}
