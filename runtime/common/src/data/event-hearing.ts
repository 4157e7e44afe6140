// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * Which events some receiver hears, decided when the event is written. An event no receiver of
 * this build hears (no webhook or handler names its type, or only ones that skip what commands
 * write) is written as fanned out already: fan-out never reads, locks and rewrites it. Marking it
 * was a second write of every event row and of its index entries, a tenth of a PostgreSQL write's
 * cost in a project without receivers (bench/README.md, "Issue 47, item 7, fourth part"). Nothing
 * is lost by it: fan-out made no delivery of such an event either, and a receiver added later
 * hears what is written from then on, as before.
 */

/** What deciding whether a receiver hears an event asks of it (events/receivers.ts Receiver). */
export interface EventListener {
  matches(type: string): boolean;
  /** It also hears what commands write. */
  readonly seeds: boolean;
}

/**
 * The receivers of every service built in this process, or undefined before one is (a command's
 * process, a test of the outbox alone): every event is heard then, and fan-out decides as it
 * always did. Several services in one process (tests) hear together: a union only ever leaves
 * more events to fan-out, never fewer.
 */
let listeners: EventListener[] | undefined;

/** Whether each event type is heard, per origin: the same for every write of a process. */
const heard = new Map<string, boolean>();

/** Tells the outbox the receivers of a service this process runs (app/api-app.ts). */
export function hearEventsOf(receivers: readonly EventListener[]): void {
  (listeners ??= []).push(...receivers);
  heard.clear();
}

/** Whether an event of `type`, written by a request (origin null) or a command, is heard by no receiver. */
export function settledAtWrite(type: string, origin: string | null): boolean {
  if (listeners === undefined) return false;
  const key = `${origin ?? ""} ${type}`;
  let isHeard = heard.get(key);
  if (isHeard === undefined) {
    isHeard = listeners.some(
      (receiver) => receiver.matches(type) && (origin === null || receiver.seeds),
    );
    heard.set(key, isHeard);
  }
  return !isHeard;
}
