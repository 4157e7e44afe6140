// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { requiredInstant } from "../data/column-codec.js";
import { Binder, type Sql } from "../db/sql.js";
import { recordedChanges, storedActor } from "../data/outbox.js";
import { eventsTable } from "../db/service-tables.js";

/*
 * A record's audit trail, read from the outbox (outbox.ts): its events newest first, by the index
 * on (record_hash, id). Hashes are unique across resources (each has its own prefix).
 */

/** One event as the history route outputs it, before the reader's hidden fields are left out. */
export interface HistoryEntry {
  readonly id: number;
  readonly event: string;
  readonly at: Date;
  readonly actor: { readonly hash: string; readonly name: string | null } | null;
  readonly changes: Record<string, unknown>;
}

/** Where a page of history starts: an offset (page numbers), or after/before an entry (cursors). */
export type HistoryWindow =
  { readonly offset: number } | { readonly olderThan: number } | { readonly newerThan: number };

/** Up to `limit` events of `hash`, newest first, from `window`. */
export async function historyPage(
  sql: Sql,
  hash: string,
  window: HistoryWindow,
  limit: number,
): Promise<HistoryEntry[]> {
  const values = new Binder(sql.dialect);
  const conditions = [`"record_hash" = ${values.add(hash)}`];
  if ("olderThan" in window) conditions.push(`"id" < ${values.add(window.olderThan)}`);
  if ("newerThan" in window) conditions.push(`"id" > ${values.add(window.newerThan)}`);
  // Entries newer than a position are read oldest first (the nearest ones), then turned around.
  const newer = "newerThan" in window;
  const page = `LIMIT ${values.add(limit)}${"offset" in window ? ` OFFSET ${values.add(window.offset)}` : ""}`;
  const rows = await sql.all(
    `SELECT "id", "type", "actor_hash", "actor_name", "changes", "created_at" FROM ${eventsTable} WHERE ${conditions.join(" AND ")} ORDER BY "id" ${newer ? "ASC" : "DESC"} ${page}`,
    values.list,
  );
  const entries = rows.map((row): HistoryEntry => ({
    id: Number(row.id),
    event: String(row.type),
    at: requiredInstant(row.created_at, sql.dialect),
    actor: storedActor(row),
    changes: recordedChanges(row.changes),
  }));
  return newer ? entries.reverse() : entries;
}

/** How many events `hash` has. */
export async function historyCount(sql: Sql, hash: string): Promise<number> {
  const values = new Binder(sql.dialect);
  const row = await sql.get(
    `SELECT COUNT(*) AS "count" FROM ${eventsTable} WHERE "record_hash" = ${values.add(hash)}`,
    values.list,
  );
  return Number(row?.count ?? 0);
}
