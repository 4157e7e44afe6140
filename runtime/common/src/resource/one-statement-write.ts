// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AnyTable, StatementEvent, Table, Writable } from "../data/table.js";
import type { ResourceDescriptor } from "./descriptor.js";
import { recordedKeys } from "./event-changes.js";
import { decidesInTransaction, type WriteRules } from "./write-rules.js";

/**
 * The event of a create or update the service can write as one statement with it (data/table/
 * one-statement.ts), or undefined when the write needs its transaction: a rule that decides under
 * the write's lock (the caller's reach, `locked`, `check`, a parent that must be the caller's), a
 * project's onWrite (`committing`), links to write, or a row that is not the whole read (a
 * belongsTo joined, a nested list asked for). What is left writes no related record and locks
 * nothing but its own row, which the statement itself locks.
 */
export function statementEventOf(
  table: AnyTable,
  event: { readonly type: string; readonly recorded: StatementEvent["recorded"] },
  rules: WriteRules,
  relations: readonly string[],
  linking: readonly string[],
): StatementEvent | undefined {
  if (decidesInTransaction(rules) || linking.length > 0 || !table.writesInOneStatement(relations))
    return undefined;
  return { ...event, actor: rules.actor ?? null };
}

/** The keys a resource's events record, with each one's decimal places. */
export function recordedColumns(resource: ResourceDescriptor): StatementEvent["recorded"] {
  return recordedKeys(resource).map((key) => ({ key, scale: resource.scales?.[key] ?? 0 }));
}

/** A create or update: in the write's transaction (an update's record locked, `id`), or as one statement with its event. */
export interface Write<Model, Row, T> {
  inTransaction(
    table: Table<Model, Row>,
    data: Writable<Model>,
    id: number | undefined,
  ): Promise<T>;
  withEvent(table: Table<Model, Row>, data: Writable<Model>, event: StatementEvent): Promise<T>;
}
