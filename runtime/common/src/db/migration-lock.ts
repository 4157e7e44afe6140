// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { messageOf } from "../base/records.js";
import type { Sql } from "./sql.js";

/*
 * One migrator at a time: instances of a service started together each run `npm run db:migrate`,
 * and each migration must be applied once. PostgreSQL: a session advisory lock, taken without
 * waiting, so that the waiter can say whom it waits for; SQLite: each migration's BEGIN IMMEDIATE,
 * which waits busy_timeout (5 s) and is tried again. Either way the waiter says what it waits for,
 * then every `reportEveryMs` how long it has, and gives up after `waitMs` with what held it.
 */

export interface LockWait {
  /** Where the waiter's lines go (the migrate command: stderr). */
  readonly say: (line: string) => void;
  readonly waitMs: number;
  readonly pollMs: number;
  readonly reportEveryMs: number;
}

export const defaultLockWait: LockWait = {
  say: (line) => process.stderr.write(`${line}\n`),
  waitMs: 15 * 60_000,
  pollMs: 500,
  reportEveryMs: 15_000,
};

/** A migrator that waited `waitMs` for another one and gave up: the message says who held the lock. */
export class MigrationLockTimeout extends Error {}

/** Takes the dialect's migration lock (where it has one), waiting while another migrator holds it. */
export async function takeMigrationLock(db: Sql, wait: LockWait): Promise<void> {
  const lock = db.dialect.migrations.lock;
  if (lock === undefined) return;
  const taken = async () => Boolean((await db.get(lock.take))?.taken);
  const holder = async () => describeHolders(await db.all(lock.holder).catch(() => []));
  await waitUntil(taken, holder, "the migration lock (PostgreSQL advisory lock)", wait);
}

/**
 * Runs `begin` (SQLite: BEGIN IMMEDIATE), trying again while the database answers that it is
 * locked by another process: a migrator applying a long migration, or a long write.
 */
export async function beginWhenFree(db: Sql, begin: string, wait: LockWait): Promise<void> {
  const { waitless } = db.dialect.migrations;
  let last: unknown;
  let attempts = 0;
  const began = async () => {
    // The first attempt fails at once where BEGIN would wait silently; later ones wait as usual.
    if (waitless) await db.exec(attempts === 0 ? waitless.on : waitless.off);
    attempts += 1;
    try {
      await db.exec(begin);
      return true;
    } catch (error) {
      if (!/database is locked|SQLITE_BUSY/i.test(messageOf(error))) throw error;
      last = error;
      return false;
    } finally {
      if (waitless && attempts === 1) await db.exec(waitless.off);
    }
  };
  const holder = async () =>
    `another process holds it (SQLite: ${messageOf(last)}): another \`npm run db:migrate\`, or a long write`;
  await waitUntil(began, holder, "the database's write lock", wait);
}

async function waitUntil(
  attempt: () => Promise<boolean>,
  holder: () => Promise<string>,
  what: string,
  wait: LockWait,
): Promise<void> {
  if (await attempt()) return;
  const started = Date.now();
  wait.say(
    `Waiting for ${what}: ${await holder()}. Each migration is applied once: this migrator goes on when it is free.`,
  );
  let reported = started;
  for (;;) {
    await new Promise((done) => setTimeout(done, wait.pollMs));
    if (await attempt()) {
      wait.say(`Took ${what} after ${Math.round((Date.now() - started) / 1000)} s.`);
      return;
    }
    const now = Date.now();
    if (now - started >= wait.waitMs)
      throw new MigrationLockTimeout(
        `Gave up after waiting ${Math.round((now - started) / 1000)} s for ${what}: ${await holder()}. ` +
          "If that migrator is stuck, end it (PostgreSQL: SELECT pg_terminate_backend(<pid>)) and run `npm run db:migrate` again.",
      );
    if (now - reported >= wait.reportEveryMs) {
      reported = now;
      wait.say(
        `Still waiting for ${what} (${Math.round((now - started) / 1000)} s): ${await holder()}.`,
      );
    }
  }
}

function describeHolders(rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return "held by a session that just let it go";
  return rows
    .map(
      (row) =>
        `held by process ${String(row.pid)} from ${String(row.client)} for ${String(row.seconds)} s` +
        (row.doing ? `, running: ${String(row.doing)}` : ""),
    )
    .join("; ");
}
