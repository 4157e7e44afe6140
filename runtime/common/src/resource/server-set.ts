// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { ownValue } from "../base/records.js";
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

/**
 * A create payload that code writes through the service (seeds, the test factories), completed as
 * the controller completes a request's: the direct owner and the `set:` relations the create rules
 * leave out (validation drops them) come back from the payload given, else the caller; `set:` dates
 * are the current time.
 */
export function completedForService<T extends object>(
  resource: Pick<AnyResource, "setByServer" | "owner" | "table">,
  validated: T,
  given: Readonly<Record<string, unknown>>,
  callerHash: string | undefined,
): T {
  const direct = resource.owner?.through === undefined ? resource.owner?.payloadKey : undefined;
  const completed: Record<string, unknown> = { ...(validated as Record<string, unknown>) };
  for (const key of [direct, ...Object.keys(resource.setByServer ?? {})])
    if (key !== undefined && ownValue(completed, key) === undefined && given[key] !== undefined)
      completed[key] = given[key];
  if (direct !== undefined && ownValue(completed, direct) === undefined && callerHash !== undefined)
    completed[direct] = callerHash;
  return serverSetValues(resource.setByServer, resource.table.columns, completed as T, {
    creating: true,
    callerHash,
    now: new Date(),
  });
}

/** The payload with what the server sets for this resource (`set:`), the caller being `callerHash`. */
export function serverSetFor<T extends object>(
  resource: Pick<AnyResource, "setByServer" | "table">,
  callerHash: string | undefined,
  payload: T,
  creating: boolean,
): T {
  const context = { creating, callerHash, now: new Date() };
  return serverSetValues(resource.setByServer, resource.table.columns, payload, context);
}
