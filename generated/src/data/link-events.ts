// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue, outputOf } from "./column-codec.js";
import { Binder, quote, type Sql } from "../db/sql.js";
import type { ManyToManySpec } from "./table/spec.js";
import {
  appendEvents,
  appendEventsOfRows,
  changeOfHashes,
  tenantLiteral,
  type Actor,
} from "./outbox.js";

/*
 * The events of a belongsToMany's links: `<resource>.<relation>.attached` and `.detached`, about the
 * record that owns the link, with `{ <relation>: [null, "<hash>"] }` (or the reverse) and, for a
 * pivot with fields, each field's value as `<relation>.<field>`. Without pivot fields they are
 * appended by the statement that selects the links a write is about to add or remove, before it
 * does; with them, the links are read (their values are text a statement cannot put in JSON safely)
 * and the events written from what was read, in the same transaction.
 */

/** The record whose links a write changes, and who writes. */
export interface LinkOwner {
  readonly id: number;
  readonly hash: string;
  /** Its table's event name (`doctor`). */
  readonly event: string;
  readonly actor: Actor | null;
  /** With tenancy: its tenant's id, which its link events carry. */
  readonly tenant?: number | null;
}

/** The related row's hash, for a statement over the pivot. */
function linkedHash(relation: ManyToManySpec): string {
  return `(SELECT "linked"."hash" FROM ${quote(relation.target().name)} AS "linked" WHERE "linked"."id" = ${quote(relation.pivot)}.${quote(relation.otherKey)})`;
}

/**
 * Records `.detached` for the links of `owner` that `where` selects among its pivot rows (its text
 * binds through the Binder it is given, after the owner's own values).
 */
export async function recordDetached(
  sql: Sql,
  relation: ManyToManySpec,
  name: string,
  owner: LinkOwner,
  where: (values: Binder) => string,
): Promise<void> {
  if (hasPivotFields(relation)) {
    const links = await linkValues(sql, relation, owner.id, where);
    const events = links.map((link) => ({
      type: `${owner.event}.${name}.detached`,
      hash: owner.hash,
      changes: linkChanges(name, link, "detached"),
      tenant: owner.tenant ?? null,
    }));
    if (events.length > 0) await appendEvents(sql, owner.actor, events);
    return;
  }
  return appendEventsOfRows(sql, owner.actor, `${owner.event}.${name}.detached`, (values) => {
    const hash = values.add(owner.hash);
    const changes = changeOfHashes(name, linkedHash(relation), null);
    const mine = `${quote(relation.ownKey)} = ${values.add(owner.id)}`;
    return `SELECT ${hash} AS "hash", ${changes} AS "changes", ${tenantLiteral(owner.tenant)} AS "tenant" FROM ${quote(relation.pivot)} WHERE ${mine} AND ${where(values)}`;
  });
}

/**
 * Links `owner` to the related rows `ids` with `write`, recording `.attached` for each link it adds
 * and, for a pivot with fields, for each link whose fields it changed (with only those fields).
 */
export async function recordLinked(
  sql: Sql,
  relation: ManyToManySpec,
  name: string,
  owner: LinkOwner,
  ids: readonly number[],
  write: () => Promise<void>,
): Promise<void> {
  if (!hasPivotFields(relation) || ids.length === 0) {
    await recordAttached(sql, relation, name, owner, ids);
    await write();
    return;
  }
  const among = (values: Binder) => `${quote(relation.otherKey)} IN (${values.addAll(ids)})`;
  const before = new Map(
    (await linkValues(sql, relation, owner.id, among)).map((link) => [link.hash, link]),
  );
  await write();
  const events = [];
  for (const link of await linkValues(sql, relation, owner.id, among)) {
    const was = before.get(link.hash);
    const changes =
      was === undefined ? linkChanges(name, link, "attached") : fieldChanges(name, was, link);
    if (Object.keys(changes).length > 0)
      events.push({ type: `${owner.event}.${name}.attached`, hash: owner.hash, changes });
  }
  if (events.length > 0) await appendEvents(sql, owner.actor, events);
}

/** One link as its events hold it: the related record's hash and the pivot's fields as output. */
interface LinkValues {
  readonly hash: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

function hasPivotFields(relation: ManyToManySpec): boolean {
  return Object.keys(relation.pivotColumns ?? {}).length > 0;
}

/** `owner`'s links that `where` selects among its pivot rows, in the related ids' order. */
async function linkValues(
  sql: Sql,
  relation: ManyToManySpec,
  ownId: number,
  where: (values: Binder) => string,
): Promise<LinkValues[]> {
  const kinds = Object.entries(relation.pivotColumns ?? {});
  const values = new Binder(sql.dialect);
  const columns = kinds.map(([column]) => `, "link".${quote(column)}`).join("");
  const rows = await sql.rows(
    `SELECT "linked"."hash"${columns} FROM ${quote(relation.pivot)} AS "link" JOIN ${quote(relation.target().name)} AS "linked" ON "linked"."id" = "link".${quote(relation.otherKey)} WHERE "link".${quote(relation.ownKey)} = ${values.add(ownId)} AND ${where(values)} ORDER BY "link".${quote(relation.otherKey)}`,
    values.list,
  );
  return rows.map((row) => ({
    hash: String(row[0]),
    fields: Object.fromEntries(
      kinds.map(([column, kind], index) => [column, outputValue(kind, row[index + 1], sql)]),
    ),
  }));
}

/** A pivot field's value as the link's own routes output it (a decimal exactly as stored). */
function outputValue(kind: string, stored: unknown, sql: Sql): unknown {
  const value = decodeValue(kind as Parameters<typeof decodeValue>[0], stored, sql.dialect);
  if (value === null) return null;
  if (kind === "decimal") return String(value);
  return outputOf(kind)?.(value) ?? value;
}

function linkChanges(name: string, link: LinkValues, what: "attached" | "detached") {
  const side = (value: unknown): [unknown, unknown] =>
    what === "attached" ? [null, value] : [value, null];
  return {
    [name]: side(link.hash),
    ...Object.fromEntries(
      Object.entries(link.fields).map(([field, value]) => [`${name}.${field}`, side(value)]),
    ),
  };
}

/** The pivot fields whose values changed, as `<relation>.<field>`: [before, after]. */
function fieldChanges(name: string, before: LinkValues, after: LinkValues) {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [field, value] of Object.entries(after.fields))
    if (JSON.stringify(before.fields[field] ?? null) !== JSON.stringify(value))
      changes[`${name}.${field}`] = [before.fields[field] ?? null, value];
  return changes;
}

/** Records `.attached` for the related rows `ids` that `owner` is not linked to yet. */
async function recordAttached(
  sql: Sql,
  relation: ManyToManySpec,
  name: string,
  owner: LinkOwner,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await appendEventsOfRows(sql, owner.actor, `${owner.event}.${name}.attached`, (values) => {
    const hash = values.add(owner.hash);
    const changes = changeOfHashes(name, null, `"linked"."hash"`);
    const wanted = values.addAll(ids);
    const linked = `SELECT ${quote(relation.otherKey)} FROM ${quote(relation.pivot)} WHERE ${quote(relation.ownKey)} = ${values.add(owner.id)}`;
    return `SELECT ${hash} AS "hash", ${changes} AS "changes", ${tenantLiteral(owner.tenant)} AS "tenant" FROM ${quote(relation.target().name)} AS "linked" WHERE "linked"."id" IN (${wanted}) AND "linked"."id" NOT IN (${linked}) ORDER BY "linked"."id"`;
  });
}
