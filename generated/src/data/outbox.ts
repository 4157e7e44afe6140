// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue } from "./column-codec.js";
import { settledAtWrite } from "./event-hearing.js";
import { isRecord } from "../base/records.js";
import { delayedSignal } from "../base/signal.js";
import { Binder, quote, type Sql, type SqlRow } from "../db/sql.js";
import { eventsTable } from "../db/service-tables.js";

/*
 * The outbox: every write the service commits appends its event to the table hashapi_events in the
 * write's own transaction, so a rolled-back write has none and a committed one always has one,
 * whatever crashes afterwards. The audit trail (GET /api/<c>/{hash}/history) reads it; deliveries
 * read it after commit.
 */

/** Who made a write: a signed-in user, or null for seeds and scripts. */
export interface Actor {
  readonly hash: string;
  readonly name: string;
}

/** What changed, by output key: `[before, after]` as the record is output (belongsTo as hashes). */
export type Changes = Readonly<Record<string, readonly [unknown, unknown]>>;

/** One event: `<resource>.<what>` (`medical_record.updated`), the record's hash, what changed. */
export interface WriteEvent {
  readonly type: string;
  readonly hash: string;
  readonly changes: Changes;
  /** With tenancy: the id of the record's tenant; null or absent for a record of none. */
  readonly tenant?: number | null;
}

/**
 * What wrote this process's events, when not a request: a command marks its own (`npm run db:seed`
 * as `seed`, `npm run user:create` as `script`), and receivers skip them unless they ask for seeds
 * (events/fan-out.ts). A command runs in a process of its own, which makes this a setting of
 * the process rather than of each write.
 */
let origin: "seed" | "script" | null = null;

/** Marks every event this process writes from now on as written by a command, not a request. */
export function recordEventsAs(command: "seed" | "script"): void {
  origin = command;
}

/**
 * Whether events carry their record's tenant (hashapi.yaml `tenancy`: the events table then has
 * `tenant_id`). A setting of the process, as `origin`: one project's schema, for its whole life.
 */
let tenants = false;

/** Events written from now on carry their record's tenant (a tenanted project's start-up). */
export function recordTenantsOfEvents(): void {
  tenants = true;
}

/** Whether this process's project has tenants (its events' and jobs' tables name them). */
export function recordsTenants(): boolean {
  return tenants;
}

const eventColumns = [
  "type",
  "record_hash",
  "actor_hash",
  "actor_name",
  "changes",
  "origin",
  "created_at",
  "fanned_out",
];

function columnList(): string {
  return (tenants ? [...eventColumns, "tenant_id"] : eventColumns).map(quote).join(", ");
}

/**
 * Tells this process's event worker that events were written, so that it fans them out at once
 * rather than at its next poll. Told a little after the write (its transaction commits meanwhile),
 * at most every 20 ms under a stream of writes: each fan-out is a write of its own, which on SQLite
 * waits for the one writer with the requests'. What it misses, the poll finds.
 */
export const eventsWritten = delayedSignal(20);

/** Appends events, in order, in the transaction `sql` belongs to. */
export async function appendEvents(
  sql: Sql,
  actor: Actor | null,
  events: readonly WriteEvent[],
): Promise<void> {
  const at = encodeValue("datetime", new Date(), sql.dialect);
  for (const event of events) {
    const values = new Binder(sql.dialect);
    const row = [
      values.add(event.type),
      values.add(event.hash),
      values.add(actor?.hash ?? null),
      values.add(actor?.name ?? null),
      values.add(JSON.stringify(event.changes)),
      values.add(origin),
      values.add(at),
      values.add(settledAtWrite(event.type, origin)),
      ...(tenants ? [values.add(event.tenant ?? null)] : []),
    ];
    await sql.run(
      `INSERT INTO ${eventsTable} (${columnList()}) VALUES (${row.join(", ")})`,
      values.list,
    );
  }
  eventsWritten.notify();
}

/**
 * Appends one event per row a bulk write touches (a cascade, a link set), selected by the same
 * conditions as its statement: `rows(values)` is a SELECT of `"hash"` (the record the event is
 * about), `"changes"` (each row's changes as JSON text) and `"tenant"` (the record's tenant's id,
 * or NULL), binding through `values`.
 */
export async function appendEventsOfRows(
  sql: Sql,
  actor: Actor | null,
  type: string,
  rows: (values: Binder) => string,
): Promise<void> {
  const values = new Binder(sql.dialect);
  const insert = eventsOfRows(values, actor, type, (bound) => ({
    from: `(${rows(bound)}) AS "selected"`,
    hash: `"selected"."hash"`,
    changes: `"selected"."changes"`,
    tenant: `"selected"."tenant"`,
  }));
  await sql.run(insert, values.list);
  eventsWritten.notify();
}

/**
 * The INSERT of one event per row of a FROM clause, as part of a statement of the caller's: the
 * record is `hash`, the changes `changes` (SQL expressions over the rows, JSON text). Values are
 * bound through `values` in the order of the text (SQLite's placeholders are positional), the
 * caller's FROM after this event's own. The caller tells the event worker once it has committed.
 */
export function eventsOfRows(
  values: Binder,
  actor: Actor | null,
  type: string,
  rows: (values: Binder) => { from: string; hash: string; changes: string; tenant: string },
): string {
  const head = [
    values.add(type),
    values.add(actor?.hash ?? null),
    values.add(actor?.name ?? null),
    values.add(origin),
    values.add(encodeValue("datetime", new Date(), values.dialect)),
    values.add(settledAtWrite(type, origin)),
  ];
  const { from, hash, changes, tenant } = rows(values);
  const ofTenant = tenants ? `, ${tenant}` : "";
  return `INSERT INTO ${eventsTable} (${columnList()}) SELECT ${head[0]}, ${hash}, ${head[1]}, ${head[2]}, ${changes}, ${head[3]}, ${head[4]}, ${head[5]}${ofTenant} FROM ${from}`;
}

/**
 * No tenant, as SQL: typed, since a NULL selected in a subquery is text to PostgreSQL, which then
 * refuses it for the integer column.
 */
export const noTenant = "CAST(NULL AS INTEGER)";

/**
 * A tenant's id as SQL text, for the `"tenant"` of a bulk write's rows: an integer the database
 * gave (never a client's value), so it is written as a literal rather than bound in text order.
 */
export function tenantLiteral(id: number | null | undefined): string {
  return id === null || id === undefined ? noTenant : String(Math.trunc(id));
}

/**
 * A SQL text expression of `{ "<key>": [<before>, <after>] }` as JSON, where each side is `null` or
 * a text expression (a related row's hash: letters, digits and `_`, nothing to escape).
 */
export function changeOfHashes(key: string, before: string | null, after: string | null): string {
  const side = (expression: string | null) =>
    expression === null ? "'null'" : `'"' || ${expression} || '"'`;
  return `'{${JSON.stringify(key).replaceAll("'", "''")}:[' || ${side(before)} || ',' || ${side(after)} || ']}'`;
}

/** An event's changes as stored (JSON text): an object, else none. */
export function recordedChanges(stored: unknown): Record<string, unknown> {
  const changes: unknown = JSON.parse(String(stored));
  return isRecord(changes) ? changes : {};
}

/** An event's actor as stored (`actor_hash`, `actor_name`): as named at the write, or null. */
export function storedActor(row: SqlRow): { hash: string; name: string | null } | null {
  if (row.actor_hash === null || row.actor_hash === undefined) return null;
  return {
    hash: String(row.actor_hash),
    name: row.actor_name == null ? null : String(row.actor_name),
  };
}
