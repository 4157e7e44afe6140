// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * How much background work this process finished, by kind (a delivery to a receiver, a job by its
 * name) and outcome, as plain numbers that /metrics reads when it is scraped (http/metrics.ts).
 * Names come from the project's declarations (its webhooks, handlers and jobs): a closed set. The
 * work runs in the process's background thread, which sends its figures to the serving thread
 * (app/background-thread.ts): those are kept here as they came.
 */

export type WorkKind = "delivery" | "job";

export interface WorkCount {
  readonly kind: WorkKind;
  readonly name: string;
  readonly outcome: string;
  count: number;
}

const counts = new Map<string, WorkCount>();
let remote: readonly WorkCount[] = [];

export function countWork(kind: WorkKind, name: string, outcome: string): void {
  const key = `${kind} ${name} ${outcome}`;
  let entry = counts.get(key);
  if (entry === undefined) counts.set(key, (entry = { kind, name, outcome, count: 0 }));
  entry.count += 1;
}

/** This thread's figures, to send to the serving thread. */
export function workCountsSnapshot(): { workCounts: WorkCount[] } {
  return { workCounts: [...counts.values()].map((entry) => ({ ...entry })) };
}

/** Keeps the figures the background thread sent (anything else is ignored). */
export function takeRemoteWorkCounts(message: unknown): void {
  if (
    typeof message === "object" &&
    message !== null &&
    "workCounts" in message &&
    Array.isArray(message.workCounts)
  )
    remote = message.workCounts as WorkCount[];
}

/** Every figure of this process: its own and its background thread's. */
export function workCounts(): Iterable<WorkCount> {
  return [...counts.values(), ...remote];
}
