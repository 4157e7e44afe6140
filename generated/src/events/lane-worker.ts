// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { countWork } from "../base/work-counts.js";
import {
  attemptHandler,
  attemptWebhook,
  type Attempted,
  type AttemptSettings,
  type ReceiverView,
  type RequestedJob,
} from "./attempts.js";
import { settleDeliveries, type AttemptOutcome } from "./deliveries.js";
import type { HandlerReceiver } from "./handlers.js";
import {
  closeLane,
  deferLane,
  pendingOf,
  refreshVersion,
  releaseLane,
  renewLease,
  type Lane,
  type LaneDelivery,
} from "./lanes.js";
import type { Webhook } from "./webhooks.js";

/*
 * One lane worked under its lease: its deliveries in event order, a page at a time, each attempt
 * made after the one before it ended. Outcomes are written in batches (at most `batchSize`, and
 * always before the next page is read, before a failure is recorded and before the lane is left):
 * a worker killed mid-batch has its batch attempted again (at least once; same `webhook-id`). A
 * failure to be retried defers the lane to its time (the record's later events wait behind it); a
 * lane found empty at the version it was read at is closed.
 */

export interface LaneSettings extends AttemptSettings {
  /** Writes the jobs a handler asked for, in the transaction that settles its success (jobs/). */
  writeJobs?(sql: AttemptSettings["sql"], jobs: readonly RequestedJob[]): Promise<void>;
}

// Deliveries of a lane read at a time: a bound on memory, whatever the backlog.
const pageOfLane = 50;
// Outcomes written together: a write per this many deliveries, and as many sent again at most
// when a worker dies mid-batch.
const batchSize = 20;

export async function workLane(
  settings: LaneSettings,
  receiver: Webhook | HandlerReceiver,
  lane: Lane,
  leaseMs: number,
  stopping: AbortSignal,
): Promise<void> {
  // The lease is renewed while the lane is worked (a third of it left), a long attempt included.
  const lost = new AbortController();
  const renewal = setInterval(() => {
    renewLease(settings.sql, lane, leaseMs).then(
      (held) => held || lost.abort(),
      () => undefined,
    );
  }, leaseMs / 3);
  renewal.unref();
  const batch = new Batch(settings, lane);
  try {
    for (;;) {
      if (stopping.aborted) {
        if (await batch.flush()) await releaseLane(settings.sql, lane);
        return;
      }
      if (lost.signal.aborted) return;
      const deliveries = await pendingOf(settings.sql, lane, pageOfLane);
      if (deliveries.length === 0) {
        // Empty at the version read: closed; grown since (or lost): read again.
        if ((await closeLane(settings.sql, lane)) || !(await refreshVersion(settings.sql, lane)))
          return;
        continue;
      }
      const ended = await workPage(settings, receiver, lane, deliveries, batch, {
        stopping,
        lost: lost.signal,
      });
      if (ended) return;
      // A page short of full was the lane's last: its outcomes written, it is closed.
      if (deliveries.length < pageOfLane && (await batch.flushAndClose()) !== "grew") return;
    }
  } finally {
    clearInterval(renewal);
  }
}

/** One page of a lane; true when the lane is left (deferred, or lost). */
async function workPage(
  settings: LaneSettings,
  receiver: Webhook | HandlerReceiver,
  lane: Lane,
  deliveries: readonly LaneDelivery[],
  batch: Batch,
  signals: { stopping: AbortSignal; lost: AbortSignal },
): Promise<boolean> {
  // The record is read once a page: each event is sent with the record as it is now.
  const viewOf = await settings.readers.viewer(receiver, lane.recordHash);
  for (const delivery of deliveries) {
    if (signals.stopping.aborted || signals.lost.aborted) break;
    const attempted = await attempt(
      settings,
      receiver,
      delivery,
      viewOf(delivery.event.changes),
      signals.stopping,
    );
    countWork("delivery", receiver.name, outcomeName(attempted.outcome));
    const { outcome } = attempted;
    if (outcome.delivered || outcome.skipped) {
      if (!(await batch.add(delivery, attempted))) return true;
      continue;
    }
    if (!(await batch.flush()) || !(await batch.settleNow(delivery, attempted))) return true;
    if (outcome.retryAt !== null) {
      await deferLane(settings.sql, lane, outcome.retryAt);
      return true;
    }
  }
  return deliveries.length === pageOfLane && !(await batch.flush());
}

/** Outcomes waiting to be written together; each write false when the lane was lost. */
class Batch {
  private readonly settled: { delivery: LaneDelivery; outcome: AttemptOutcome }[] = [];

  constructor(
    private readonly settings: LaneSettings,
    private readonly lane: Lane,
  ) {}

  /** Adds a success (or a skip); a handler's success that asked for jobs is written at once, with them. */
  async add(delivery: LaneDelivery, attempted: Attempted): Promise<boolean> {
    if (attempted.jobs.length > 0)
      return (await this.flush()) && this.settleNow(delivery, attempted);
    this.settled.push({ delivery, outcome: attempted.outcome });
    return this.settled.length < batchSize || this.flush();
  }

  async flush(): Promise<boolean> {
    if (this.settled.length === 0) return true;
    const written = this.settled.splice(0);
    return settleDeliveries(this.settings.sql, this.lane, written);
  }

  /**
   * Writes what is waiting, then closes the lane at the version it was read at: "closed", or
   * "grew" when fan-out added to it since (the worker reads it again), or "lost" when the lane is
   * no longer the worker's. Two statements, not a transaction: a worker that dies between them
   * leaves a settled lane whose lease runs out and which the next worker closes; a transaction
   * would hold every other lane of this thread behind it (SQLite's driver runs one at a time).
   */
  async flushAndClose(): Promise<"closed" | "grew" | "lost"> {
    if (!(await this.flush())) return "lost";
    return (await closeLane(this.settings.sql, this.lane)) ? "closed" : "grew";
  }

  /** Writes one outcome now, with the jobs a handler asked for in the same transaction. */
  async settleNow(delivery: LaneDelivery, { outcome, jobs }: Attempted): Promise<boolean> {
    const { sql, writeJobs } = this.settings;
    if (jobs.length === 0 || writeJobs === undefined)
      return settleDeliveries(sql, this.lane, [{ delivery, outcome }]);
    return sql.transaction(async (tx) => {
      const settled = await settleDeliveries(tx, this.lane, [{ delivery, outcome }]);
      if (settled) await writeJobs(tx, jobs);
      return settled;
    });
  }
}

function attempt(
  settings: LaneSettings,
  receiver: Webhook | HandlerReceiver,
  delivery: LaneDelivery,
  view: ReceiverView,
  stopping: AbortSignal,
): Promise<Attempted> {
  return "url" in receiver
    ? attemptWebhook(settings, receiver, delivery, view)
    : attemptHandler(settings, receiver, delivery, view, stopping);
}

function outcomeName(outcome: AttemptOutcome): string {
  if (outcome.skipped) return "skipped";
  if (outcome.delivered) return "delivered";
  return outcome.retryAt === null ? "failed" : "retried";
}
