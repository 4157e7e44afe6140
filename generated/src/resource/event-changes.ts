// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Changes } from "../data/outbox.js";
import { propertyOf } from "../base/records.js";
import { outputOf } from "../data/serialize.js";
import type { Sql, SqlRow } from "../db/sql.js";
import {
  columnsOf,
  decodeValue,
  relationOfKind,
  relationsOfKind,
  type AnyTable,
  type TableSpec,
} from "../data/table.js";
import { isPublicIdKey, type ResourceDescriptor } from "./descriptor.js";

/** A record's values as its events hold them, by output key (see recordValues). */
export type RecordValues = Readonly<Record<string, unknown>>;

// Kept out of changes: the hash names the record, and the timestamps change with every write.
const unrecorded = new Set(["created_at", "updated_at", "deleted_at"]);

/** The keys a resource's events record: each key it outputs but its public id and timestamps. */
export function recordedKeys(resource: Pick<ResourceDescriptor, "output">): string[] {
  return resource.output.filter((key) => !isPublicIdKey(key) && !unrecorded.has(key));
}

/**
 * A record's values as events record them: each key it outputs but its hash and timestamps, as it
 * outputs them (a belongsTo as the related record's hash), whoever reads them later: every exit
 * leaves out what its reader may not see (exits.ts).
 */
export function recordValues(resource: ResourceDescriptor): (row: object) => RecordValues {
  const { table, scales = {} } = resource;
  const kinds = columnsOf(table);
  const readers = recordedKeys(resource).map(
    (key): [string, (row: Record<string, unknown>) => unknown] => {
      if (relationOfKind(table, key, "belongsTo"))
        return [key, (row) => propertyOf(row[key], "hash") ?? null];
      const output = outputOf(kinds[key] ?? "", scales[key] ?? 0);
      return [key, output ? (row) => output(row[key] ?? null) : (row) => row[key] ?? null];
    },
  );
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

/**
 * A record as it was before a write, from its row as the lock read it (stored columns): a belongsTo
 * the write kept is the related record the written row holds; one it changed is looked up.
 */
export async function storedRecord(
  tx: Sql,
  table: TableSpec,
  stored: SqlRow,
  written: object,
  tableOf: (spec: TableSpec) => AnyTable,
): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = {};
  for (const [column, kind] of Object.entries(columnsOf(table)))
    row[column] = decodeValue(kind, stored[column], tx.dialect);
  for (const [name, relation] of relationsOfKind(table, "belongsTo")) {
    const id = stored[relation.foreignKey];
    if (id === null || id === undefined) row[name] = null;
    else if (Number(propertyOf(written, relation.foreignKey)) === Number(id))
      row[name] = propertyOf(written, name);
    else
      row[name] = await tableOf(relation.target())
        .within(tx)
        .findOne({ id: Number(id) });
  }
  return row;
}
