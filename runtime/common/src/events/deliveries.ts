// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue, requiredInstant } from "../data/column-codec.js";
import { Binder, type Sql, type SqlRow } from "../db/sql.js";
import { leasedBy, reopenLane, type Lane, type LaneDelivery } from "./lanes.js";
import { deliveriesTable, eventsTable } from "../db/service-tables.js";

/*
 * Deliveries: one row per event and receiver (hashapi_deliveries), made after the write's commit by
 * the fan-out (fan-out.ts), worked in event order per receiver and record by whichever worker
 * holds that lane (lanes.ts), and settled: delivered, retried later, failed once its receiver's
 * retry time is spent, or skipped when the receiver may not read the record (resource/exits.ts).
 */

const at = (sql: Sql, date: Date) => encodeValue("datetime", date, sql.dialect);

/** How an attempt ended: the receiver's status (none when it never answered) and what went wrong. */
export interface AttemptOutcome {
  readonly delivered: boolean;
  /** Not attempted: the receiver may not read the record (`error` says why). */
  readonly skipped?: boolean;
  readonly status: number | null;
  readonly error: string | null;
  /** When to try again; null: no more attempts (the delivery failed). */
  readonly retryAt: Date | null;
}

/** What an attempt came to, as the delivery's row records it. */
function statusOf(outcome: AttemptOutcome): string {
  if (outcome.skipped) return "skipped";
  if (outcome.delivered) return "delivered";
  return outcome.retryAt === null ? "failed" : "pending";
}

/**
 * Records the outcomes of attempts while the worker still holds their lane (a lease that ran out
 * and was taken over is the new holder's to settle): one statement per kind of outcome, so a lane's
 * run of deliveries costs a write per batch, not per delivery. False when the lane was lost.
 */
export async function settleDeliveries(
  sql: Sql,
  lane: Lane,
  settled: readonly { readonly delivery: LaneDelivery; readonly outcome: AttemptOutcome }[],
): Promise<boolean> {
  const groups = new Map<string, { outcome: AttemptOutcome; ids: number[] }>();
  for (const { delivery, outcome } of settled) {
    const key = JSON.stringify([
      statusOf(outcome),
      outcome.status,
      outcome.error,
      outcome.retryAt?.getTime() ?? null,
    ]);
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { outcome, ids: [] }));
    group.ids.push(delivery.id);
  }
  let changed = 0;
  for (const { outcome, ids } of groups.values())
    changed += await settleGroup(sql, lane, ids, outcome);
  return changed === settled.length;
}

async function settleGroup(
  sql: Sql,
  lane: Lane,
  ids: readonly number[],
  outcome: AttemptOutcome,
): Promise<number> {
  const values = new Binder(sql.dialect);
  const now = new Date();
  const assignments = [
    `"status" = ${values.add(statusOf(outcome))}`,
    `"attempts" = "attempts" + ${values.add(outcome.skipped ? 0 : 1)}`,
    `"locked_until" = NULL`,
    `"last_status" = ${values.add(outcome.status)}`,
    `"last_error" = ${values.add(outcome.error?.slice(0, 500) ?? null)}`,
    `"next_attempt_at" = ${values.add(at(sql, outcome.retryAt ?? now))}`,
    `"delivered_at" = ${values.add(outcome.delivered ? at(sql, now) : null)}`,
    `"updated_at" = ${values.add(at(sql, now))}`,
  ];
  const mine = `"id" IN (${values.addAll(ids)}) AND "status" = ${values.add("pending")} AND ${leasedBy(values, lane)}`;
  return sql.run(
    `UPDATE ${deliveriesTable} SET ${assignments.join(", ")} WHERE ${mine}`,
    values.list,
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

/**
 * Makes a delivery due now again (its attempts kept), in its lane: at once unless a worker holds
 * the lane or the lane waits for an earlier delivery's retry. The delivery, or null when there is none.
 */
export async function retryDelivery(sql: Sql, hash: string): Promise<DeliveryRecord | null> {
  return sql.transaction(async (tx) => {
    const values = new Binder(tx.dialect);
    const now = at(tx, new Date());
    await tx.run(
      `UPDATE ${deliveriesTable} SET "status" = ${values.add("pending")}, "next_attempt_at" = ${values.add(now)}, "locked_until" = NULL, "updated_at" = ${values.add(now)} WHERE "hash" = ${values.add(hash)}`,
      values.list,
    );
    const found = new Binder(tx.dialect);
    const row = await tx.get(`${listed} WHERE "d"."hash" = ${found.add(hash)}`, found.list);
    if (!row) return null;
    await reopenLane(tx, String(row.receiver), String(row.record_hash));
    return record(tx, row);
  });
}
