// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue } from "../data/column-codec.js";
import type { Logger } from "../base/logger.js";
import { Binder, type Sql } from "../db/sql.js";
import { deliveriesTable, eventsTable } from "../db/service-tables.js";

/*
 * How long the outbox keeps events: a resource with `audit: { retainDays: N }` keeps its events N
 * days, one with `audit: true` for ever, every other resource (and the users) EVENTS_RETAIN_DAYS
 * (default 30). Older ones are deleted by the running service in small batches, each its own short
 * statement, so a write never waits long behind them; their deliveries go with them.
 */

/** The events named `<event>.…` are deleted once older than `days`. */
export interface RetentionRule {
  readonly event: string;
  readonly days: number;
}

// Rows per DELETE: a short write lock each (SQLite holds one for the whole database).
const batch = 500;
const dayMs = 86_400_000;

/** Deletes the events the rules say are too old, `batch` at a time; how many went. */
export async function pruneEvents(
  sql: Sql,
  rules: readonly RetentionRule[],
  now = new Date(),
): Promise<number> {
  let deleted = 0;
  for (const rule of rules) {
    const prefix = `${rule.event}.`;
    const before = encodeValue(
      "datetime",
      new Date(now.getTime() - rule.days * dayMs),
      sql.dialect,
    );
    for (;;) {
      const values = new Binder(sql.dialect);
      // A prefix compared as text, not LIKE: `_` in a resource's name is no wildcard.
      const old = `SELECT "id" FROM ${eventsTable} WHERE "created_at" < ${values.add(before)} AND substr("type", 1, ${values.add(prefix.length)}) = ${values.add(prefix)} LIMIT ${values.add(batch)}`;
      const count = await sql.run(`DELETE FROM ${eventsTable} WHERE "id" IN (${old})`, values.list);
      deleted += count;
      if (count < batch) break;
    }
  }
  await pruneDeliveries(sql);
  return deleted;
}

/** The deliveries of events that are gone (no foreign key ties them: an event may be pruned first). */
async function pruneDeliveries(sql: Sql): Promise<void> {
  for (;;) {
    const values = new Binder(sql.dialect);
    const orphans = `SELECT "d"."id" FROM ${deliveriesTable} AS "d" LEFT JOIN ${eventsTable} AS "e" ON "e"."id" = "d"."event_id" WHERE "e"."id" IS NULL LIMIT ${values.add(batch)}`;
    const count = await sql.run(
      `DELETE FROM ${deliveriesTable} WHERE "id" IN (${orphans})`,
      values.list,
    );
    if (count < batch) return;
  }
}

// Hourly, the first run a minute or so after start-up (spread, so workers do not all run at once).
const everyMs = 3_600_000;

/** Runs pruneEvents hourly in this process until stopped; a failure is logged, never thrown. */
export function keepEventsPruned(
  sql: Sql,
  rules: readonly RetentionRule[],
  logger: Logger,
): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    pruneEvents(sql, rules).then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted }, "old events deleted (retention)");
      },
      (error: unknown) =>
        logger.warn({ err: error }, "deleting old events failed; retried in an hour"),
    );
    timer = setTimeout(run, everyMs);
    timer.unref();
  };
  timer = setTimeout(run, 60_000 + Math.floor(Math.random() * 60_000));
  timer.unref();
  return {
    stop() {
      clearTimeout(timer);
    },
  };
}
