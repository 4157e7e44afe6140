// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { eventMatcher, type Receiver } from "./receivers.js";

/*
 * Code that reacts to events (src/custom/events.ts, yours): each handler is a receiver of the
 * outbox like a webhook, so it runs after the write's commit, at least once, retried with the
 * webhooks' delays for a day when it throws, in order per record, wherever the service runs.
 */

/** An event as a handler gets it: the record as the first role reads it now (null once gone). */
export interface HandledEvent {
  readonly type: string;
  readonly timestamp: string;
  readonly hash: string;
  readonly actor: { readonly hash: string; readonly name: string | null } | null;
  readonly changes: Readonly<Record<string, unknown>>;
  readonly record: Readonly<Record<string, unknown>> | null;
}

/** What a handler is: it may take its time (up to `handlerTimeoutMs`); throwing asks for a retry. */
export type EventHandler = (event: HandledEvent) => void | Promise<void>;

/** Handlers by event type or pattern: `ticket.updated`, `comment.*`, `*`. */
export type EventHandlers = Readonly<Record<string, EventHandler>>;

/** A handler of src/custom/events.ts as a receiver of the outbox (its deliveries are `on <pattern>`). */
export interface HandlerReceiver extends Receiver {
  readonly handle: EventHandler;
}

/** How long one run of a handler may take before it counts as failed (and is retried). */
export const handlerTimeoutMs = 30_000;
/** How long a handler that keeps failing is retried, from its event. */
export const handlerRetryHours = 24;

const patternShape =
  /^(\*|[a-z][a-z0-9_]*\.(\*|created|updated|deleted|restored|[a-z][a-z0-9_]*\.(attached|detached)))$/;

/** The handlers as receivers; a key that is no event type or pattern is an error at start-up. */
export function handlerReceivers(handlers: EventHandlers): HandlerReceiver[] {
  for (const pattern of Object.keys(handlers))
    if (pattern.length > 190 || !patternShape.test(pattern))
      throw new Error(
        `src/custom/events.ts: "${pattern}" is not an event type: <resource>.created, .updated, .deleted, .restored, <resource>.<relation>.attached or .detached, <resource>.* or *`,
      );
  return Object.entries(handlers).map(([pattern, handle]) => ({
    name: `on ${pattern}`,
    matches: eventMatcher([pattern]),
    handle,
  }));
}
