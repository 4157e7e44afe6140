// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decoderOf, type ColumnKind } from "../column-codec.js";
import { objectBuilder } from "../../base/object-builder.js";
import { maxNestedPerParent } from "../list-operators.js";
import { Binder, type SqlDialect, type SqlValues } from "../../db/sql.js";
import { tableContext, type NestedStatements, type TableContext } from "./context.js";
import { reachConditions } from "./reach.js";
import { nestedShape, type Decoder, type Shape } from "./shape.js";
import { fromClause, rootAlias, type Reach, type TableSpec } from "./spec.js";

export type { NestedStatements } from "./context.js";

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
  readonly shape: Shape;
  /** The shape's decoder the read asked for (Shape.decode, or decodeForOutput). */
  readonly decode: Decoder;
  readonly items: NestedItems;
  readonly values: unknown[];
  /** How many parents the page has. */
  readonly parents: number;
  /** Adds an item to its parent's list, up to maxNestedPerParent (items come in list order). */
  add(parentId: number, item: Record<string, unknown>): void;
  /** The page's statements: built by `build` once per relation, count of parents and reach. */
  statements(build: () => NestedStatements): NestedStatements;
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
  forOutput: boolean,
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
  const reach = reachConditions(targetContext(context, target), scope, values)
    .map((condition) => ` AND ${condition}`)
    .join("");
  // The statements differ only by the count of parents and the reach's conditions.
  const key = `${name} ${byParent.size}${reach}`;
  const statements = (build: () => NestedStatements): NestedStatements => {
    const cache = context.cache.nestedStatements;
    let found = cache.get(key);
    if (found === undefined) {
      found = build();
      if (cache.size < maxCachedStatements) cache.set(key, found);
    }
    return found;
  };
  const items = {
    columns: shape.columns,
    joins: shape.joins,
    from: fromClause(target),
    alias: rootAlias(target),
    parents,
    reach,
  };
  const add = (parentId: number, item: Record<string, unknown>) => {
    const list = byParent.get(parentId);
    if (list !== undefined && list.length < maxNestedPerParent) list.push(item);
  };
  const decode = forOutput ? shape.decodeForOutput : shape.decode;
  return { shape, decode, items, values: values.list, parents: byParent.size, add, statements };
}

// Nested statements are few per table (a relation, a page size, a scope's shape); past this many
// a statement is built each time, not kept.
const maxCachedStatements = 64;

/** The related table on the same database handle, made once per table and handle. */
function targetContext(context: TableContext, target: TableSpec): TableContext {
  const targets = context.cache.targets;
  let found = targets.get(target);
  if (found === undefined || found.sql !== context.sql) {
    found = tableContext(context.sql, target);
    targets.set(target, found);
  }
  return found;
}

/**
 * The two statements that read a page's nested records, at most maxNestedPerParent per parent
 * (`parent` names the column, qualified, that tells whose each is):
 * - `plain`: every item of the page's parents, up to one more than `parents × the bound` rows, in no
 *   order. When it returns no more than that, it read them all: loadNested puts them in list order
 *   and `NestedPage.add` keeps the first ones of each parent. The common case, and the cheap one:
 *   on SQLite an ORDER BY with a LIMIT sorts through a slower structure than either alone (45
 *   records: ≈ 105 µs against ≈ 68 µs without the ORDER BY, bench/README.md "Issue 32").
 * - `ranked`: a window numbers each parent's items and the outer query keeps the first ones, in
 *   list order; run only when the plain one hit its limit (a parent with many items), so a page never
 *   reads more than the bound allows. Its columns are the inner SELECT list's (and the rank after
 *   them), so rows decode alike.
 */
export function firstPerParent(
  select: string,
  from: string,
  parent: string,
  alias: string,
  parents: number,
): NestedStatements {
  const cap = parents * maxNestedPerParent;
  return {
    plain: `SELECT ${select} FROM ${from} LIMIT ${cap + 1}`,
    ranked: () => {
      const order = `${alias}."created_at" ASC, ${alias}."id" ASC`;
      const ranked = `SELECT ${select}, ROW_NUMBER() OVER (PARTITION BY ${parent} ORDER BY ${order}) AS "nested.rank" FROM ${from}`;
      return `SELECT * FROM (${ranked}) AS "nested" WHERE "nested.rank" <= ${maxNestedPerParent} ORDER BY "nested"."created_at" ASC, "nested"."id" ASC`;
    },
    cap,
  };
}

/** A nested record read from its row, and the id of the parent whose list it joins. */
export interface NestedItem {
  readonly parent: number;
  readonly record: Record<string, unknown>;
  /** Its creation instant as the page's sort compares it (see creationKey), its first key in list order. */
  readonly createdAt: number | string;
}

/** A nested item of `parent`, with its creation instant read once for the page's sort. */
export function nestedItem(parent: number, record: Record<string, unknown>): NestedItem {
  return { parent, record, createdAt: creationKey(record.created_at) };
}

/**
 * Reads a page's nested records (the plain statement's, or the ranked one's when a parent has too
 * many) and adds each to its parent's list, in list order: creation instant, then id.
 */
export async function loadNested(
  context: TableContext,
  page: NestedPage,
  statements: NestedStatements,
  read: (row: SqlValues) => NestedItem,
): Promise<void> {
  const rows = await context.sql.rows(statements.plain, page.values);
  const items =
    rows.length <= statements.cap
      ? rows.map(read).sort(inListOrder)
      : (await context.sql.rows(statements.ranked(), page.values)).map(read);
  for (const { parent, record } of items) page.add(parent, record);
}

/** The nested lists' order, as the ranked statement's ORDER BY gives it. */
function inListOrder(a: NestedItem, b: NestedItem): number {
  if (a.createdAt < b.createdAt) return -1;
  if (a.createdAt > b.createdAt) return 1;
  return Number(a.record.id) - Number(b.record.id);
}

/**
 * A creation instant as the sort compares it: a Date's epoch ms, or, in a read for output on SQLite,
 * the stored text itself. SQLite orders that column by its text (the ranked statement, every list's
 * ORDER BY), and the text Prisma writes (fixed width, "+00:00") orders as its instants do
 * (dates.test.ts): reading each text's instant cost a page's 45 items ≈ 8 µs of a request.
 */
function creationKey(value: unknown): number | string {
  if (value instanceof Date) return value.getTime();
  return typeof value === "string" ? value : 0;
}

/** Pivot decoders already built, by the pivot's kinds (a relation's spec), database and place. */
const pivotDecoders = new WeakMap<object, Map<string, PivotDecoder>>();

type PivotDecoder = (row: SqlValues) => Record<string, unknown>;

/**
 * How a link's pivot values are decoded from a row that holds them from place `first` on, in the
 * order of `kinds` (a missing value is NULL). Built once per relation, database, place and kind of
 * read: building one compiles an object literal (object-builder.ts), which a page must not pay.
 */
export function pivotDecoder(
  kinds: Readonly<Record<string, ColumnKind>>,
  first: number,
  dialect: SqlDialect,
  forOutput = false,
): PivotDecoder {
  let built = pivotDecoders.get(kinds);
  if (built === undefined) pivotDecoders.set(kinds, (built = new Map()));
  const key = `${dialect.name} ${first} ${forOutput}`;
  let decoder = built.get(key);
  if (decoder === undefined) {
    const build = objectBuilder<SqlValues, void, void>(
      Object.entries(kinds).map(([column, kind], index) => {
        const decode = decoderOf(kind, dialect, forOutput);
        return { key: column, write: (row) => decode(row[first + index]) };
      }),
    );
    decoder = (row) => build(row, undefined, undefined);
    built.set(key, decoder);
  }
  return decoder;
}
