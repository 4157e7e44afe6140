// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue, requiredInstant } from "../column-codec.js";
import { newHash } from "../hash-id.js";
import { Binder, quote, type Sql, type SqlRow } from "../sql.js";
import { eventsTable, recordedChanges, storedActor } from "./outbox.js";
import type { Receiver } from "./receivers.js";

/*
 * Deliveries: one row per event and receiver (hashapi_deliveries), made after the write's commit by
 * whichever worker fans the event out first, then claimed by one worker at a time under a lease,
 * attempted, and settled: delivered, retried later, or failed once its receiver's retry time is
 * spent. An event of a record waits for the earlier ones of that record (per receiver), so each
 * receiver hears a record's events in order. A worker that dies mid-attempt leaves a lease that
 * runs out: the delivery is attempted again (at least once; a receiver may see it twice).
 */

export const deliveriesTable = quote("hashapi_deliveries");

const at = (sql: Sql, date: Date) => encodeValue("datetime", date, sql.dialect);

/**
 * Makes the deliveries of up to `limit` events not fanned out yet, oldest first, and marks them:
 * one delivery per receiver an event is for. Events no receiver wants are only marked (a receiver
 * added later hears what is written from then on). Returns how many events it took.
 */
export async function fanOut(
  sql: Sql,
  receivers: readonly Receiver[],
  limit = 200,
): Promise<number> {
  // Looked for first without a transaction: an idle service takes no write lock for nothing.
  const probe = new Binder(sql.dialect);
  const any = await sql.get(
    `SELECT 1 AS "found" FROM ${eventsTable} WHERE "fanned_out" = ${probe.add(false)} LIMIT 1`,
    probe.list,
  );
  if (any === undefined) return 0;
  return sql.transaction(async (tx) => {
    const values = new Binder(tx.dialect);
    const events = await tx.all(
      `SELECT "id", "type", "record_hash" FROM ${eventsTable} WHERE "fanned_out" = ${values.add(false)} ORDER BY "id" LIMIT ${values.add(limit)}${tx.dialect.lockClause("claim")}`,
      values.list,
    );
    if (events.length === 0) return 0;
    const now = at(tx, new Date());
    for (const event of events)
      for (const receiver of receivers) {
        if (!receiver.matches(String(event.type))) continue;
        const row = new Binder(tx.dialect);
        const cells = [
          row.add(newHash("DLV")),
          row.add(Number(event.id)),
          row.add(receiver.name),
          row.add(event.record_hash),
          row.add("pending"),
          row.add(now),
          row.add(now),
          row.add(now),
        ];
        await tx.run(
          `INSERT INTO ${deliveriesTable} ("hash", "event_id", "receiver", "record_hash", "status", "next_attempt_at", "created_at", "updated_at") VALUES (${cells.join(", ")}) ON CONFLICT ("event_id", "receiver") DO NOTHING`,
          row.list,
        );
      }
    const marked = new Binder(tx.dialect);
    const flag = marked.add(true);
    await tx.run(
      `UPDATE ${eventsTable} SET "fanned_out" = ${flag} WHERE "id" IN (${marked.addAll(events.map((event) => Number(event.id)))})`,
      marked.list,
    );
    return events.length;
  });
}

/** A delivery a worker holds under its lease, with its event. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly hash: string;
  readonly receiver: string;
  /** Attempts so far, this one included: what the worker settles it by (see settleDelivery). */
  readonly attempts: number;
  readonly event: {
    readonly id: number;
    readonly type: string;
    readonly hash: string;
    readonly actor: { readonly hash: string; readonly name: string | null } | null;
    readonly changes: Record<string, unknown>;
    readonly at: unknown;
  };
}

/**
 * Takes up to `limit` deliveries due now that no worker holds, each the oldest pending one of its
 * record for its receiver (none of whose earlier events is still to be fanned out), under a lease
 * of `leaseMs`: other workers skip them until it runs out. Handlers' deliveries (receivers named
 * `on …`) and webhooks' are taken apart (`kind`), each kind's lease covering its longest attempt.
 */
export async function claimDeliveries(
  sql: Sql,
  kind: "handlers" | "webhooks",
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const now = new Date();
  const probe = new Binder(sql.dialect);
  const due = await sql.get(
    `SELECT 1 AS "found" FROM ${deliveriesTable} WHERE "status" = ${probe.add("pending")} AND "next_attempt_at" <= ${probe.add(at(sql, now))} LIMIT 1`,
    probe.list,
  );
  if (due === undefined) return [];
  return sql.transaction(async (tx) => {
    const values = new Binder(tx.dialect);
    const lease = values.add(at(tx, new Date(now.getTime() + leaseMs)));
    const updated = values.add(at(tx, now));
    const pending = values.add("pending");
    const dueBy = values.add(at(tx, now));
    const free = values.add(at(tx, now));
    const earlierPending = values.add("pending");
    const unfanned = values.add(false);
    const handlerPrefix = values.add("on ");
    const count = values.add(limit);
    const rows = await tx.all(
      `UPDATE ${deliveriesTable} SET "locked_until" = ${lease}, "attempts" = "attempts" + 1, "updated_at" = ${updated} WHERE "id" IN (` +
        `SELECT "d"."id" FROM ${deliveriesTable} AS "d" WHERE "d"."status" = ${pending} AND "d"."next_attempt_at" <= ${dueBy} AND ("d"."locked_until" IS NULL OR "d"."locked_until" < ${free})` +
        ` AND NOT EXISTS (SELECT 1 FROM ${deliveriesTable} AS "o" WHERE "o"."receiver" = "d"."receiver" AND "o"."record_hash" = "d"."record_hash" AND "o"."event_id" < "d"."event_id" AND "o"."status" = ${earlierPending})` +
        ` AND NOT EXISTS (SELECT 1 FROM ${eventsTable} AS "e" WHERE "e"."record_hash" = "d"."record_hash" AND "e"."id" < "d"."event_id" AND "e"."fanned_out" = ${unfanned})` +
        ` AND substr("d"."receiver", 1, 3) ${kind === "handlers" ? "=" : "<>"} ${handlerPrefix}` +
        ` ORDER BY "d"."event_id" LIMIT ${count}${tx.dialect.lockClause("claim")}) RETURNING "id", "hash", "receiver", "attempts", "event_id"`,
      values.list,
    );
    if (rows.length === 0) return [];
    const ids = new Binder(tx.dialect);
    const events = await tx.all(
      `SELECT "id", "type", "record_hash", "actor_hash", "actor_name", "changes", "created_at" FROM ${eventsTable} WHERE "id" IN (${ids.addAll(rows.map((row) => Number(row.event_id)))})`,
      ids.list,
    );
    const byId = new Map(events.map((event) => [Number(event.id), event]));
    // An event pruned since its delivery was made (retention): nothing left to send; the
    // retention deletes that delivery too.
    return rows
      .filter((row) => byId.has(Number(row.event_id)))
      .map((row) => claimed(row, byId.get(Number(row.event_id))!))
      .sort((a, b) => a.event.id - b.event.id);
  });
}

function claimed(row: SqlRow, event: SqlRow): ClaimedDelivery {
  return {
    id: Number(row.id),
    hash: String(row.hash),
    receiver: String(row.receiver),
    attempts: Number(row.attempts),
    event: {
      id: Number(event.id),
      type: String(event.type),
      hash: String(event.record_hash),
      actor: storedActor(event),
      changes: recordedChanges(event.changes),
      at: event.created_at,
    },
  };
}

/** How an attempt ended: the receiver's status (none when it never answered) and what went wrong. */
export interface AttemptOutcome {
  readonly delivered: boolean;
  readonly status: number | null;
  readonly error: string | null;
  /** When to try again; null: no more attempts (the delivery failed). */
  readonly retryAt: Date | null;
}

/**
 * Records an attempt's outcome, if the delivery is still the worker's own (one whose lease ran out
 * and that another worker claimed is that worker's to settle): false when it was not.
 */
export async function settleDelivery(
  sql: Sql,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
): Promise<boolean> {
  const values = new Binder(sql.dialect);
  const now = new Date();
  const status = outcome.delivered ? "delivered" : outcome.retryAt === null ? "failed" : "pending";
  const assignments = [
    `"status" = ${values.add(status)}`,
    `"locked_until" = NULL`,
    `"last_status" = ${values.add(outcome.status)}`,
    `"last_error" = ${values.add(outcome.error?.slice(0, 500) ?? null)}`,
    `"next_attempt_at" = ${values.add(at(sql, outcome.retryAt ?? now))}`,
    `"delivered_at" = ${values.add(outcome.delivered ? at(sql, now) : null)}`,
    `"updated_at" = ${values.add(at(sql, now))}`,
  ];
  // Each claim counts an attempt: the same count means no other worker claimed it since.
  const mine = `"id" = ${values.add(delivery.id)} AND "attempts" = ${values.add(delivery.attempts)}`;
  return (
    (await sql.run(
      `UPDATE ${deliveriesTable} SET ${assignments.join(", ")} WHERE ${mine}`,
      values.list,
    )) > 0
  );
}

/** A delivery as its routes output it. */
export interface DeliveryRecord {
  readonly id: string;
  readonly webhook: string;
  readonly event: string;
  readonly record: string;
  readonly status: string;
  readonly attempts: number;
  readonly last_status: number | null;
  readonly last_error: string | null;
  readonly next_attempt_at: string | null;
  readonly delivered_at: string | null;
  readonly created_at: string;
}

const listed = `SELECT "d"."hash", "d"."receiver", "e"."type", "d"."record_hash", "d"."status", "d"."attempts", "d"."last_status", "d"."last_error", "d"."next_attempt_at", "d"."delivered_at", "d"."created_at" FROM ${deliveriesTable} AS "d" JOIN ${eventsTable} AS "e" ON "e"."id" = "d"."event_id"`;

function record(sql: Sql, row: SqlRow): DeliveryRecord {
  const time = (value: unknown) =>
    value === null ? null : requiredInstant(value, sql.dialect).toISOString();
  return {
    id: String(row.hash),
    webhook: String(row.receiver),
    event: String(row.type),
    record: String(row.record_hash),
    status: String(row.status),
    attempts: Number(row.attempts),
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_error: row.last_error === null ? null : String(row.last_error),
    next_attempt_at: row.status === "pending" ? time(row.next_attempt_at) : null,
    delivered_at: time(row.delivered_at),
    created_at: time(row.created_at)!,
  };
}

/** A page of deliveries, newest first, with the given status and webhook when asked, and their total. */
export async function deliveryPage(
  sql: Sql,
  filter: { status?: string; webhook?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: DeliveryRecord[]; total: number }> {
  const where = (values: Binder) => {
    const conditions = [
      ...(filter.status ? [`"d"."status" = ${values.add(filter.status)}`] : []),
      ...(filter.webhook ? [`"d"."receiver" = ${values.add(filter.webhook)}`] : []),
    ];
    return conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
  };
  const values = new Binder(sql.dialect);
  const text = `${listed}${where(values)} ORDER BY "d"."id" DESC LIMIT ${values.add(page.limit)} OFFSET ${values.add(page.offset)}`;
  const counted = new Binder(sql.dialect);
  const [rows, count] = await Promise.all([
    sql.all(text, values.list),
    sql.get(
      `SELECT COUNT(*) AS "count" FROM ${deliveriesTable} AS "d"${where(counted)}`,
      counted.list,
    ),
  ]);
  return { rows: rows.map((row) => record(sql, row)), total: Number(count?.count ?? 0) };
}

/** Makes a delivery due now again (its attempts kept); the delivery, or null when there is none. */
export async function retryDelivery(sql: Sql, hash: string): Promise<DeliveryRecord | null> {
  const values = new Binder(sql.dialect);
  const now = at(sql, new Date());
  await sql.run(
    `UPDATE ${deliveriesTable} SET "status" = ${values.add("pending")}, "next_attempt_at" = ${values.add(now)}, "locked_until" = NULL, "updated_at" = ${values.add(now)} WHERE "hash" = ${values.add(hash)}`,
    values.list,
  );
  const found = new Binder(sql.dialect);
  const row = await sql.get(`${listed} WHERE "d"."hash" = ${found.add(hash)}`, found.list);
  return row ? record(sql, row) : null;
}
