// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue } from "../data/column-codec.js";
import { newHash } from "../base/hash-id.js";
import { Binder, type Sql } from "../db/sql.js";
import { deliveriesTable, eventsTable, lanesTable } from "../db/service-tables.js";

/*
 * Fan-out: each committed event becomes one delivery per receiver it is for, and each receiver's
 * deliveries of a record wait in that record's lane (lanes.ts), which one worker at a time works
 * in event order. One fan-out runs at a time across every process and instance (a plain row lock
 * on PostgreSQL, the one writer on SQLite), in event order: two fan-outs side by side could make a
 * record's later event deliverable before its earlier one exists as a delivery.
 */

/** An event as fan-out reads it: what a receiver decides whether it is for it by. */
export interface FannedEvent {
  readonly type: string;
  readonly hash: string;
  /** Who wrote it: null for a request, else the command (`seed`, `script`): see outbox.ts. */
  readonly origin: string | null;
}

/** A receiver as fan-out sees it: its name, and whether an event is for it. */
export interface FanOutReceiver {
  readonly name: string;
  accepts(event: FannedEvent): boolean;
}

/** The most events one fan-out takes. */
export const fanOutBatch = 500;

/**
 * Makes the deliveries of up to `limit` events not fanned out yet, oldest first, opens the lanes
 * they wait in, and marks the events. Events no receiver wants are only marked (a receiver added
 * later hears what is written from then on); those whose type no receiver hears at all are
 * written marked already (data/event-hearing.ts). Returns how many events it took and which
 * receivers got deliveries.
 */
export async function fanOut(
  sql: Sql,
  receivers: readonly FanOutReceiver[],
  limit = fanOutBatch,
): Promise<{ events: number; receivers: ReadonlySet<string> }> {
  const none = { events: 0, receivers: new Set<string>() };
  // Looked for first without a transaction: an idle service takes no write lock for nothing.
  const probe = new Binder(sql.dialect);
  const any = await sql.get(
    `SELECT 1 AS "found" FROM ${eventsTable} WHERE "fanned_out" = ${probe.add(false)} LIMIT 1`,
    probe.list,
  );
  if (any === undefined) return none;
  return sql.transaction(async (tx) => {
    const values = new Binder(tx.dialect);
    const events = await tx.all(
      `SELECT "id", "type", "record_hash", "origin" FROM ${eventsTable} WHERE "fanned_out" = ${values.add(false)} ORDER BY "id" LIMIT ${values.add(limit)}${tx.dialect.lockClause("update")}`,
      values.list,
    );
    if (events.length === 0) return none;
    const now = encodeValue("datetime", new Date(), tx.dialect);
    const deliveries: { event: number; receiver: string; hash: string }[] = [];
    for (const row of events) {
      const event = {
        type: String(row.type),
        hash: String(row.record_hash),
        origin: row.origin == null ? null : String(row.origin),
      };
      for (const receiver of receivers)
        if (receiver.accepts(event))
          deliveries.push({ event: Number(row.id), receiver: receiver.name, hash: event.hash });
    }
    // Bounded statements: SQLite takes at most 32,766 values in one.
    for (let start = 0; start < deliveries.length; start += 1_000)
      await insertDeliveries(tx, deliveries.slice(start, start + 1_000), now);
    await openLanes(tx, deliveries, now);
    const marked = new Binder(tx.dialect);
    const flag = marked.add(true);
    await tx.run(
      `UPDATE ${eventsTable} SET "fanned_out" = ${flag} WHERE "id" IN (${marked.addAll(events.map((event) => Number(event.id)))})`,
      marked.list,
    );
    return {
      events: events.length,
      receivers: new Set(deliveries.map(({ receiver }) => receiver)),
    };
  });
}

async function insertDeliveries(
  tx: Sql,
  deliveries: readonly { event: number; receiver: string; hash: string }[],
  now: unknown,
): Promise<void> {
  if (deliveries.length === 0) return;
  const values = new Binder(tx.dialect);
  const rows = deliveries.map(
    ({ event, receiver, hash }) =>
      `(${values.add(newHash("DLV"))}, ${values.add(event)}, ${values.add(receiver)}, ${values.add(hash)}, ${values.add("pending")}, ${values.add(now)}, ${values.add(now)}, ${values.add(now)})`,
  );
  await tx.run(
    `INSERT INTO ${deliveriesTable} ("hash", "event_id", "receiver", "record_hash", "status", "next_attempt_at", "created_at", "updated_at") VALUES ${rows.join(", ")} ON CONFLICT ("event_id", "receiver") DO NOTHING`,
    values.list,
  );
}

/**
 * The lane of each receiver and record that got a delivery, due now when it is new. An existing
 * lane keeps its time (a retry's, or a worker's lease) and gets a new version: a worker closing it
 * at the same moment waits for this transaction (on PostgreSQL, for this row's lock) and then finds
 * the version moved on, and goes on with the new deliveries (lanes.ts closeLane).
 */
async function openLanes(
  tx: Sql,
  deliveries: readonly { receiver: string; hash: string }[],
  now: unknown,
): Promise<void> {
  const lanes = new Map<string, { receiver: string; hash: string }>();
  for (const delivery of deliveries)
    lanes.set(`${delivery.receiver}\u0000${delivery.hash}`, delivery);
  const all = [...lanes.values()];
  for (let start = 0; start < all.length; start += 2_000) {
    const values = new Binder(tx.dialect);
    const rows = all
      .slice(start, start + 2_000)
      .map(
        ({ receiver, hash }) =>
          `(${values.add(receiver)}, ${values.add(hash)}, ${values.add(now)})`,
      );
    await tx.run(
      `INSERT INTO ${lanesTable} ("receiver", "record_hash", "next_attempt_at") VALUES ${rows.join(", ")} ON CONFLICT ("receiver", "record_hash") DO UPDATE SET "version" = ${lanesTable}."version" + 1`,
      values.list,
    );
  }
}
