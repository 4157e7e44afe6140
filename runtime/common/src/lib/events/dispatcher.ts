// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { requiredInstant } from "../column-codec.js";
import { isoInstant } from "../dates.js";
import type { Logger } from "../logger.js";
import type { Sql } from "../sql.js";
import { claimDeliveries, fanOut, settleDelivery, type ClaimedDelivery } from "./deliveries.js";
import { handlerRetryHours, handlerTimeoutMs, type HandlerReceiver } from "./handlers.js";
import { nextAttempt, postMessage, type Webhook } from "./webhooks.js";

/*
 * The worker that delivers events to webhooks and to src/custom/events.ts's handlers, one in every
 * process of the service: it fans new events out into deliveries, claims due ones (a lease each: one worker or instance at a time per delivery),
 * POSTs them, and settles each. It runs beside the requests and never in them: a slow receiver
 * holds only this loop's few connections, never a request.
 */

/** What a delivery sends of its record, as the webhook's role (`as`) reads it. */
export interface EventView {
  /** The record now, as that role reads it; null once it is gone or out of that role's reach. */
  readonly record: object | null;
  /** The event's changes without the fields that role may not see. */
  readonly changes: Record<string, unknown>;
}

export interface DispatcherOptions {
  readonly sql: Sql;
  readonly webhooks: readonly Webhook[];
  /** src/custom/events.ts's handlers. */
  readonly handlers: readonly HandlerReceiver[];
  /** The role whose view of the record handlers get (the most privileged). */
  readonly handlerRole: string;
  readonly logger: Logger;
  /** The record and changes of an event as `role` may see them (the app's serializers and field access). */
  view(event: ClaimedDelivery["event"], role: string): Promise<EventView>;
  /** How long one attempt may take (WEBHOOK_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** The first retry's delay; later ones grow from it (WEBHOOK_RETRY_BASE_MS, webhooks.ts). */
  readonly retryBaseMs: number;
  /** How often it looks for new events and due retries. */
  readonly pollMs?: number;
  /** Deliveries attempted at once by this process. */
  readonly batch?: number;
}

export interface Dispatcher {
  /** Stops looking for more, and waits for the attempts under way. */
  stop(): Promise<void>;
}

/** Starts delivering; a failure of the loop itself is logged and the loop goes on. */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { sql, logger } = options;
  const webhooks = new Map(options.webhooks.map((webhook) => [webhook.name, webhook]));
  const handlers = new Map(options.handlers.map((handler) => [handler.name, handler]));
  const receivers = [...options.webhooks, ...options.handlers];
  const batch = options.batch ?? 8;
  // A lease outlives the attempt it covers, so only a worker that died lets another retry it.
  const leaseMs = { webhooks: options.timeoutMs + 10_000, handlers: handlerTimeoutMs + 10_000 };
  let stopped = false;
  let running: Promise<void> | undefined;

  const deliver = (delivery: ClaimedDelivery): Promise<void> => {
    const handler = handlers.get(delivery.receiver);
    if (handler) return deliverToHandler(options, handler, delivery);
    return deliverToWebhook(options, webhooks.get(delivery.receiver), delivery);
  };

  async function round(): Promise<void> {
    while (!stopped && (await fanOut(sql, receivers)) > 0);
    for (;;) {
      if (stopped) return;
      const claimed = await claimDue(sql, { handlers, webhooks }, batch, leaseMs);
      await Promise.all(
        claimed.map((delivery) =>
          deliver(delivery).catch((error: unknown) =>
            logger.warn(
              { err: error, delivery: delivery.hash },
              "webhook delivery could not be attempted",
            ),
          ),
        ),
      );
      if (claimed.length < batch) return;
    }
  }

  const timer = setInterval(() => {
    if (running || stopped) return;
    running = round()
      .catch((error: unknown) =>
        logger.warn({ err: error }, "delivering events failed; retried shortly"),
      )
      .finally(() => {
        running = undefined;
      });
  }, options.pollMs ?? 1_000);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Due deliveries, up to `batch` of each kind that has receivers here, each leased for `leaseMs`. */
async function claimDue(
  sql: Sql,
  receivers: { handlers: ReadonlyMap<string, unknown>; webhooks: ReadonlyMap<string, unknown> },
  batch: number,
  leaseMs: { handlers: number; webhooks: number },
): Promise<ClaimedDelivery[]> {
  return [
    ...(receivers.handlers.size > 0
      ? await claimDeliveries(sql, "handlers", batch, leaseMs.handlers)
      : []),
    ...(receivers.webhooks.size > 0
      ? await claimDeliveries(sql, "webhooks", batch, leaseMs.webhooks)
      : []),
  ];
}

/** The instant an event happened, as a Date (stored as text on SQLite). */
function eventInstant(options: DispatcherOptions, delivery: ClaimedDelivery): Date {
  return requiredInstant(delivery.event.at, options.sql.dialect);
}

/** One attempt of a src/custom/events.ts handler, settled: retried later when it failed. */
async function deliverToHandler(
  options: DispatcherOptions,
  handler: HandlerReceiver,
  delivery: ClaimedDelivery,
): Promise<void> {
  const eventAt = eventInstant(options, delivery);
  const error = await runHandler(options, handler, delivery, eventAt);
  const retryAt =
    error === null
      ? null
      : nextAttempt(delivery.attempts, eventAt, handlerRetryHours, options.retryBaseMs);
  if (error !== null)
    options.logger.warn(
      {
        handler: handler.name,
        delivery: delivery.hash,
        event: delivery.event.type,
        attempts: delivery.attempts,
        error,
        retry: retryAt !== null,
      },
      "an event handler failed",
    );
  await settleDelivery(options.sql, delivery, {
    delivered: error === null,
    status: null,
    error,
    retryAt,
  });
}

/** Runs a handler within its time; what it throws (or a timeout) is the attempt's error. */
async function runHandler(
  options: DispatcherOptions,
  handler: HandlerReceiver,
  delivery: ClaimedDelivery,
  eventAt: Date,
): Promise<string | null> {
  const view = await options.view(delivery.event, options.handlerRole);
  const event = {
    type: delivery.event.type,
    timestamp: isoInstant(eventAt),
    hash: delivery.event.hash,
    actor: delivery.event.actor,
    changes: view.changes,
    record: view.record as Record<string, unknown> | null,
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`the handler took more than ${handlerTimeoutMs} ms`),
      handlerTimeoutMs,
    );
  });
  const ran = Promise.resolve()
    .then(() => handler.handle(event))
    .then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
  try {
    return await Promise.race([ran, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One POST to a webhook (`webhook` undefined: no longer configured), settled: retried when it failed. */
async function deliverToWebhook(
  options: DispatcherOptions,
  webhook: Webhook | undefined,
  delivery: ClaimedDelivery,
): Promise<void> {
  if (!webhook) {
    const error = `no webhook named ${delivery.receiver} in this service's configuration`;
    await settleDelivery(options.sql, delivery, {
      delivered: false,
      status: null,
      error,
      retryAt: null,
    });
    return;
  }
  const eventAt = eventInstant(options, delivery);
  const view = await options.view(delivery.event, webhook.as);
  const body = JSON.stringify({
    type: delivery.event.type,
    timestamp: isoInstant(eventAt),
    data: {
      hash: delivery.event.hash,
      actor: delivery.event.actor,
      changes: view.changes,
      record: view.record,
    },
  });
  const outcome = await postMessage(webhook, { id: delivery.hash, body }, options.timeoutMs);
  const delivered = outcome.error === null;
  const retryAt = delivered
    ? null
    : nextAttempt(delivery.attempts, eventAt, webhook.retryHours, options.retryBaseMs);
  if (!delivered)
    options.logger.warn(
      {
        webhook: webhook.name,
        delivery: delivery.hash,
        event: delivery.event.type,
        attempts: delivery.attempts,
        status: outcome.status,
        error: outcome.error,
        retry: retryAt !== null,
      },
      retryAt === null
        ? "webhook delivery failed for good"
        : "webhook delivery failed; it will be retried",
    );
  await settleDelivery(options.sql, delivery, { ...outcome, delivered, retryAt });
}
