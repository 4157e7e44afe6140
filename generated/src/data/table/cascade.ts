// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Binder, quote, type Sql } from "../../db/sql.js";
import type { ForeignKeySpec, TableSpec } from "./spec.js";

/*
 * What one delete or restore reaches through onDelete cascade relations, found before anything is
 * written. Rows may point at themselves or at each other in a ring (a ticket whose parent is
 * itself, two that are each other's), so each row is taken once: a cascade ends when a step finds
 * no row it has not taken, and costs one read per table and step, however the rows are linked.
 */

// Ids per statement: well under SQLite's and PostgreSQL's bound-value limits.
export const idsPerStatement = 500;

export function chunks(ids: readonly number[]): number[][] {
  const all: number[][] = [];
  for (let start = 0; start < ids.length; start += idsPerStatement)
    all.push(ids.slice(start, start + idsPerStatement));
  return all;
}

/** `"column" IN (…)` for a chunk of ids, bound through `values`. */
export function inIds(values: Binder, column: string, ids: readonly number[]): string {
  return `${quote(column)} IN (${values.addAll(ids)})`;
}

/** One table's rows a cascade takes. */
export interface CascadeStep {
  readonly spec: TableSpec;
  readonly ids: number[];
}

/** The rows a cascade takes: the rows asked for first, then each step's, every row once. */
export class CascadeRows {
  readonly steps: CascadeStep[] = [];
  private readonly taken = new Map<TableSpec, Set<number>>();

  /** Takes those of `ids` not taken yet, as a step of their own; the ones it took. */
  take(spec: TableSpec, ids: readonly number[]): number[] {
    let taken = this.taken.get(spec);
    if (!taken) this.taken.set(spec, (taken = new Set()));
    const fresh: number[] = [];
    for (const id of ids)
      if (!taken.has(id)) {
        taken.add(id);
        fresh.push(id);
      }
    if (fresh.length > 0) this.steps.push({ spec, ids: fresh });
    return fresh;
  }

  has(spec: TableSpec, id: number): boolean {
    return this.taken.get(spec)?.has(id) ?? false;
  }

  /** How many rows of `spec` it takes. */
  count(spec: TableSpec): number {
    return this.taken.get(spec)?.size ?? 0;
  }
}

/** Which rows a cascade follows, and in what state it finds them. */
export interface CascadeWalk {
  /** Whether the cascade goes on into `relation`'s table. */
  follows(relation: ForeignKeySpec): boolean;
  /** A condition on the followed rows (`"deleted_at" IS NULL`, …), bound through `values`; "" for none. */
  state(values: Binder, target: TableSpec): string;
}

/** A hard delete's cascade: every row the database's own foreign keys delete with it. */
export const everyRow: CascadeWalk = { follows: () => true, state: () => "" };

/**
 * The rows of `spec` with ids `ids` and every row `walk` reaches from them through cascade
 * relations, each locked for the write as it is found (run inside the write's transaction).
 */
export async function cascadeRows(
  sql: Sql,
  spec: TableSpec,
  ids: readonly number[],
  walk: CascadeWalk,
): Promise<CascadeRows> {
  const rows = new CascadeRows();
  let frontier: CascadeStep[] = [{ spec, ids: rows.take(spec, ids) }];
  while (frontier.length > 0) {
    const next: CascadeStep[] = [];
    for (const step of frontier)
      for (const relation of step.spec.cascadeTo) {
        if (!walk.follows(relation)) continue;
        const target = relation.target();
        for (const chunk of chunks(step.ids)) {
          const found = rows.take(target, await cascadeChildren(sql, relation, chunk, walk));
          if (found.length > 0) next.push({ spec: target, ids: found });
        }
      }
    frontier = next;
  }
  return rows;
}

/** The ids of `relation`'s rows that point at `parentIds`, in the walk's state, locked for the write. */
export async function cascadeChildren(
  sql: Sql,
  relation: ForeignKeySpec,
  parentIds: readonly number[],
  walk: CascadeWalk,
): Promise<number[]> {
  const target = relation.target();
  const values = new Binder(sql.dialect);
  // Bound in the order of the text: SQLite's placeholders are positional.
  const parents = inIds(values, relation.foreignKey, parentIds);
  const state = walk.state(values, target);
  const found = await sql.all(
    `SELECT "id" FROM ${quote(target.name)} WHERE ${parents}${state === "" ? "" : ` AND ${state}`}${sql.dialect.lockClause("update")}`,
    values.list,
  );
  return found.map((row) => Number(row.id));
}

/**
 * Whether a live row the cascade does not take points at one it takes through a restrict relation:
 * the delete would be refused. A row pointing at itself, or at another the same delete takes, does
 * not hold it back (as SQL's own foreign keys decide at the statement's end).
 */
export async function isHeldBack(sql: Sql, rows: CascadeRows): Promise<boolean> {
  return (await heldBack(sql, rows)) !== undefined;
}

/** What holds a delete back: a live row of `holder` points at a row of `held` the delete takes. */
export interface HeldBack {
  readonly holder: TableSpec;
  readonly held: TableSpec;
}

/** The first restrict relation that holds the cascade's delete back (see isHeldBack), if any. */
export async function heldBack(sql: Sql, rows: CascadeRows): Promise<HeldBack | undefined> {
  for (const step of rows.steps)
    for (const relation of step.spec.restrictedBy) {
      const target = relation.target();
      const live = target.softDelete ? ` AND "deleted_at" IS NULL` : "";
      for (const chunk of chunks(step.ids)) {
        const values = new Binder(sql.dialect);
        // One more than the rows it takes there: beyond those, a row is one it does not take.
        const limit = rows.count(target) + 1;
        const referencing = await sql.all(
          `SELECT "id" FROM ${quote(target.name)} WHERE ${inIds(values, relation.foreignKey, chunk)}${live} LIMIT ${limit}`,
          values.list,
        );
        if (referencing.some((row) => !rows.has(target, Number(row.id))))
          return { holder: target, held: step.spec };
      }
    }
  return undefined;
}
