// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { ownValue } from "../lib/records.js";
import type { AnyResource } from "./descriptor.js";

type Settings = NonNullable<AnyResource["setByServer"]>;

/**
 * What the server sets in a valid payload (`set:` in the spec): a belongsTo User to the caller's
 * hash, a date or datetime to `now` (a date as its UTC day); on create all of them, on update
 * those set on every write. A value a bypass role sent stays (the others' were refused already);
 * with no caller, a relation is left as it is (specs refuse `set` where a caller may be absent).
 */
export function serverSetValues<T extends object>(
  settings: Settings | undefined,
  columns: Readonly<Record<string, string>>,
  payload: T,
  context: { creating: boolean; callerHash: string | undefined; now: Date },
): T {
  if (settings === undefined) return payload;
  const filled: Record<string, unknown> = {};
  for (const [key, set] of Object.entries(settings)) {
    if (!(context.creating || set.on === "write") || ownValue(payload, key) !== undefined) continue;
    if (set.from === "caller") {
      if (context.callerHash !== undefined) filled[key] = context.callerHash;
    } else {
      const instant = context.now.toISOString();
      filled[key] = columns[key] === "date" ? instant.slice(0, 10) : instant;
    }
  }
  return Object.keys(filled).length === 0 ? payload : { ...payload, ...filled };
}
