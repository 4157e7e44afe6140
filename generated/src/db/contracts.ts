// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { messageOf } from "../base/records.js";
import {
  beginWhenFree,
  defaultLockWait,
  takeMigrationLock,
  type LockWait,
} from "./migration-lock.js";
import { splitStatements } from "./sql-script.js";
import { sql, type Sql } from "./sql.js";

/*
 * `deploy: rolling` (hashapi.yaml): a migration the running build cannot survive comes with a
 * contract step, `prisma/migrations/<name>/contract.sql`, which `npm run db:contract` applies once
 * no instance of an older build runs. Instances say they run in `hashapi_instances` (one row per
 * serving process, seen every 10 s, deleted at shutdown: app/instance-beacon.ts); contracts applied
 * are recorded in `hashapi_contracts`. Until a migration's contract is applied, no later migration
 * is: each rollout is expand, switch, contract, in that order.
 */

export const contractFileName = "contract.sql";

/** An instance unseen for this long is taken for gone (it stopped without saying so: killed). */
export const instanceStaleMs = 30_000;

export const contractTables = [
  `CREATE TABLE IF NOT EXISTS "hashapi_contracts" ("migration_name" VARCHAR(255) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "applied_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
  `CREATE TABLE IF NOT EXISTS "hashapi_instances" ("id" VARCHAR(36) PRIMARY KEY NOT NULL, "host" VARCHAR(255) NOT NULL, "pid" INTEGER NOT NULL, "migration" VARCHAR(255) NOT NULL, "started_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP, "seen_at" TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
];

/** A migration's contract step on disk. */
export function contractOf(dir: string, migration: string): string | undefined {
  const path = join(dir, migration, contractFileName);
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

async function appliedContracts(db: Sql): Promise<Set<string>> {
  const rows = await db.all(`SELECT "migration_name" FROM "hashapi_contracts"`).catch(() => []);
  return new Set(rows.map((row) => String(row.migration_name)));
}

/** Applied migrations whose contract step is on disk and not applied yet, in order. */
export async function pendingContracts(
  db: Sql,
  dir: string,
  applied: readonly string[],
): Promise<string[]> {
  const done = await appliedContracts(db);
  return applied.filter((name) => !done.has(name) && contractOf(dir, name) !== undefined);
}

/**
 * After `migration` is applied: the migration that now holds back later ones (its contract is
 * pending), or undefined. On a database that had no migration when the run began (a new
 * environment, a test database) no older build can run on it: the contract is applied at once.
 */
export async function contractAfter(
  db: Sql,
  dir: string,
  migration: string,
  fresh: boolean,
  wait: LockWait,
): Promise<string | undefined> {
  const script = contractOf(dir, migration);
  if (script === undefined) return undefined;
  if (!fresh) return migration;
  await applyContract(db, migration, script, wait);
  return undefined;
}

/** Why `migration` may not be applied while `behind`'s contract is not: the way forward. */
export function contractFirst(behind: string, migration: string): string {
  return (
    `Migration ${migration} waits for the contract step of ${behind}: each rolling deploy is expand, switch, contract.\n` +
    `Once no instance of the build before ${behind} runs, run \`npm run db:contract\`, then \`npm run db:migrate\` again.`
  );
}

/**
 * Instances seen lately that run a build older than `migration` (their newest migration precedes
 * it). "Lately" by the database's clock, which also stamped the beats: hosts' clocks and time zones
 * never meet.
 */
async function olderInstances(db: Sql, migration: string): Promise<Record<string, unknown>[]> {
  const now = instant((await db.get(`SELECT CURRENT_TIMESTAMP AS "now"`))?.now);
  const rows = await db.all(
    sql`SELECT "host", "pid", "migration", "seen_at" FROM "hashapi_instances" WHERE "migration" < ${migration} ORDER BY "host", "pid"`,
  );
  return rows.filter((row) => now - instant(row.seen_at) < instanceStaleMs);
}

/** A timestamp as the driver returns it: a Date (PostgreSQL) or SQLite's `YYYY-MM-DD HH:MM:SS` in UTC. */
function instant(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  const text = String(value);
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(" ", "T")}Z`);
}

export class ContractRefused extends Error {}

/**
 * Applies every pending contract step, each in one transaction with its record, under the
 * migration lock; refuses (ContractRefused, nothing applied) while an instance of a build older
 * than the migration is seen. Returns the migrations whose contract it applied.
 */
export async function applyContracts(
  db: Sql,
  dir: string,
  applied: readonly string[],
  wait: LockWait = defaultLockWait,
): Promise<string[]> {
  await takeMigrationLock(db, wait);
  const done: string[] = [];
  try {
    // Under the lock, as db:migrate does: tables made once, statements bounded by lock_timeout.
    for (const statement of contractTables) await db.exec(statement);
    for (const setting of db.dialect.migrations.settings) await db.exec(setting);
    for (const name of await pendingContracts(db, dir, applied)) {
      const older = await olderInstances(db, name);
      if (older.length > 0)
        throw new ContractRefused(
          `The contract step of ${name} would take away what the build before it reads, and ${older.length === 1 ? "an instance of that build runs" : `${older.length} instances of such builds run`}:\n` +
            older
              .map(
                (row) =>
                  `  - ${String(row.host)}, process ${String(row.pid)} (migrations up to ${String(row.migration)}), seen ${new Date(instant(row.seen_at)).toISOString()}`,
              )
              .join("\n") +
            `\nFinish the rollout (stop them), then run \`npm run db:contract\` again. An instance killed without a shutdown is taken for gone ${instanceStaleMs / 1000} s after it was last seen.`,
        );
      await applyContract(db, name, contractOf(dir, name)!, wait);
      done.push(name);
    }
    return done;
  } finally {
    if (db.dialect.migrations.lock) await db.exec(db.dialect.migrations.lock.release);
  }
}

/** One contract step in its transaction, with its record (ContractRefused when a statement fails). */
export async function applyContract(
  db: Sql,
  name: string,
  script: string,
  wait: LockWait,
): Promise<void> {
  await beginWhenFree(db, db.dialect.migrations.begin, wait);
  try {
    for (const statement of splitStatements(script)) {
      try {
        await db.exec(statement);
      } catch (error) {
        throw new ContractRefused(
          `The contract step of ${name} failed and was rolled back: the database is as it was before it.\n  statement: ${statement.slice(0, 300)}\n  reason: ${messageOf(error)}`,
        );
      }
    }
    await db.run(
      sql`INSERT INTO "hashapi_contracts" ("migration_name", "checksum", "applied_at") VALUES (${name}, ${createHash("sha256").update(script).digest("hex")}, ${new Date()})`,
    );
    await db.exec("COMMIT");
  } catch (error) {
    await db.exec("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
