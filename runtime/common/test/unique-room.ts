// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue } from "../src/data/column-codec.js";
import { quote } from "../src/db/sql.js";
import {
  distinctValues,
  exampleValue,
  type PayloadSchema,
  type PropertySchema,
} from "../src/base/examples.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import type { TestApi } from "./harness.js";

/*
 * A unique field whose rules allow only so many values (`unique: true, min: -4, max: 1`: six; an
 * enum; a boolean) holds only that many records, while a test file makes records by the dozen. Each
 * payload the factories make gets a value no record holds; when every value is held, the oldest
 * record that can go is deleted to free one (the test database is the file's own). A test that needs
 * more records at once than the field allows cannot pass, and says so.
 */

/** Domains up to this size are searched value by value; larger ones never fill in a test file. */
const searchable = 10_000;

/** The payload, with each finite unique field's value one that no record holds. */
export async function withUniqueRoom(
  api: TestApi<any>,
  resource: ResourceDescriptor<any, any, any, any>,
  rules: PayloadSchema,
  unique: Readonly<Record<string, unknown>>,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = { ...payload };
  for (const [field, value] of Object.entries(payload)) {
    const property = rules.schema.properties?.[field];
    if (!Object.hasOwn(unique, field) || property === undefined || value === null) continue;
    const count = distinctValues(property);
    if (count === undefined || count > searchable) continue;
    // The records holding a value, read once: the domain is searched against them, not the table.
    const holders = await holdersOf(api, resource, field);
    const held = new Set(holders.map((holder) => JSON.stringify(holder.value)));
    if (!held.has(JSON.stringify(value))) continue;
    result[field] =
      freeValue(count, property, field, held) ??
      (await evictOldest(api, resource, field, count, holders));
  }
  return result;
}

interface Holder {
  readonly id: number;
  readonly value: unknown;
}

/** The records holding a value of the field (live or not: uniqueness counts both), oldest first. */
async function holdersOf(
  api: TestApi<any>,
  resource: ResourceDescriptor<any, any, any, any>,
  field: string,
): Promise<Holder[]> {
  const kind = (resource.table.columns as Record<string, Parameters<typeof decodeValue>[0]>)[
    field
  ]!;
  const rows = await api.db.all(
    `SELECT "id", ${quote(field)} AS "value" FROM ${quote(resource.table.name)} WHERE ${quote(field)} IS NOT NULL ORDER BY "id"`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    value: decodeValue(kind, row.value, api.db.dialect),
  }));
}

/** A value of the field's domain that no record holds, if one is left. */
function freeValue(
  count: number,
  property: PropertySchema,
  field: string,
  held: ReadonlySet<string>,
): unknown {
  for (let n = 0; n < count; n += 1) {
    const candidate = exampleValue(property, field, n, true);
    if (candidate !== undefined && !held.has(JSON.stringify(candidate))) return candidate;
  }
  return undefined;
}

/** Deletes the oldest record holding a value of the field that nothing holds back; its value. */
async function evictOldest(
  api: TestApi<any>,
  resource: ResourceDescriptor<any, any, any, any>,
  field: string,
  count: number,
  holders: readonly Holder[],
): Promise<unknown> {
  const service = api.service(resource);
  for (const holder of holders)
    if ((await service.table.delete(holder.id)) === "deleted") return holder.value;
  throw new Error(
    `${resource.table.name}.${field} allows ${count} values and every record holding one is held back by others: a test needs more ${resource.table.name} at once than the field allows`,
  );
}
