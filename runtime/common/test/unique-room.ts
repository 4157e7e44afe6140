// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue } from "../src/data/column-codec.js";
import { quote } from "../src/db/sql.js";
import {
  distinctValues,
  exampleValue,
  type PayloadSchema,
  type PropertySchema,
} from "../src/base/examples.js";
import type { TableSpec } from "../src/data/table/spec.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import type { TestApi } from "./harness.js";

/*
 * A unique field whose rules allow only so many values (`unique: true, min: -4, max: 1`: six; an
 * enum; a boolean) holds only that many records, while a test file makes records by the dozen. Each
 * payload the factories make gets a value no record holds; when every value is held, the oldest
 * record that nothing points at is deleted to free one (the test database is the file's own). A
 * record others point at goes last: its delete would take them along (onDelete: cascade) or clear
 * their links (setNull), and a test may be holding them (a spec set CI drew lost the ticket it had
 * just made when the next ticket's parent comment took its place). A parent made for another
 * record (`making`) is never a reason to delete: it is an existing record, shared. A test that
 * needs more records at once than the field allows cannot pass, and says so.
 */

/** Domains up to this size are searched value by value; larger ones never fill in a test file. */
const searchable = 10_000;

/** Thrown when a parent cannot be made without taking a record's place: share this one instead. */
export class SharedParent extends Error {
  constructor(readonly hash: string) {
    super(`share the existing record ${hash}`);
  }
}

/** Who the record is for: a parent of records being made (`making`), for `owner` or no one. */
export interface Making {
  readonly making: readonly string[];
  readonly owner?: string;
}

/** The hash a factory makes: `make()`'s new record, or the existing parent it was told to share. */
export async function madeOrShared(make: () => Promise<string>): Promise<string> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof SharedParent) return error.hash;
    throw error;
  }
}

/** The payload, with each finite unique field's value one that no record holds. */
export async function withUniqueRoom(
  api: TestApi<any>,
  resource: ResourceDescriptor<any, any, any, any>,
  rules: PayloadSchema,
  unique: Readonly<Record<string, unknown>>,
  payload: Record<string, unknown>,
  made: Making = { making: [] },
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
      (await evictOldest(api, resource, field, count, holders, made));
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

/**
 * The value a new record may take when every one is held. A parent being made for another record
 * shares the newest live holder instead (SharedParent): evicting would pick the parents just made
 * for the same record, which nothing points at yet. A record a test asks for itself takes the
 * place of the oldest holder nothing points at, else of the oldest that can go at all.
 */
async function evictOldest(
  api: TestApi<any>,
  resource: ResourceDescriptor<any, any, any, any>,
  field: string,
  count: number,
  holders: readonly Holder[],
  made: Making,
): Promise<unknown> {
  if (made.making.length > 0 && mayShare(resource.table, made)) {
    const shared = await newestLive(api, resource.table, field);
    if (shared !== undefined) throw new SharedParent(shared);
  }
  const service = api.service(resource);
  // The oldest holder nothing points at, else the oldest that can go at all.
  for (const holder of holders)
    if (
      !(await pointedAt(api, resource.table, holder.id)) &&
      (await service.table.delete(holder.id)) === "deleted"
    )
      return holder.value;
  for (const holder of holders)
    if ((await service.table.delete(holder.id)) === "deleted") return holder.value;
  throw new Error(
    `${resource.table.name}.${field} allows ${count} values and every record holding one is held back by others: a test needs more ${resource.table.name} at once than the field allows`,
  );
}

/**
 * Whether an existing record may stand in for a new parent: when no owner is asked for, or when
 * the record points at nothing (no belongsTo), so no chain from it can lead to another user.
 */
function mayShare(table: TableSpec, made: Making): boolean {
  return (
    made.owner === undefined ||
    !Object.values(table.relations).some((relation) => relation.kind === "belongsTo")
  );
}

/** Whether any row points at the record: through a belongsTo of any table, or a link of its own. */
async function pointedAt(api: TestApi<any>, table: TableSpec, id: number): Promise<boolean> {
  const pointing = [
    ...[...table.restrictedBy, ...table.cascadeTo, ...table.nullOnDelete].map((relation) => ({
      table: relation.target().name,
      column: relation.foreignKey,
    })),
    ...Object.values(table.relations)
      .filter((relation) => relation.kind === "belongsToMany")
      .map((relation) => ({ table: relation.pivot, column: relation.ownKey })),
  ];
  for (const { table: name, column } of pointing) {
    const row = await api.db.get(
      `SELECT 1 AS "found" FROM ${quote(name)} WHERE ${quote(column)} = ${api.db.dialect.placeholder(1)} LIMIT 1`,
      [id],
    );
    if (row !== undefined) return true;
  }
  return false;
}

/** The public id of the newest live (not soft-deleted) record holding a value of the field. */
async function newestLive(
  api: TestApi<any>,
  table: TableSpec,
  field: string,
): Promise<string | undefined> {
  const live = table.softDelete ? ` AND "deleted_at" IS NULL` : "";
  const row = await api.db.get(
    `SELECT "hash" FROM ${quote(table.name)} WHERE ${quote(field)} IS NOT NULL${live} ORDER BY "id" DESC LIMIT 1`,
  );
  return row === undefined ? undefined : String(row.hash);
}
