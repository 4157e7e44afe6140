// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID } from "node:crypto";
import { encodeValue } from "../data/column-codec.js";
import { Binder, type Sql } from "../db/sql.js";
import { recordedChanges, recordsTenants, storedActor } from "../data/outbox.js";
import { deliveriesTable, eventsTable, lanesTable } from "../db/service-tables.js";

/*
 * Lanes: one row per receiver and record with deliveries pending (hashapi_lanes). A worker leases a
 * lane, not a delivery, and works it in event order: a record's next event goes as soon as the one
 * before it is settled, while other workers take other lanes. While leased, a lane's
 * `next_attempt_at` is its lease's end, so one index (receiver, next_attempt_at) finds due lanes
 * and expired leases alike, and a claim costs the lanes it takes, whatever the backlog behind them.
 * A worker that dies leaves a lease that runs out: its lane is worked again (at least once).
 * Fan-out adds one to a lane's `version` whenever it adds to the lane; a worker closes a lane only
 * at the version it last read, in one statement: a lane that grew meanwhile is not closed (that
 * statement waits on the row fan-out locked, then sees the new version), and the worker goes on.
 */

const at = (sql: Sql, date: Date) => encodeValue("datetime", date, sql.dialect);

/** A lane a worker holds: its receiver and record, under the worker's lease token. */
export interface Lane {
  readonly receiver: string;
  readonly recordHash: string;
  readonly token: string;
  /** The lane's version when the worker last read it: every delivery fan-out added by then is pending or settled. */
  version: number;
}

/**
 * Leases up to `limit` lanes of `receiver` that are due (or whose lease ran out), oldest first,
 * until `leaseMs` from now; other workers skip them meanwhile.
 */
export async function claimLanes(
  sql: Sql,
  receiver: string,
  limit: number,
  leaseMs: number,
): Promise<Lane[]> {
  const now = new Date();
  const probe = new Binder(sql.dialect);
  // Looked for first with a plain read: an idle service takes no write lock for nothing.
  const due = await sql.get(
    `SELECT 1 AS "found" FROM ${lanesTable} WHERE "receiver" = ${probe.add(receiver)} AND "next_attempt_at" <= ${probe.add(at(sql, now))} LIMIT 1`,
    probe.list,
  );
  if (due === undefined) return [];
  const token = randomUUID();
  const values = new Binder(sql.dialect);
  const lease = values.add(token);
  const until = values.add(at(sql, new Date(now.getTime() + leaseMs)));
  const mine = values.add(receiver);
  const theirs = values.add(receiver);
  const dueBy = values.add(at(sql, now));
  const count = values.add(limit);
  const rows = await sql.all(
    `UPDATE ${lanesTable} SET "lease" = ${lease}, "next_attempt_at" = ${until} WHERE "receiver" = ${mine} AND "record_hash" IN (` +
      `SELECT "record_hash" FROM ${lanesTable} WHERE "receiver" = ${theirs} AND "next_attempt_at" <= ${dueBy} ORDER BY "next_attempt_at" LIMIT ${count}${sql.dialect.lockClause("claim")}` +
      `) RETURNING "record_hash", "version"`,
    values.list,
  );
  return rows.map((row) => ({
    receiver,
    recordHash: String(row.record_hash),
    token,
    version: Number(row.version),
  }));
}

/** A delivery a worker attempts, with its event. */
export interface LaneDelivery {
  readonly id: number;
  readonly hash: string;
  readonly receiver: string;
  /** Attempts before this one. */
  readonly attempts: number;
  readonly event: {
    readonly id: number;
    readonly type: string;
    readonly hash: string;
    readonly actor: { readonly hash: string; readonly name: string | null } | null;
    readonly changes: Record<string, unknown>;
    readonly at: unknown;
    /** With tenancy: the id of the record's tenant, null for none. */
    readonly tenant?: number | null;
  };
}

/** The lane's next pending deliveries (at most `limit`), in event order, with their events. */
export async function pendingOf(sql: Sql, lane: Lane, limit: number): Promise<LaneDelivery[]> {
  const values = new Binder(sql.dialect);
  const rows = await sql.all(
    `SELECT "d"."id", "d"."hash", "d"."attempts", "e"."id" AS "event_id", "e"."type", "e"."actor_hash", "e"."actor_name", "e"."changes", "e"."created_at"${recordsTenants() ? `, "e"."tenant_id"` : ""} FROM ${deliveriesTable} AS "d" JOIN ${eventsTable} AS "e" ON "e"."id" = "d"."event_id" WHERE "d"."receiver" = ${values.add(lane.receiver)} AND "d"."record_hash" = ${values.add(lane.recordHash)} AND "d"."status" = ${values.add("pending")} ORDER BY "d"."event_id" LIMIT ${values.add(limit)}`,
    values.list,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    hash: String(row.hash),
    receiver: lane.receiver,
    attempts: Number(row.attempts),
    event: {
      id: Number(row.event_id),
      type: String(row.type),
      hash: lane.recordHash,
      actor: storedActor(row),
      changes: recordedChanges(row.changes),
      at: row.created_at,
      ...(row.tenant_id === undefined
        ? {}
        : { tenant: row.tenant_id === null ? null : Number(row.tenant_id) }),
    },
  }));
}

/** The condition that a lane is still leased to `lane.token` (binding through `values`). */
export function leasedBy(values: Binder, lane: Lane): string {
  return `EXISTS (SELECT 1 FROM ${lanesTable} AS "l" WHERE "l"."receiver" = ${values.add(lane.receiver)} AND "l"."record_hash" = ${values.add(lane.recordHash)} AND "l"."lease" = ${values.add(lane.token)})`;
}

/** Extends a lane's lease to `leaseMs` from now; false when it is no longer the worker's. */
export async function renewLease(sql: Sql, lane: Lane, leaseMs: number): Promise<boolean> {
  const values = new Binder(sql.dialect);
  const changed = await sql.run(
    `UPDATE ${lanesTable} SET "next_attempt_at" = ${values.add(at(sql, new Date(Date.now() + leaseMs)))} WHERE "receiver" = ${values.add(lane.receiver)} AND "record_hash" = ${values.add(lane.recordHash)} AND "lease" = ${values.add(lane.token)}`,
    values.list,
  );
  return changed > 0;
}

/** Reads the lane's version again (before reading its deliveries); false when the lane is no longer the worker's. */
export async function refreshVersion(sql: Sql, lane: Lane): Promise<boolean> {
  const values = new Binder(sql.dialect);
  const row = await sql.get(
    `SELECT "version" FROM ${lanesTable} WHERE "receiver" = ${values.add(lane.receiver)} AND "record_hash" = ${values.add(lane.recordHash)} AND "lease" = ${values.add(lane.token)}`,
    values.list,
  );
  if (row === undefined) return false;
  lane.version = Number(row.version);
  return true;
}

/** Releases a lane until `retryAt` (its head failed and waits for its retry). */
export async function deferLane(sql: Sql, lane: Lane, retryAt: Date): Promise<void> {
  const values = new Binder(sql.dialect);
  await sql.run(
    `UPDATE ${lanesTable} SET "lease" = NULL, "next_attempt_at" = ${values.add(at(sql, retryAt))} WHERE "receiver" = ${values.add(lane.receiver)} AND "record_hash" = ${values.add(lane.recordHash)} AND "lease" = ${values.add(lane.token)}`,
    values.list,
  );
}

/**
 * Closes a lane the worker found empty at its `version`: deleted in one statement, unless fan-out
 * added to it since (its version moved on). False then: the worker reads the lane again.
 */
export async function closeLane(sql: Sql, lane: Lane): Promise<boolean> {
  const values = new Binder(sql.dialect);
  const closed = await sql.run(
    `DELETE FROM ${lanesTable} WHERE "receiver" = ${values.add(lane.receiver)} AND "record_hash" = ${values.add(lane.recordHash)} AND "lease" = ${values.add(lane.token)} AND "version" = ${values.add(lane.version)}`,
    values.list,
  );
  return closed > 0;
}

/** Releases a lane the worker stops working before it is empty (a stop), due now for another. */
export async function releaseLane(sql: Sql, lane: Lane): Promise<void> {
  const values = new Binder(sql.dialect);
  await sql.run(
    `UPDATE ${lanesTable} SET "lease" = NULL, "next_attempt_at" = ${values.add(at(sql, new Date()))} WHERE "receiver" = ${values.add(lane.receiver)} AND "record_hash" = ${values.add(lane.recordHash)} AND "lease" = ${values.add(lane.token)}`,
    values.list,
  );
}

/**
 * Opens (or makes due now) the lane of a delivery made due again by hand: a lane a worker holds
 * keeps its lease, and gets a new version, so that the worker does not close it past this delivery.
 */
export async function reopenLane(sql: Sql, receiver: string, recordHash: string): Promise<void> {
  const values = new Binder(sql.dialect);
  const now = at(sql, new Date());
  await sql.run(
    `INSERT INTO ${lanesTable} ("receiver", "record_hash", "next_attempt_at") VALUES (${values.add(receiver)}, ${values.add(recordHash)}, ${values.add(now)}) ON CONFLICT ("receiver", "record_hash") DO UPDATE SET "version" = ${lanesTable}."version" + 1, "next_attempt_at" = CASE WHEN ${lanesTable}."lease" IS NULL THEN excluded."next_attempt_at" ELSE ${lanesTable}."next_attempt_at" END`,
    values.list,
  );
}

/**
 * Opens a lane for each receiver and record with pending deliveries but no lane: those
 * made before lanes existed (a project upgraded with a backlog), or made due again with SQL by hand.
 * One statement over the pending deliveries, run once when a worker starts.
 */
export async function openMissingLanes(sql: Sql): Promise<void> {
  const values = new Binder(sql.dialect);
  const pending = values.add("pending");
  // Due when its earliest delivery is (a value of the column itself: no bound instant to cast).
  await sql.run(
    `INSERT INTO ${lanesTable} ("receiver", "record_hash", "next_attempt_at") SELECT "d"."receiver", "d"."record_hash", MIN("d"."next_attempt_at") FROM ${deliveriesTable} AS "d" WHERE "d"."status" = ${pending} AND NOT EXISTS (SELECT 1 FROM ${lanesTable} AS "l" WHERE "l"."receiver" = "d"."receiver" AND "l"."record_hash" = "d"."record_hash") GROUP BY "d"."receiver", "d"."record_hash" ON CONFLICT ("receiver", "record_hash") DO NOTHING`,
    values.list,
  );
}
