// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { quote, type Binder, type Sql } from "../sql.js";
import type { ManyToManySpec } from "../table/spec.js";
import { appendEventsOfRows, changeOfHashes, type Actor } from "./outbox.js";

/*
 * The events of a belongsToMany's links: `<resource>.<relation>.attached` and `.detached`, about the
 * record that owns the link, with `{ <relation>: [null, "<hash>"] }` (or the reverse), appended by
 * the statement that selects the links a write is about to add or remove, before it does.
 */

/** The record whose links a write changes, and who writes. */
export interface LinkOwner {
  readonly id: number;
  readonly hash: string;
  /** Its table's event name (`doctor`). */
  readonly event: string;
  readonly actor: Actor | null;
}

/** The related row's hash, for a statement over the pivot. */
function linkedHash(relation: ManyToManySpec): string {
  return `(SELECT "linked"."hash" FROM ${quote(relation.target().name)} AS "linked" WHERE "linked"."id" = ${quote(relation.pivot)}.${quote(relation.otherKey)})`;
}

/**
 * Records `.detached` for the links of `owner` that `where` selects among its pivot rows (its text
 * binds through the Binder it is given, after the owner's own values).
 */
export function recordDetached(
  sql: Sql,
  relation: ManyToManySpec,
  name: string,
  owner: LinkOwner,
  where: (values: Binder) => string,
): Promise<void> {
  return appendEventsOfRows(sql, owner.actor, `${owner.event}.${name}.detached`, (values) => {
    const hash = values.add(owner.hash);
    const changes = changeOfHashes(name, linkedHash(relation), null);
    const mine = `${quote(relation.ownKey)} = ${values.add(owner.id)}`;
    return `SELECT ${hash} AS "hash", ${changes} AS "changes" FROM ${quote(relation.pivot)} WHERE ${mine} AND ${where(values)}`;
  });
}

/** Records `.attached` for the related rows `ids` that `owner` is not linked to yet. */
export async function recordAttached(
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
    return `SELECT ${hash} AS "hash", ${changes} AS "changes" FROM ${quote(relation.target().name)} AS "linked" WHERE "linked"."id" IN (${wanted}) AND "linked"."id" NOT IN (${linked}) ORDER BY "linked"."id"`;
  });
}
