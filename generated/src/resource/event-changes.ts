// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Changes } from "../lib/events/outbox.js";
import { propertyOf } from "../lib/records.js";
import { outputOf } from "../lib/serialize.js";
import { columnsOf, relationOfKind } from "../lib/table.js";
import { isPublicIdKey, type ResourceDescriptor } from "./descriptor.js";

/** A record's values as its events hold them, by output key (see recordValues). */
export type RecordValues = Readonly<Record<string, unknown>>;

// Kept out of changes: the hash names the record, and the timestamps change with every write.
const unrecorded = new Set(["created_at", "updated_at", "deleted_at"]);

/**
 * A record's values as events record them: each key it outputs but its hash and timestamps, as it
 * outputs them (a belongsTo as the related record's hash), whoever reads them later: the history
 * route leaves out what its reader may not see.
 */
export function recordValues(resource: ResourceDescriptor): (row: object) => RecordValues {
  const { table, scales = {} } = resource;
  const kinds = columnsOf(table);
  const readers = resource.output
    .filter((key) => !isPublicIdKey(key) && !unrecorded.has(key))
    .map((key): [string, (row: Record<string, unknown>) => unknown] => {
      if (relationOfKind(table, key, "belongsTo"))
        return [key, (row) => propertyOf(row[key], "hash") ?? null];
      const output = outputOf(kinds[key] ?? "", scales[key] ?? 0);
      return [key, output ? (row) => output(row[key] ?? null) : (row) => row[key] ?? null];
    });
  return (record) => {
    const row = record as Record<string, unknown>;
    const values: Record<string, unknown> = {};
    for (const [key, read] of readers) values[key] = read(row);
    return values;
  };
}

/**
 * What a write changed, `{ key: [before, after] }`: every value a new record has (before null),
 * every value an update changed (compared as JSON, so a json field's equal object is no change).
 */
export function changesBetween(before: RecordValues | undefined, after: RecordValues): Changes {
  const changes: Record<string, readonly [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(after)) {
    const was = before === undefined ? null : (before[key] ?? null);
    if (JSON.stringify(was) !== JSON.stringify(value)) changes[key] = [was, value];
  }
  return changes;
}
