// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { requiredInstant } from "../data/column-codec.js";
import { isoInstant } from "../base/dates.js";
import type { Logger } from "../base/logger.js";
import { runToEnd } from "../base/run-to-end.js";
import type { Sql } from "../db/sql.js";
import type { AttemptOutcome } from "./deliveries.js";
import type { EnqueueOptions } from "../jobs/queue.js";
import { mailSender } from "../mail/mail-sender.js";
import {
  handlerRetryHours,
  handlerTimeoutMs,
  type HandlerContext,
  type HandlerReceiver,
} from "./handlers.js";
import type { LaneDelivery } from "./lanes.js";
import { nextAttempt, postMessage, type Webhook } from "./webhooks.js";

/*
 * One attempt of one delivery: the event as its receiver may read it (resource/exits.ts decides,
 * through `EventReaders`), sent to a webhook or run by a handler, and its outcome.
 */

/** An event as one receiver reads it; null: the receiver gets nothing of it (the delivery is skipped). */
export type ReceiverView = {
  readonly record: Readonly<Record<string, unknown>> | null;
  readonly changes: Readonly<Record<string, unknown>>;
  /** With tenancy: the public id of the record's tenant (none for a global record, a user). */
  readonly tenant?: string | null;
} | null;

/** What deliveries ask of the exit gate, which the API wires in (app/api-app.ts). */
export interface EventReaders {
  /** Whether a receiver may ever hear of `hash`'s events (fan-out's question: it reads nothing). */
  mayHear(receiver: Webhook | HandlerReceiver, hash: string): boolean;
  /** The events of one record as the receiver reads them now: the record read once, each event's view from it. */
  viewer(
    receiver: Webhook | HandlerReceiver,
    hash: string,
  ): Promise<(changes: Readonly<Record<string, unknown>>) => ReceiverView>;
  /**
   * A record as the service itself reads it (handlers' and jobs' `read`); with `tenant`, only a
   * record of that tenant (or of none: a global record, a user).
   */
  read(hash: string, tenant?: number | null): Promise<Readonly<Record<string, unknown>> | null>;
}

export interface AttemptSettings {
  readonly sql: Sql;
  readonly readers: EventReaders;
  readonly logger: Logger;
  /** How long one POST may take (WEBHOOK_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** The first retry's delay (WEBHOOK_RETRY_BASE_MS). */
  readonly retryBaseMs: number;
  /** The jobs handlers may ask for, hashapi's mail among them when hashapi.yaml declares `mail:`. */
  readonly jobNames?: readonly string[];
}

/** A job a handler asked for, written with its success. */
export interface RequestedJob {
  readonly name: string;
  readonly payload: unknown;
  readonly options: EnqueueOptions;
  /** With tenancy: the tenant it runs in, the event's (its id), null for none. */
  readonly tenant?: number | null;
}

/** An attempt's outcome, and the jobs a handler asked for (written only when it succeeded). */
export interface Attempted {
  readonly outcome: AttemptOutcome;
  readonly jobs: readonly RequestedJob[];
}

const skipped = (why: string): Attempted => ({
  outcome: { delivered: false, skipped: true, status: null, error: why, retryAt: null },
  jobs: [],
});

const notForIt = "not sent: under the current specs this receiver may not read the record";

/** One POST to a webhook, signed, and whether to try again. */
export async function attemptWebhook(
  settings: AttemptSettings,
  webhook: Webhook,
  delivery: LaneDelivery,
  view: ReceiverView,
): Promise<Attempted> {
  if (view === null) return skipped(notForIt);
  const eventAt = requiredInstant(delivery.event.at, settings.sql.dialect);
  const body = JSON.stringify({
    type: delivery.event.type,
    timestamp: isoInstant(eventAt),
    data: {
      hash: delivery.event.hash,
      ...(view.tenant === undefined ? {} : { tenant: view.tenant }),
      actor: delivery.event.actor,
      changes: view.changes,
      record: view.record,
    },
  });
  const outcome = await postMessage(webhook, { id: delivery.hash, body }, settings.timeoutMs);
  const delivered = outcome.error === null;
  const attempts = delivery.attempts + 1;
  const retryAt = delivered
    ? null
    : nextAttempt(attempts, eventAt, webhook.retryHours, settings.retryBaseMs);
  if (!delivered)
    settings.logger.warn(
      {
        webhook: webhook.name,
        delivery: delivery.hash,
        event: delivery.event.type,
        attempts,
        status: outcome.status,
        error: outcome.error,
        retry: retryAt !== null,
      },
      retryAt === null
        ? "webhook delivery failed for good"
        : "webhook delivery failed; it will be retried",
    );
  return { outcome: { ...outcome, delivered, retryAt }, jobs: [] };
}

/** What a handler's run may use: the jobs and mail it asks for are kept in `jobs`, written on success. */
function handlerContext(
  settings: AttemptSettings,
  handler: HandlerReceiver,
  delivery: LaneDelivery,
  jobs: RequestedJob[],
  signal: AbortSignal,
): HandlerContext {
  const tenant = delivery.event.tenant ?? null;
  return {
    // A tenant's event is handled in that tenant: its reads and the jobs it asks for are the tenant's.
    read: (hash) => settings.readers.read(hash, tenant),
    jobs: {
      enqueue: (name, payload = null, options = {}) =>
        void jobs.push({ name, payload, options, tenant }),
    },
    mail: mailSender(
      settings.jobNames ?? [],
      (name, payload) => void jobs.push({ name, payload, options: {}, tenant }),
    ),
    log: settings.logger.child({
      delivery: delivery.hash,
      event: delivery.event.type,
      handler: handler.name,
    }),
    signal,
  };
}

/** One run of a src/custom/events.ts handler within its time, and whether to try again. */
export async function attemptHandler(
  settings: AttemptSettings,
  handler: HandlerReceiver,
  delivery: LaneDelivery,
  view: ReceiverView,
  stopping: AbortSignal,
): Promise<Attempted> {
  if (view === null) return skipped(notForIt);
  const eventAt = requiredInstant(delivery.event.at, settings.sql.dialect);
  const jobs: RequestedJob[] = [];
  const timeout = AbortSignal.timeout(handlerTimeoutMs);
  const signal = AbortSignal.any([timeout, stopping]);
  const context = handlerContext(settings, handler, delivery, jobs, signal);
  const event = {
    type: delivery.event.type,
    timestamp: isoInstant(eventAt),
    hash: delivery.event.hash,
    ...(view.tenant === undefined ? {} : { tenant: view.tenant }),
    actor: delivery.event.actor,
    changes: view.changes,
    record: view.record,
  };
  const error = await runToEnd(
    () => handler.handle(event, context),
    timeout,
    `the handler took more than ${handlerTimeoutMs} ms`,
  );
  const attempts = delivery.attempts + 1;
  const retryAt =
    error === null ? null : nextAttempt(attempts, eventAt, handlerRetryHours, settings.retryBaseMs);
  if (error !== null)
    settings.logger.warn(
      {
        handler: handler.name,
        delivery: delivery.hash,
        event: delivery.event.type,
        attempts,
        error,
        retry: retryAt !== null,
      },
      "an event handler failed",
    );
  return {
    outcome: { delivered: error === null, status: null, error, retryAt },
    jobs: error === null ? jobs : [],
  };
}
