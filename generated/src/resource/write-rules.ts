// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Actor } from "../data/outbox.js";
import type { SqlRow, Sql } from "../db/sql.js";
import type { Reach, StoredRow } from "../data/table.js";
import type { ParentRule } from "./payload-columns.js";
import type { TenantRule } from "./tenancy.js";

/**
 * What a write must hold to, decided in its own transaction (with what it reads locked), never in
 * a read before it: `parent` names a belongsTo payload key whose record must also match `where`
 * (an owned resource's parent: the caller's own), else the 422 of an unknown record; `check` runs
 * first and throws to refuse (the last user of a role, say).
 */
export interface WriteRules {
  readonly parent?: ParentRule;
  readonly check?: (sql: Sql) => Promise<void>;
  /** Per belongsToMany payload key, the related rows the caller reaches (its scope there): no other may be linked. */
  readonly links?: Readonly<Record<string, Reach | undefined>>;
  /**
   * The caller's reach on the record an update, delete or restore writes (ownership, a policy's
   * scope): decided again under the record's lock in the write's own transaction, so a record
   * reassigned or moved out of reach meanwhile is the 404 of a missing one and nothing is written.
   */
  readonly reach?: Reach;
  /** A rule on the record as locked for that write (its stored columns): throws to refuse. */
  readonly locked?: (row: SqlRow) => void | Promise<void>;
  /** Who writes, recorded with the write's events (data/outbox.ts): none for seeds and scripts. */
  readonly actor?: Actor | null;
  /**
   * Runs in the write's transaction after the record and its events are written, before the
   * commit (the controller's onWrite: jobs enqueued with the write): throws to roll it back.
   */
  readonly committing?: (sql: Sql, record: StoredRow) => Promise<void>;
  /**
   * With tenancy: the tenant the write is in, decided first in its transaction (the writer still
   * works there, under a lock), the tenant of a created record, and of every record it names.
   */
  readonly tenant?: TenantRule;
  /**
   * The files a payload names (file-attachments.ts): attached to the written record in its
   * transaction, and the ones it replaced (`before`, the record as locked) released after commit.
   */
  readonly files?: (sql: Sql, record: StoredRow, before: SqlRow | null) => Promise<void>;
}

/** What decides whether a write may touch an existing record, under its lock (see WriteRules). */
export type RecordRules = Pick<
  WriteRules,
  "check" | "reach" | "locked" | "actor" | "committing" | "tenant"
>;

/** Whether a write to an existing record must lock it and decide the caller's reach on it first. */
export function guards(rules: RecordRules): boolean {
  return rules.reach !== undefined || rules.locked !== undefined || rules.tenant !== undefined;
}

/**
 * Whether a write has anything to decide in its own transaction: its record's guards (reach,
 * `locked`), a `check`, a `parent` that must match, or a `committing` step that writes with it.
 * A write that has none can be one statement with its event (one-statement-write.ts).
 */
export function decidesInTransaction(rules: WriteRules): boolean {
  return (
    guards(rules) ||
    rules.check !== undefined ||
    rules.parent !== undefined ||
    rules.committing !== undefined ||
    rules.files !== undefined
  );
}
