// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** A receiver of events (a webhook of hashapi.yaml, a handler of src/custom/events.ts). */
export interface Receiver {
  readonly name: string;
  matches(type: string): boolean;
  /** It also hears what commands write (`npm run db:seed`, `npm run user:create`). */
  readonly seeds: boolean;
  /** How many of its lanes (records) one process works at once. */
  readonly concurrency: number;
}

/**
 * Event patterns as hashapi.yaml writes them: a type (`ticket.created`), every event of a resource
 * (`ticket.*`, its links' included) or every event (`*`).
 */
export function eventMatcher(patterns: readonly string[]): (type: string) => boolean {
  const exact = new Set(patterns.filter((pattern) => !pattern.endsWith("*")));
  const prefixes = patterns
    .filter((pattern) => pattern.endsWith(".*"))
    .map((pattern) => pattern.slice(0, -1));
  const all = patterns.includes("*");
  return (type) => all || exact.has(type) || prefixes.some((prefix) => type.startsWith(prefix));
}
