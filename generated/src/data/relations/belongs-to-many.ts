// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue } from "../column-codec.js";
import { toDate } from "../serialize.js";
import { Binder, quote, type Sql, type SqlValues } from "../../db/sql.js";
import {
  firstPerParent,
  nestedItem,
  nestedPage,
  loadNested,
  pivotDecoder,
  type NestedItems,
  type NestedStatements,
} from "../table/nested-items.js";
import type { ManyToManySpec } from "../table/spec.js";
import { recordDetached, recordLinked, type LinkOwner } from "../link-events.js";
import { boundHashes, type RelationKind } from "./kind.js";

/*
 * A belongsToMany relation: the rows of a pivot table link a row of one table (`ownKey`) to a row
 * of another (`otherKey`), with the pivot's own columns. Reads load a page's linked records in one
 * statement through the pivot; writes (sync, attach, detach) run here, always inside the caller's
 * transaction.
 */

export type { ManyToManySpec };

/** One link a write asks for: the related row, and the pivot values the payload gave (if any). */
export interface Link {
  readonly id: number;
  readonly pivot?: Readonly<Record<string, unknown>>;
}

/** A payload's pivot values as the pivot's columns take them (dates as Dates); other keys dropped. */
export function pivotColumns(
  relation: ManyToManySpec,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const kinds = relation.pivotColumns ?? {};
  return Object.fromEntries(
    Object.entries(values)
      .filter(([column]) => Object.hasOwn(kinds, column))
      .map(([column, value]) => [
        column,
        kinds[column] === "date" || kinds[column] === "datetime" ? toDate(value) : value,
      ]),
  );
}

/** `alias.id IN (rows linked to any of the related hashes bound at `hashes`)`, for `?filter[relation]=`. */
export function linkedToAny(
  relation: ManyToManySpec,
  idColumn: string,
  hashes: readonly string[],
): string {
  const target = relation.target();
  return `${idColumn} IN (SELECT "link".${quote(relation.ownKey)} FROM ${quote(relation.pivot)} AS "link" JOIN ${quote(target.name)} AS "linked" ON "linked"."id" = "link".${quote(relation.otherKey)} WHERE "linked"."hash" IN (${hashes.join(", ")}))`;
}

/**
 * The one statement that loads the linked records of every row of a page (`items.parents`), each
 * with its owner's id as "link.owner" and the pivot's columns as "link.<column>", after the items'
 * own columns and in that order.
 */
export function linkedItems(
  relation: ManyToManySpec,
  items: NestedItems,
  parents: number,
): NestedStatements {
  const alias = quote(items.alias);
  const pivotColumns = Object.keys(relation.pivotColumns ?? {})
    .map((column) => `, "link".${quote(column)} AS ${quote(`link.${column}`)}`)
    .join("");
  const owner = `"link".${quote(relation.ownKey)}`;
  return firstPerParent(
    `${items.columns}, ${owner} AS "link.owner"${pivotColumns}`,
    `${quote(relation.pivot)} AS "link" JOIN ${items.from} ON ${alias}."id" = "link".${quote(relation.otherKey)}${items.joins} WHERE ${owner} IN (${items.parents})${items.reach}`,
    owner,
    alias,
    parents,
  );
}

/** `alias.id IN (the related ids of one row)`, for the relation's own list route. */
export function linkedFrom(relation: ManyToManySpec, idColumn: string, ownId: string): string {
  return `${idColumn} IN (SELECT ${quote(relation.otherKey)} FROM ${quote(relation.pivot)} WHERE ${quote(relation.ownKey)} = ${ownId})`;
}

/**
 * The pivot values of `ownId`'s links to `otherIds`, by related id: each row the related id, then
 * the pivot's columns in declaration order (decoded by the caller).
 */
export async function pivotRows(
  sql: Sql,
  relation: ManyToManySpec,
  ownId: number,
  otherIds: readonly number[],
): Promise<Map<number, SqlValues>> {
  const columns = Object.keys(relation.pivotColumns ?? {});
  const found = new Map<number, SqlValues>();
  if (columns.length === 0 || otherIds.length === 0) return found;
  const values = new Binder(sql.dialect);
  const rows = await sql.rows(
    `SELECT ${quote(relation.otherKey)} AS "other", ${columns.map(quote).join(", ")} FROM ${quote(relation.pivot)} WHERE ${quote(relation.ownKey)} = ${values.add(ownId)} AND ${quote(relation.otherKey)} IN (${values.addAll(otherIds)})`,
    values.list,
  );
  for (const row of rows) found.set(Number(row[0]), row);
  return found;
}

/**
 * Links `owner` to exactly `links` among the related rows the caller reaches (`reach`: the related
 * table as read, and its conditions, binding their values through `values`; live rows at least):
 * links to rows outside it (soft-deleted, or another owner's) are kept, as the caller can neither
 * see nor name them. Pivot values given are written; the others keep their stored value. Each link
 * added or removed is an event (events/link-events.ts).
 */
export async function syncLinks(
  sql: Sql,
  relation: ManyToManySpec,
  name: string,
  owner: LinkOwner,
  links: readonly Link[],
  reach: (values: Binder) => { from: string; conditions: string[] },
): Promise<void> {
  // The links to remove: not kept, and to a related row the caller reaches.
  const removed = (values: Binder) => {
    const kept = links.map((link) => values.add(link.id));
    const reachable = reach(values);
    const where =
      reachable.conditions.length > 0 ? ` WHERE ${reachable.conditions.join(" AND ")}` : "";
    return `${kept.length > 0 ? `${quote(relation.otherKey)} NOT IN (${kept.join(", ")}) AND ` : ""}${quote(relation.otherKey)} IN (SELECT "id" FROM ${reachable.from}${where})`;
  };
  await recordDetached(sql, relation, name, owner, removed);
  const binder = new Binder(sql.dialect);
  const mine = `${quote(relation.ownKey)} = ${binder.add(owner.id)}`;
  await sql.run(
    `DELETE FROM ${quote(relation.pivot)} WHERE ${mine} AND ${removed(binder)}`,
    binder.list,
  );
  await recordLinked(
    sql,
    relation,
    name,
    owner,
    links.map((link) => link.id),
    async () => {
      for (const link of links) await writeLink(sql, relation, owner.id, link);
    },
  );
}

/** Links `owner` to `link.id` (once: linking again only updates the pivot values given), with its event. */
export async function attachLink(
  sql: Sql,
  relation: ManyToManySpec,
  name: string,
  owner: LinkOwner,
  link: Link,
): Promise<void> {
  await recordLinked(sql, relation, name, owner, [link.id], () =>
    writeLink(sql, relation, owner.id, link),
  );
}

/** Writes one pivot row (or its values, when the link exists). */
async function writeLink(
  sql: Sql,
  relation: ManyToManySpec,
  ownId: number,
  link: Link,
): Promise<void> {
  const kinds = relation.pivotColumns ?? {};
  const given = Object.entries(link.pivot ?? {}).filter(
    ([column, value]) => Object.hasOwn(kinds, column) && value !== undefined,
  );
  const columns = [relation.ownKey, relation.otherKey, ...given.map(([column]) => column)];
  const values = new Binder(sql.dialect);
  const row = [
    values.add(ownId),
    values.add(link.id),
    ...given.map(([column, value]) => values.add(encodeValue(kinds[column]!, value, sql.dialect))),
  ];
  const update =
    given.length === 0
      ? "DO NOTHING"
      : `DO UPDATE SET ${given.map(([column]) => `${quote(column)} = excluded.${quote(column)}`).join(", ")}`;
  await sql.run(
    `INSERT INTO ${quote(relation.pivot)} (${columns.map(quote).join(", ")}) VALUES (${row.join(", ")}) ON CONFLICT (${quote(relation.ownKey)}, ${quote(relation.otherKey)}) ${update}`,
    values.list,
  );
}

/** Removes one link, with its event; false when there was none. */
export async function detachLink(
  sql: Sql,
  relation: ManyToManySpec,
  name: string,
  owner: LinkOwner,
  otherId: number,
): Promise<boolean> {
  await recordDetached(
    sql,
    relation,
    name,
    owner,
    (values) => `${quote(relation.otherKey)} = ${values.add(otherId)}`,
  );
  const values = new Binder(sql.dialect);
  const changed = await sql.run(
    `DELETE FROM ${quote(relation.pivot)} WHERE ${quote(relation.ownKey)} = ${values.add(owner.id)} AND ${quote(relation.otherKey)} = ${values.add(otherId)}`,
    values.list,
  );
  return changed > 0;
}

export const belongsToMany: RelationKind<ManyToManySpec> = {
  joined: false,
  /**
   * One statement through the pivot, live related records only (a soft-deleted one stays linked,
   * unseen), each with its `pivot` values.
   */
  async loadPage(context, records, name, relation, scope, forOutput) {
    const page = nestedPage(context, records, name, relation.target(), scope, forOutput);
    if (page === undefined) return;
    const kinds = relation.pivotColumns;
    const owner = page.shape.width;
    const pivot =
      kinds !== undefined && Object.keys(kinds).length > 0
        ? pivotDecoder(kinds, owner + 1, context.sql.dialect, forOutput)
        : undefined;
    const statements = page.statements(() => linkedItems(relation, page.items, page.parents));
    await loadNested(context, page, statements, (row) => {
      const record = page.decode(row);
      if (pivot !== undefined) record.pivot = pivot(row);
      return nestedItem(Number(row[owner]), record);
    });
  },
  /** Rows linked to any of the related hashes, through the pivot. */
  filter(context, relation, op, value, values) {
    const hashes = boundHashes(op, value, values);
    return linkedToAny(relation, `${context.alias}."id"`, hashes);
  },
};
