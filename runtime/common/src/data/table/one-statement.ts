// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { eventsOfRows, eventsWritten, noTenant, type Actor } from "../outbox.js";
import { Binder, quote } from "../../db/sql.js";
import type { TableContext } from "./context.js";
import { rowKeyCondition, type RowKey } from "./spec.js";
import {
  assignmentsOf,
  insertStatement,
  returnedRow,
  stillLive,
  type WriteValues,
} from "./writes.js";

/*
 * A write and its event as one statement, where the database has one (SqlDialect.writesWithEvent):
 * `WITH written AS (INSERT … RETURNING …), event AS (INSERT INTO hashapi_events SELECT … FROM
 * written) SELECT * FROM written`. One round trip instead of BEGIN, the write, its event and
 * COMMIT, and atomic all the same: a statement commits whole or not at all. The event's changes are
 * built by the database from the row before (an update locks and reads it in the same statement)
 * and the row written, each value as the service outputs it. Only for writes that no rule decides
 * under a lock and whose row is the whole read (see ResourceService.writing).
 */

/** What the event of a write records: its type, who wrote, and the keys it records (columns) with their scales. */
export interface StatementEvent {
  readonly type: string;
  readonly actor: Actor | null;
  readonly recorded: readonly { readonly key: string; readonly scale: number }[];
}

/**
 * Whether a write on this table, read back with `relations`, can be one statement here: the
 * database has one, writes every column's kind as the service would, and the written row is the
 * whole read.
 */
export function writesInOneStatement(context: TableContext, relations: readonly string[]): boolean {
  const { writesWithEvent } = context.sql.dialect;
  if (writesWithEvent === undefined || returnedRow(context, relations) === undefined) return false;
  context.cache.outputsInDatabase ??= Object.values(context.columns).every(
    (kind) => writesWithEvent.outputJson(kind, `"column"`, 0) !== undefined,
  );
  return context.cache.outputsInDatabase;
}

/** The written row's tenant's id, its event's tenant (NULL for a table of no tenant). */
function tenantOfWritten(context: TableContext): string {
  const column = context.spec.tenantColumn;
  return column === undefined ? noTenant : `"written".${quote(column)}`;
}

/** Inserts a row with its event; the row as read (see writesInOneStatement). */
export async function insertWithEvent(
  context: TableContext,
  values: WriteValues,
  event: StatementEvent,
): Promise<Record<string, unknown>> {
  const returning = returnedRow(context, [])!;
  const bound = new Binder(context.sql.dialect);
  const insert = insertStatement(context, values, bound);
  const changes = changesSql(context, event, undefined, `"written"`);
  const recorded = eventsOfRows(bound, event.actor, event.type, () => ({
    from: `"written"`,
    hash: `"written"."hash"`,
    changes,
    tenant: tenantOfWritten(context),
  }));
  const [row] = await context.sql.rows(
    `WITH "written" AS (${insert.text} ${returning.text}), "event" AS (${recorded}) SELECT * FROM "written"`,
    bound.list,
  );
  eventsWritten.notify();
  return returning.decode(row!);
}

/**
 * Updates one row with its event (of a live row only, with `live`), locking it and reading what it
 * was in the same statement; the row as read, or null when there was none to write.
 */
export async function updateWithEvent(
  context: TableContext,
  written: RowKey,
  values: WriteValues,
  live: boolean,
  event: StatementEvent,
): Promise<Record<string, unknown> | null> {
  const returning = returnedRow(context, [])!;
  const bound = new Binder(context.sql.dialect);
  const columns = ["id", ...event.recorded.map(({ key }) => key)].map(quote).join(", ");
  const lock = context.sql.dialect.lockClause("update");
  const where = rowKeyCondition(written, "", (value) => bound.add(value));
  const before = `SELECT ${columns} FROM ${context.table} WHERE ${where}${stillLive(context, live)}${lock}`;
  const assignments = assignmentsOf(context, values, bound);
  const update = `UPDATE ${context.table} SET ${assignments} WHERE "id" = (SELECT "id" FROM "before") ${returning.text}`;
  const changes = changesSql(context, event, `"before"`, `"written"`);
  const recorded = eventsOfRows(bound, event.actor, event.type, () => ({
    from: `"written" CROSS JOIN "before"`,
    hash: `"written"."hash"`,
    changes,
    tenant: tenantOfWritten(context),
  }));
  const [row] = await context.sql.rows(
    `WITH "before" AS (${before}), "written" AS (${update}), "event" AS (${recorded}) SELECT * FROM "written"`,
    bound.list,
  );
  if (row === undefined) return null;
  eventsWritten.notify();
  return returning.decode(row);
}

/**
 * The event's changes as JSON text, `{"key":[before,after]}` in the keys' order, byte for byte as
 * JSON.stringify writes them (resource/event-changes.ts changesBetween): every key whose value
 * differs (its JSON text), a new row's every key that is not null (no `before`).
 */
function changesSql(
  context: TableContext,
  event: StatementEvent,
  before: string | undefined,
  after: string,
): string {
  // The same for every write of a resource: built once for its creates and once for its updates.
  let built = changesTexts.get(event.recorded);
  if (built === undefined) changesTexts.set(event.recorded, (built = new Map()));
  const key = `${before ?? ""} ${after}`;
  let text = built.get(key);
  if (text === undefined) built.set(key, (text = changesText(context, event, before, after)));
  return text;
}

const changesTexts = new WeakMap<StatementEvent["recorded"], Map<string, string>>();

function changesText(
  context: TableContext,
  event: StatementEvent,
  before: string | undefined,
  after: string,
): string {
  if (event.recorded.length === 0) return `'{}'`;
  const { outputJson } = context.sql.dialect.writesWithEvent!;
  const json = (row: string, key: string, scale: number) =>
    `CAST(${outputJson(context.columns[key]!, `${row}.${quote(key)}`, scale)!} AS text)`;
  const rows = event.recorded.map(({ key, scale }, index) => {
    const was = before === undefined ? "CAST(NULL AS text)" : json(before, key, scale);
    return `(${index}, ${textLiteral(JSON.stringify(key))}, ${was}, ${json(after, key, scale)})`;
  });
  // Compared as the texts they are, as changesBetween compares JSON.stringify's: no jsonb parsed.
  const changed =
    before === undefined ? `"after" IS NOT NULL` : `"before" IS DISTINCT FROM "after"`;
  const entry = `"key" || ':[' || COALESCE("before", 'null') || ',' || COALESCE("after", 'null') || ']'`;
  const entries = `SELECT string_agg(${entry}, ',' ORDER BY "at") FROM (VALUES ${rows.join(", ")}) AS "change"("at", "key", "before", "after") WHERE ${changed}`;
  return `'{' || COALESCE((${entries}), '') || '}'`;
}

/** A text as a SQL string literal (a key's JSON: a spec's snake_case name; quotes doubled all the same). */
function textLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
