// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  databaseDialect,
  defaultDatabaseUrl,
  defaultStatementTimeoutMs,
  openSql,
  requestLimitsShared,
} from "./driver.js";
import type { Sql, SqlDialect } from "./sql.js";

export { isForeignKeyViolation, isUniqueViolation } from "./database-errors.js";
export { sql } from "./sql.js";
export { databaseDialect, defaultDatabaseUrl, defaultStatementTimeoutMs, requestLimitsShared };

/** A database URL fit for a message: the password, if any, masked. */
export function printableUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, "$1***@");
}

/**
 * Why DATABASE_URL cannot be this project's database (a SQLite URL left in `.env` after a switch to
 * PostgreSQL, say), naming where it came from and the form expected; undefined when it can be.
 */
export function databaseUrlProblem(url: string, source: string): string | undefined {
  const expected = databaseDialect.url;
  if (expected.test.test(url)) return undefined;
  return `DATABASE_URL (from ${source}) must be a ${expected.label} URL such as "${expected.example}": this project's database is ${expected.label} (\`database:\` in hashapi.yaml); got "${printableUrl(url)}"`;
}

/**
 * Why the service cannot open its database, in one line that says what to do: which DATABASE_URL
 * was tried and where it came from (`.env`, the environment, or the default), the driver's own
 * reason, and the way forward. A SQLite file whose folder does not exist yet means no migration ran.
 * `dialect`: the database's (this project's, but for tests of another's words).
 */
export function explainOpenFailure(
  url: string,
  source: string,
  error: unknown,
  dialect: SqlDialect = databaseDialect,
): string {
  const message = error instanceof Error ? error.message : String(error);
  // The driver's last line when it says more than one.
  const reason =
    message
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? "unknown error";
  const tried = `DATABASE_URL (${printableUrl(url)}, from ${source})`;
  if (dialect.embedded)
    return /directory does not exist/i.test(reason)
      ? `Cannot open the database at ${tried}: its folder does not exist yet. Run \`npm run db:migrate\` first: it creates the database and its tables.`
      : `Cannot open the database at ${tried}: ${reason}`;
  const { label, example } = dialect.url;
  const where =
    source === "the default"
      ? ` Set DATABASE_URL in .env (or the environment) to your ${label} server, e.g. ${example}.`
      : ` Check that the ${label} server in DATABASE_URL (${source}) is running and reachable.`;
  return `Cannot open the database at ${tried}: ${reason}.${where}`;
}

/** A SQLite file's folder, made if missing: migrating is what creates the database. */
export function ensureDatabaseFolder(url: string): void {
  if (databaseDialect.embedded && url.startsWith("file:"))
    mkdirSync(dirname(resolve(url.slice("file:".length).split("?")[0]!)), { recursive: true });
}

/**
 * A read replica's connections (DATABASE_REPLICA_URLS), opened without a first check: a replica
 * that is away at start-up is skipped until it answers (db/replicas.ts), it does not stop the start.
 */
export function openReplica(url: string, poolSize: number, statementTimeoutMs: number): Database {
  return openSql(url, poolSize, statementTimeoutMs, behindPooler(url));
}

/**
 * Whether DATABASE_URL is a pooler in transaction mode (PgBouncer): `pgbouncer=true` in it, or a
 * DIRECT_DATABASE_URL beside it (docs: migrations and advisory locks use that one, so DATABASE_URL
 * is the pooled one). The driver then uses only what such a pooler passes through.
 */
export function behindPooler(url: string, environment: NodeJS.ProcessEnv = process.env): boolean {
  return /[?&]pgbouncer=true(&|$)/.test(url) || Boolean(environment.DIRECT_DATABASE_URL);
}

/** What the tables and the auth service read and write through (see sql.ts for why not Prisma Client). */
export type Database = Sql;

/**
 * Opens the database and checks that it answers, so a wrong DATABASE_URL fails at start-up.
 * `poolSize` is the connections per process on PostgreSQL; SQLite keeps one. `statementTimeoutMs`
 * stops longer statements (0: none, for scripts; the service sets DATABASE_STATEMENT_TIMEOUT_MS).
 */
export async function connectDatabase(
  url: string,
  poolSize = 10,
  statementTimeoutMs = 0,
): Promise<Database> {
  const db = openSql(url, poolSize, statementTimeoutMs, behindPooler(url));
  try {
    await db.get("SELECT 1");
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}
