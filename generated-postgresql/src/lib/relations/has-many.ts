// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { maxNestedPerParent } from "../list-operators.js";
import { quote } from "../sql.js";
import type { RelationSpec } from "../table/spec.js";

/*
 * A hasMany relation: rows of another table whose `foreignKey` holds this row's id. Never joined
 * (a join would repeat the parent once per item and break its page); loaded for a whole page in
 * one statement, `foreignKey IN (the page's ids)`, ordered like a list, and handed to each parent.
 * Written from the other side (the items' belongsTo). belongs-to-many.ts nests its records the same way.
 */

/** An empty list `name` on every record, found by the record's id: what nested rows are added to. */
export function nestedLists(
  records: Record<string, unknown>[],
  name: string,
): Map<number, Record<string, unknown>[]> {
  const byParent = new Map<number, Record<string, unknown>[]>();
  for (const record of records) {
    const items: Record<string, unknown>[] = [];
    byParent.set(record.id as number, items);
    record[name] = items;
  }
  return byParent;
}

/** What the statement that loads the items of a page is made of. */
export interface NestedItems {
  /** The items' SELECT list and joins (their own belongsTo, as hashes): Table's read shape. */
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

export { maxNestedPerParent };

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

/** The one statement that loads the items of every parent of a page (the first ones of each). */
export function hasManyItems(relation: RelationSpec, items: NestedItems): string {
  const alias = quote(items.alias);
  const parent = `${alias}.${quote(relation.foreignKey)}`;
  return firstPerParent(
    items.columns,
    `${items.from}${items.joins} WHERE ${parent} IN (${items.parents})${items.reach}`,
    parent,
    alias,
  );
}
