// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { postgresErrors } from "./database-error-codes.js";
import { outputJson } from "./output-json.js";
import type { SqlDialect } from "./sql.js";

// The advisory lock key Prisma Migrate uses: two migrators never interleave on PostgreSQL.
const migrationLockKey = 72707369;

/** PostgreSQL's answers to what the shared code asks of a database (see SqlDialect in sql.ts). */
export const dialect: SqlDialect = {
  name: "postgresql",
  placeholder: (position) => `$${position}`,
  lockClause: (lock) =>
    lock === undefined
      ? ""
      : lock === "share"
        ? " FOR SHARE"
        : lock === "claim"
          ? " FOR UPDATE SKIP LOCKED"
          : " FOR UPDATE",
  // NULL already orders as the largest value here.
  nullsLargest: () => "",
  // lower() follows the column's collation, which may be "C" (ASCII only): ICU's root collation,
  // which every PostgreSQL built with ICU has, folds every alphabet.
  foldedText: (column) => `lower(CAST(${column} AS text) COLLATE "und-x-icu")`,
  // Without deleted_at first, every list of live rows was a scan and a sort (5.4 ms at 100,000
  // rows); with it, the planner walks the (deleted_at, created_at, id) index (0.02 ms).
  ordersLiveByDeletedAt: true,
  countsLiveBySubtraction: false,
  jsonAsText: false,
  // pg would make a local-time Date of a DATE: it is written and read as its text.
  datesAsDayText: true,
  embedded: false,
  url: {
    test: /^postgres(ql)?:\/\//,
    example: "postgresql://user:password@localhost:5432/app",
    label: "PostgreSQL",
  },
  migrations: {
    recordsTable: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`,
    // A session lock: it needs the server itself (DIRECT_DATABASE_URL), not a pooler's transactions.
    lock: {
      take: `SELECT pg_try_advisory_lock(${migrationLockKey}) AS "taken"`,
      holder: `SELECT a."pid", COALESCE(host(a."client_addr"), 'a local socket') AS "client",
        EXTRACT(EPOCH FROM now() - COALESCE(a."xact_start", a."backend_start"))::int AS "seconds",
        left(regexp_replace(a."query", '\\s+', ' ', 'g'), 120) AS "doing"
        FROM pg_locks l JOIN pg_stat_activity a ON a."pid" = l."pid"
        WHERE l."locktype" = 'advisory' AND l."classid" = 0 AND l."objid" = ${migrationLockKey} AND l."granted"
        AND l."database" = (SELECT "oid" FROM pg_database WHERE "datname" = current_database())`,
      release: `SELECT pg_advisory_unlock(${migrationLockKey})`,
    },
    // A migration waits at most 30 s for a table another transaction holds, rather than stall
    // every request queued behind its own lock request.
    settings: [`SET lock_timeout = '30s'`],
    begin: "BEGIN",
  },
  writesWithEvent: { outputJson },
  errors: postgresErrors,
};
