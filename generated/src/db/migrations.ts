// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { projectPath } from "../base/project-files.js";
import {
  beginWhenFree,
  defaultLockWait,
  takeMigrationLock,
  type LockWait,
} from "./migration-lock.js";
import { splitStatements } from "./sql-script.js";
import { MigrationFailed, MigrationRefused } from "./migration-errors.js";
import { contractAfter, contractFirst, contractTables, pendingContracts } from "./contracts.js";
import { sql, type Sql } from "./sql.js";
import { messageOf } from "../base/records.js";

export { splitStatements };
export { MigrationFailed, MigrationRefused };

/**
 * The project's migrations (prisma/migrations/<NNNN_name>/migration.sql) and what the database has
 * applied, in Prisma's own `_prisma_migrations` table (same columns, same SHA-256 checksums), so
 * `prisma migrate status` and this module agree. Why not `prisma migrate deploy`: it does not run a
 * migration in one transaction (a failure leaves half a table rebuild behind and a failed record that
 * only the engine binary can resolve), it fails while a server holds the SQLite file open, and on
 * PostgreSQL its WebAssembly engine fails through the driver adapter (prisma/orm#27403).
 */
export const migrationsDir = "prisma/migrations";

/**
 * The project's migrations folder seen from a module of it (`import.meta.url` of dist/server.js,
 * src/app.ts, dist/scripts/migrate.js, test/support.ts…): right whatever the working directory.
 */
export function migrationsPath(moduleUrl: string): string {
  return projectPath(moduleUrl, migrationsDir);
}

/**
 * A file `npm run db:migrate` rewrites after it applied migrations, which `npm run dev` watches to
 * restart its server on the new schema. Under node_modules/.cache: never committed, never shipped.
 */
export function appliedMarkerPath(dir: string): string {
  return join(dir, "../../node_modules/.cache/hashapi/migrations-applied");
}

export function markMigrationsApplied(dir: string): void {
  const marker = appliedMarkerPath(dir);
  try {
    mkdirSync(dirname(marker), { recursive: true });
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  } catch {
    // Only a convenience for `npm run dev`: a read-only node_modules must not fail a migration.
  }
}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** A row of `_prisma_migrations`, as far as deciding what to do goes. */
export interface MigrationRecord {
  name: string;
  checksum: string;
  finished: boolean;
  rolledBack: boolean;
}

export interface MigrationStatus {
  /** On disk, not applied yet, in order. */
  pending: MigrationFile[];
  applied: string[];
  /** Started and never finished nor rolled back (only `prisma migrate deploy` leaves these). */
  failed: string[];
  /** Applied, but the file changed since. */
  modified: string[];
  /** Applied, but no longer on disk. */
  missing: string[];
}

export function checksumOf(sql: string): string {
  return createHash("sha256").update(sql).digest("hex");
}

/** The names of the migrations on disk (their folders), in the order they apply. */
function migrationNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d+_/.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .filter((name) => existsSync(join(dir, name, "migration.sql")));
}

/** The newest migration on disk: what a build holds (app/instance-beacon.ts). */
export function latestMigration(dir = migrationsDir): string | undefined {
  return migrationNames(dir).at(-1);
}

/** The migrations on disk, in the order they apply. */
export function readMigrationFiles(dir = migrationsDir): MigrationFile[] {
  return migrationNames(dir).map((name) => {
    const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
    return { name, sql, checksum: checksumOf(sql) };
  });
}

/** What the database recorded; none when the migrations table does not exist yet. */
export async function readMigrationRecords(db: Sql): Promise<MigrationRecord[]> {
  try {
    const rows = await db.all(
      `SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"`,
    );
    return rows.map((row) => ({
      name: String(row.migration_name),
      checksum: String(row.checksum),
      finished: row.finished_at !== null,
      rolledBack: row.rolled_back_at !== null,
    }));
  } catch (error) {
    if (db.dialect.errors.isSchemaBehind(error) && /_prisma_migrations/.test(String(error)))
      return [];
    throw error;
  }
}

/** The records of migrations that are done (finished, not rolled back), by name. */
function doneRecords(records: readonly MigrationRecord[]): Map<string, MigrationRecord> {
  return new Map(
    records.filter((record) => record.finished && !record.rolledBack).map((r) => [r.name, r]),
  );
}

/** Started, never finished nor rolled back, and not done since (only `prisma migrate deploy` leaves these). */
function failedNames(
  records: readonly MigrationRecord[],
  done: ReadonlyMap<string, MigrationRecord>,
): string[] {
  return records
    .filter((record) => !record.finished && !record.rolledBack && !done.has(record.name))
    .map((record) => record.name);
}

export function migrationStatus(
  files: readonly MigrationFile[],
  records: readonly MigrationRecord[],
): MigrationStatus {
  const done = doneRecords(records);
  const onDisk = new Set(files.map((file) => file.name));
  return {
    pending: files.filter((file) => !done.has(file.name)),
    applied: files.filter((file) => done.has(file.name)).map((file) => file.name),
    failed: failedNames(records, done),
    modified: files
      .filter((file) => done.has(file.name) && done.get(file.name)!.checksum !== file.checksum)
      .map((file) => file.name),
    missing: [...done.keys()].filter((name) => !onDisk.has(name)),
  };
}

/**
 * The migrations a database still needs: what a server checks before it starts and on every health
 * check. Names only: no migration file is read or hashed for it.
 */
export async function pendingMigrations(db: Sql, dir = migrationsDir): Promise<string[]> {
  const records = await readMigrationRecords(db);
  const done = doneRecords(records);
  const pending = migrationNames(dir).filter((name) => !done.has(name));
  return [...new Set([...failedNames(records, done), ...pending])];
}

export interface MigrateReport {
  applied: { name: string; statements: number; ms: number }[];
  upToDate: number;
  missing: string[];
  /** With `waitForEmpty`: the pending migration left unapplied, with those after it, as its file is empty. */
  waiting?: string;
}

export interface ApplyOptions {
  /**
   * Stop before a pending migration whose file is empty: a file being written (an editor that
   * truncates, then writes) looks so for a moment, and applied then it would be recorded with the
   * checksum of nothing and refused as changed once written. `npm run dev` waits for the write;
   * `npm run db:migrate` applies an empty migration as Prisma does, as a no-op.
   */
  waitForEmpty?: boolean;
  /** How long to wait for another migrator, and where to say so (db/migration-lock.ts). */
  lockWait?: LockWait;
}

/**
 * Applies every pending migration, each in one transaction with its record: a failure rolls the
 * whole migration back and throws MigrationFailed. `db` must be a connection of its own (SQLite: one
 * connection; PostgreSQL: a pool of one), as statements of a transaction must share it.
 *
 * SQLite: a migration that rebuilds a table turns foreign keys off, which SQLite ignores inside a
 * transaction; so they are turned off around it here, and `PRAGMA foreign_key_check` must find no
 * orphan before the commit. Each migration starts with BEGIN IMMEDIATE, which waits (busy_timeout)
 * while a running server writes, and is tried again while another migrator holds the write lock.
 * PostgreSQL: one advisory lock for the whole run. Either way a second migrator says what it waits
 * for, then finds the migrations the first applied recorded and skips them.
 */
export async function applyMigrations(
  db: Sql,
  dir = migrationsDir,
  options: ApplyOptions = {},
): Promise<MigrateReport> {
  const files = readMigrationFiles(dir);
  const { migrations } = db.dialect;
  const wait = options.lockWait ?? defaultLockWait;
  // Made under the lock: two migrators creating one table at once can collide on PostgreSQL.
  await takeMigrationLock(db, wait);
  try {
    for (const table of [migrations.recordsTable, ...contractTables]) await db.exec(table);
    for (const setting of migrations.settings) await db.exec(setting);
    const before = migrationStatus(files, await readMigrationRecords(db));
    refuseToProceed(before);
    const applied: MigrateReport["applied"] = [];
    // A migration whose contract step is not applied yet holds back every later one.
    let behind: string | undefined = (await pendingContracts(db, dir, before.applied))[0];
    const fresh = before.applied.length === 0;
    for (const file of before.pending) {
      if (behind !== undefined) throw new MigrationRefused(contractFirst(behind, file.name));
      if (options.waitForEmpty && file.sql.trim() === "")
        return {
          applied,
          upToDate: files.length - applied.length,
          missing: before.missing,
          waiting: file.name,
        };
      const started = performance.now();
      const statements = splitStatements(file.sql);
      if (await applyOne(db, file, statements, wait))
        applied.push({
          name: file.name,
          statements: statements.length,
          ms: Math.round(performance.now() - started),
        });
      behind = await contractAfter(db, dir, file.name, fresh, wait);
    }
    return { applied, upToDate: files.length - applied.length, missing: before.missing };
  } finally {
    if (migrations.lock) await db.exec(migrations.lock.release);
  }
}

function refuseToProceed(status: MigrationStatus): void {
  if (status.failed.length > 0)
    throw new MigrationRefused(
      `Migration ${status.failed[0]} was started earlier and never finished (recorded by \`prisma migrate deploy\`).\n` +
        `Check the database: if the migration left nothing behind, run \`npm run db:resolve -- --rolled-back ${status.failed[0]}\` ` +
        `and then \`npm run db:migrate\`; if you completed it by hand, run \`npm run db:resolve -- --applied ${status.failed[0]}\`.`,
    );
  if (status.modified.length > 0)
    throw new MigrationRefused(
      `Migration ${status.modified.join(", ")} changed after it was applied: restore ${migrationsDir}/${status.modified[0]}/migration.sql from version control.\n` +
        "An applied migration is history; a change to the schema belongs in a new one (`hashapi generate` writes it).",
    );
}

/** Applies one migration; false when another migrator applied it while this one waited. */
async function applyOne(
  db: Sql,
  file: MigrationFile,
  statements: string[],
  wait: LockWait,
): Promise<boolean> {
  const { foreignKeysOff, foreignKeysOn, foreignKeyCheck, begin } = db.dialect.migrations;
  if (foreignKeysOff) await db.exec(foreignKeysOff);
  try {
    await beginWhenFree(db, begin, wait);
    try {
      const records = await readMigrationRecords(db);
      if (migrationStatus([file], records).applied.length > 0) {
        await db.exec("ROLLBACK");
        return false;
      }
      const refusals = refusalChecks(file.sql);
      for (const statement of statements) {
        const refusal = refusals.get(statement);
        if (refusal !== undefined) {
          await refuseWhenRows(db, file.name, statement, refusal);
          continue;
        }
        try {
          await db.exec(statement);
        } catch (error) {
          throw new MigrationFailed(file.name, statement, messageOf(error));
        }
      }
      if (foreignKeyCheck) await assertNoOrphans(db, file.name, foreignKeyCheck);
      const now = new Date();
      await db.run(
        sql`INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "applied_steps_count", "started_at")
          VALUES (${randomUUID()}, ${file.checksum}, ${now}, ${file.name}, 1, ${now})`,
      );
      await db.exec("COMMIT");
      return true;
    } catch (error) {
      await db.exec("ROLLBACK").catch(() => undefined);
      throw error;
    }
  } finally {
    if (foreignKeysOn) await db.exec(foreignKeysOn);
  }
}

const refusalDirective = "-- hashapi:refuse-when-rows ";

/**
 * The checks a migration asks for: a `-- hashapi:refuse-when-rows <why>` line before a SELECT makes
 * that SELECT a question, not a step: any row it returns refuses the whole migration, saying why and
 * listing the rows (the clashes a new unique index could not take, say), so that the owner decides
 * what becomes of them. Statement text → why.
 */
export function refusalChecks(script: string): Map<string, string> {
  const checks = new Map<string, string>();
  const lines = script.split("\n");
  lines.forEach((line, index) => {
    if (!line.startsWith(refusalDirective)) return;
    const rest = lines.slice(index + 1).join("\n");
    const [statement] = splitStatements(rest);
    if (statement !== undefined) checks.set(statement, line.slice(refusalDirective.length).trim());
  });
  return checks;
}

async function refuseWhenRows(
  db: Sql,
  migration: string,
  query: string,
  why: string,
): Promise<void> {
  const rows = await db.all(query);
  if (rows.length === 0) return;
  const listed = rows.slice(0, 20).map(
    (row) =>
      `  - ${Object.entries(row)
        .map(([column, value]) => `${column}: ${String(value)}`)
        .join(", ")}`,
  );
  const more = rows.length > 20 ? [`  … and ${rows.length - 20} more`] : [];
  throw new MigrationRefused(
    `Migration ${migration} was not applied. ${why}\n${[...listed, ...more].join("\n")}`,
  );
}

async function assertNoOrphans(db: Sql, migration: string, check: string): Promise<void> {
  const orphans = await db.all(check);
  if (orphans.length === 0) return;
  const first = orphans[0]!;
  throw new MigrationFailed(
    migration,
    check,
    `${orphans.length} row(s) would point at rows that do not exist (first: ${String(first.table)} row ${String(first.rowid)} → ${String(first.parent)})`,
  );
}

/** Marks a failed migration as rolled back (to apply it again) or as applied (done by hand). */
export async function resolveMigration(
  db: Sql,
  name: string,
  as: "rolled-back" | "applied",
  dir = migrationsDir,
): Promise<void> {
  const files = readMigrationFiles(dir);
  const status = migrationStatus(files, await readMigrationRecords(db));
  if (!status.failed.includes(name))
    throw new MigrationRefused(
      status.failed.length === 0
        ? `No failed migration is recorded; nothing to resolve.`
        : `${name} is not a failed migration; the failed one is ${status.failed.join(", ")}.`,
    );
  const now = new Date();
  if (as === "rolled-back") {
    await db.run(
      sql`UPDATE "_prisma_migrations" SET "rolled_back_at" = ${now}
        WHERE "migration_name" = ${name} AND "finished_at" IS NULL AND "rolled_back_at" IS NULL`,
    );
    return;
  }
  const file = files.find((candidate) => candidate.name === name);
  if (!file) throw new MigrationRefused(`${migrationsDir}/${name}/migration.sql is not on disk.`);
  await db.run(
    sql`UPDATE "_prisma_migrations" SET "finished_at" = ${now}, "checksum" = ${file.checksum}
      WHERE "migration_name" = ${name} AND "finished_at" IS NULL AND "rolled_back_at" IS NULL`,
  );
}
