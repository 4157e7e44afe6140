// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { parseArgs } from "node:util";
import {
  databaseUrlProblem,
  ensureDatabaseFolder,
  explainOpenFailure,
  printableUrl,
} from "../db/database.js";
import { openSql } from "../db/driver.js";
import {
  applyMigrations,
  markMigrationsApplied,
  migrationStatus,
  MigrationFailed,
  MigrationRefused,
  readMigrationFiles,
  readMigrationRecords,
  resolveMigration,
} from "../db/migrations.js";
import { MigrationLockTimeout } from "../db/migration-lock.js";
import { applyContracts, ContractRefused, pendingContracts } from "../db/contracts.js";
import type { Sql } from "../db/sql.js";
import { messageOf } from "../base/records.js";

const usage = `usage:
  npm run db:migrate                              apply the pending migrations
  npm run db:status                               list applied and pending migrations
  npm run db:contract                             deploy: rolling: apply the contract steps, once no older build runs
  npm run db:resolve -- --rolled-back <name>      a failed migration left nothing behind: apply it again later
  npm run db:resolve -- --applied <name>          a failed migration was completed by hand`;

/**
 * `db:migrate`, `db:status` and `db:resolve` of the project; resolves to the exit code. `source`:
 * where DATABASE_URL came from, for messages that name the URL, its source and what to do.
 */
export async function runMigrateCommand(
  argv: string[],
  databaseUrl: string,
  dir: string,
  source: string = "the environment",
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { "rolled-back": { type: "string" }, applied: { type: "string" } },
    });
  } catch (error) {
    process.stderr.write(`${messageOf(error)}\n${usage}\n`);
    return 2;
  }
  const [command = "migrate"] = parsed.positionals;
  if (!["migrate", "status", "resolve", "contract"].includes(command)) {
    process.stderr.write(`unknown command "${command}"\n${usage}\n`);
    return 2;
  }
  // A URL of the other database (a SQLite URL left in .env after a switch to PostgreSQL, say).
  const wrongKind = databaseUrlProblem(databaseUrl, source);
  if (wrongKind) {
    process.stderr.write(`${wrongKind}\n`);
    return 1;
  }
  let db: Sql | undefined;
  try {
    ensureDatabaseFolder(databaseUrl);
    // One connection: the statements of a migration's transaction must share it.
    db = openSql(databaseUrl, 1);
    await db.get("SELECT 1 AS one");
  } catch (error) {
    process.stderr.write(`${explainOpenFailure(databaseUrl, source, error)}\n`);
    await db?.close().catch(() => undefined);
    return 1;
  }
  try {
    if (command === "status") return await printStatus(db, dir);
    if (command === "resolve") return await resolveFailed(db, dir, parsed.values);
    if (command === "contract") return await contract(db, dir);
    return await migrate(db, dir);
  } catch (error) {
    if (explainsItself(error)) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    const reason = messageOf(error).split("\n")[0];
    process.stderr.write(
      `Cannot migrate the database at DATABASE_URL (${printableUrl(databaseUrl)}, from ${source}): ${reason}\n`,
    );
    return 1;
  } finally {
    await db.close().catch(() => undefined);
  }
}

/** An error whose message already says what happened and what to do: printed as it is. */
function explainsItself(error: unknown): error is Error {
  return [MigrationFailed, MigrationRefused, MigrationLockTimeout, ContractRefused].some(
    (kind) => error instanceof kind,
  );
}

async function migrate(db: Sql, dir: string): Promise<number> {
  const report = await applyMigrations(db, dir);
  for (const missing of report.missing)
    process.stdout.write(`warning: ${missing} is applied but no longer in prisma/migrations\n`);
  for (const { name, statements, ms } of report.applied)
    process.stdout.write(`Applied ${name} (${statements} statements, ${ms} ms)\n`);
  // A running `npm run dev` restarts on it, so that its server starts on the new schema.
  if (report.applied.length > 0) markMigrationsApplied(dir);
  process.stdout.write(
    report.applied.length === 0
      ? `Nothing to migrate: the database is up to date (${report.upToDate} migration${report.upToDate === 1 ? "" : "s"}).\n`
      : `${report.applied.length} migration${report.applied.length === 1 ? "" : "s"} applied; the database is up to date.\n`,
  );
  return 0;
}

/** `db:contract`: the contract steps of applied migrations, refused while an older build serves. */
async function contract(db: Sql, dir: string): Promise<number> {
  const status = migrationStatus(readMigrationFiles(dir), await readMigrationRecords(db));
  const applied = await applyContracts(db, dir, status.applied);
  for (const name of applied) process.stdout.write(`Contracted ${name}\n`);
  process.stdout.write(
    applied.length === 0
      ? "No contract step to apply.\n"
      : "The old shape is gone; later migrations may be applied.\n",
  );
  return 0;
}

async function printStatus(db: Sql, dir: string): Promise<number> {
  const status = migrationStatus(readMigrationFiles(dir), await readMigrationRecords(db));
  const contracts = await pendingContracts(db, dir, status.applied);
  for (const name of status.applied) process.stdout.write(`applied   ${name}\n`);
  for (const name of status.failed) process.stdout.write(`failed    ${name}\n`);
  for (const name of status.modified) process.stdout.write(`modified  ${name}\n`);
  for (const name of status.missing) process.stdout.write(`missing   ${name}\n`);
  for (const file of status.pending) process.stdout.write(`pending   ${file.name}\n`);
  for (const name of contracts) process.stdout.write(`contract  ${name} (npm run db:contract)\n`);
  const behind = status.pending.length + status.failed.length;
  process.stdout.write(
    behind === 0
      ? "The database is up to date.\n"
      : "Run `npm run db:migrate` to apply what is pending.\n",
  );
  return behind === 0 ? 0 : 1;
}

async function resolveFailed(
  db: Sql,
  dir: string,
  values: { "rolled-back"?: string; applied?: string },
): Promise<number> {
  const rolledBack = values["rolled-back"];
  const applied = values.applied;
  if ((rolledBack === undefined) === (applied === undefined)) {
    process.stderr.write(
      `give exactly one of --rolled-back <name> or --applied <name>\n${usage}\n`,
    );
    return 2;
  }
  const name = (rolledBack ?? applied)!;
  await resolveMigration(db, name, rolledBack !== undefined ? "rolled-back" : "applied", dir);
  process.stdout.write(
    rolledBack !== undefined
      ? `Marked ${name} as rolled back: \`npm run db:migrate\` applies it again.\n`
      : `Marked ${name} as applied.\n`,
  );
  return 0;
}
