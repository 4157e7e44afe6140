// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { EnqueueOptions } from "../jobs/queue.js";
import type { MailSender } from "../mail/mail-sender.js";
import type { Logger } from "../base/logger.js";
import { eventMatcher, type Receiver } from "./receivers.js";

/*
 * Code that reacts to events (src/custom/events.ts, yours): each handler is a receiver of the
 * outbox like a webhook, so it runs after the write's commit, at least once, retried with the
 * webhooks' delays for a day when it throws, in order per record, wherever the service runs.
 */

/**
 * An event as a handler gets it: the record as the service itself reads it now (every field it
 * outputs, whatever `visibleTo` says; a soft-deleted one with its `deleted_at`), null once it is
 * gone: a handler of `.deleted` after a hard delete, or of any event of a record deleted since.
 */
export interface HandledEvent {
  readonly type: string;
  readonly timestamp: string;
  readonly hash: string;
  /** With tenancy: the public id of the record's tenant (null for a global record or a user). */
  readonly tenant?: string | null;
  readonly actor: { readonly hash: string; readonly name: string | null } | null;
  readonly changes: Readonly<Record<string, unknown>>;
  readonly record: Readonly<Record<string, unknown>> | null;
}

/** What a handler may use besides its event. */
export interface HandlerContext {
  /**
   * A record, by its public id (any resource's, or a user's `USR_…`), as the service itself reads
   * it: every field it outputs (a user's e-mail and role included, never a password); null when
   * there is none.
   */
  read(hash: string): Promise<Readonly<Record<string, unknown>> | null>;
  /**
   * Jobs to run once this handler succeeded: written with its success, so a run that throws (and
   * is retried) enqueues nothing, and a run that succeeds enqueues them once.
   */
  readonly jobs: { enqueue(name: string, payload?: unknown, options?: EnqueueOptions): void };
  /** Mail, sent once this handler succeeded (hashapi.yaml's `mail:`; lib/mail.ts). */
  readonly mail: MailSender<void>;
  /** The service's logger, its lines marked with the event's delivery and type. */
  readonly log: Logger;
  /** Aborted when the run is over its time or the service stops: pass it to what you wait on. */
  readonly signal: AbortSignal;
}

/** What a handler is: it may take its time (up to `handlerTimeoutMs`); throwing asks for a retry. */
export type EventHandler = (event: HandledEvent, context: HandlerContext) => void | Promise<void>;

/** A handler with its options: `seeds: true` hears what `npm run db:seed` and scripts write too. */
export interface HandlerEntry {
  readonly handle: EventHandler;
  readonly seeds?: boolean;
  /** How many records' events it handles at once in each process (default 8). */
  readonly concurrency?: number;
}

/** Handlers by event type or pattern: `ticket.updated`, `comment.*`, `*`. */
export type EventHandlers = Readonly<Record<string, EventHandler | HandlerEntry>>;

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
  return Object.entries(handlers).map(([pattern, entry]) => {
    const {
      handle,
      seeds = false,
      concurrency = 8,
    } = typeof entry === "function" ? { handle: entry } : entry;
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
      throw new Error(
        `src/custom/events.ts: the concurrency of "${pattern}" must be a whole number from 1 to 256`,
      );
    return { name: `on ${pattern}`, matches: eventMatcher([pattern]), handle, seeds, concurrency };
  });
}
