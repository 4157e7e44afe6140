// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Connection } from "./connection.js";

/*
 * Group commit. SQLite writes every page a transaction changed to the WAL at its COMMIT, and a
 * write with its event changes six or so (the row's table and index pages, the events table and its
 * indexes): most of what a write costs (bench/README.md "Issue 47, item 7": 180 µs a write with its
 * event alone in its transaction, 80 µs four to a transaction). So the transactions that end in the
 * same turn of the event loop commit together: each runs alone, in turn, inside a SAVEPOINT of one
 * open BEGIN IMMEDIATE, so each still decides its checks under the one write lock and a failing one
 * is undone alone; COMMIT comes once the turn's other requests have had their go (setImmediate),
 * and only then does any of them learn that its transaction committed. Nothing is acknowledged
 * before it is durable; a COMMIT that fails rejects every transaction of its group.
 *
 * Between two transactions of a group, the process's plain reads run inside the open transaction
 * and so see the group's writes before their COMMIT (which, short of a disk error, follows within
 * the turn); a plain write, or a script, first commits the group, so that it commits on its own.
 */

/** The most transactions one COMMIT takes: a bound on the work a failed COMMIT undoes. */
export const largestGroup = 64;

interface Waiting {
  readonly committed: () => void;
  readonly failed: (error: unknown) => void;
}

export class CommitGroup {
  private waiting: Waiting[] = [];
  private scheduled = false;
  // The group's own BEGIN: a transaction someone else began (a migration's script) is never joined.
  private began = false;

  constructor(private readonly connection: Connection) {}

  /** True while transactions wait for their COMMIT. */
  get open(): boolean {
    return this.waiting.length > 0;
  }

  /**
   * Runs `work` as the group's next transaction (opening the group when none is open). Resolves
   * when `work` is done, before the COMMIT, to the promise of its result once committed.
   */
  async add<T>(work: () => Promise<T>): Promise<{ committed: Promise<T> }> {
    const { control } = this.connection;
    if (!this.began) {
      control.begin();
      this.began = true;
    }
    control.savepoint();
    let result: T;
    try {
      result = await work();
    } catch (error) {
      this.undo(error);
      throw error;
    }
    control.release();
    const committed = new Promise<T>((resolve, reject) => {
      this.waiting.push({ committed: () => resolve(result), failed: reject });
    });
    if (this.waiting.length >= largestGroup) this.commit();
    else this.schedule();
    return { committed };
  }

  /** Commits the open group now (a plain write, a script or closing must not join it). */
  commit(): void {
    const group = this.waiting;
    this.waiting = [];
    this.began = false;
    if (!this.connection.db.inTransaction) {
      // SQLite rolled the transaction back by itself (a full disk, an I/O error) in a statement
      // outside the group's transactions, where undo() does not see it: nothing is left to commit.
      for (const member of group) member.failed(new Error("the transaction was rolled back"));
      return;
    }
    try {
      this.connection.control.commit();
    } catch (error) {
      if (this.connection.db.inTransaction) this.connection.control.rollback();
      for (const member of group) member.failed(error);
      return;
    }
    for (const member of group) member.committed();
  }

  /**
   * Undoes the failed transaction alone, back to its SAVEPOINT; or, when SQLite has already rolled
   * the whole group back (a full disk, an I/O error), fails the group's waiting members with it.
   */
  private undo(error: unknown): void {
    const { control, db } = this.connection;
    if (db.inTransaction) {
      control.rollbackToSavepoint();
      control.release();
      if (this.waiting.length === 0) this.commit();
      return;
    }
    const lost = this.waiting;
    this.waiting = [];
    this.began = false;
    for (const member of lost) member.failed(error);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.open) this.commit();
    });
  }
}
