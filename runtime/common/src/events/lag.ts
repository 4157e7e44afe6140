// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue } from "../data/column-codec.js";
import { Binder, type Sql } from "../db/sql.js";
import { deliveriesTable, eventsTable } from "../db/service-tables.js";

/** How far the outbox is behind, in seconds (0 when nothing waits), for /metrics. */
export interface OutboxLag {
  /** The age of the oldest event no worker has fanned out yet. */
  readonly fanOutSeconds: number;
  /** How long the most overdue pending delivery has been due. */
  readonly deliverySeconds: number;
}

/**
 * Two index lookups (fanned_out, id and status, next_attempt_at): a scrape costs the same whether
 * the backlog holds ten deliveries or ten million. Only the receivers this service has count: the
 * deliveries of a webhook since removed from hashapi.yaml wait, listed, until the retention deletes
 * them, and are no lag of this service's.
 */
export async function outboxLag(
  sql: Sql,
  receivers: readonly string[],
  now = new Date(),
): Promise<OutboxLag> {
  const events = new Binder(sql.dialect);
  const oldestEvent = await sql.get(
    `SELECT "created_at" AS "at" FROM ${eventsTable} WHERE "fanned_out" = ${events.add(false)} ORDER BY "id" LIMIT 1`,
    events.list,
  );
  const deliveries = new Binder(sql.dialect);
  const mostOverdue =
    receivers.length === 0
      ? undefined
      : await sql.get(
          `SELECT "next_attempt_at" AS "at" FROM ${deliveriesTable} WHERE "status" = ${deliveries.add("pending")} AND "receiver" IN (${deliveries.addAll(receivers)}) ORDER BY "next_attempt_at" LIMIT 1`,
          deliveries.list,
        );
  return {
    fanOutSeconds: secondsSince(oldestEvent?.at, sql, now),
    deliverySeconds: secondsSince(mostOverdue?.at, sql, now),
  };
}

function secondsSince(stored: unknown, sql: Sql, now: Date): number {
  if (stored === undefined || stored === null) return 0;
  const at = decodeValue("datetime", stored, sql.dialect);
  if (!(at instanceof Date)) return 0;
  return Math.max(0, (now.getTime() - at.getTime()) / 1000);
}
