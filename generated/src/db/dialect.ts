// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { foldFunction } from "./text-folding.js";
import { sqliteErrors } from "./database-error-codes.js";
import type { SqlDialect } from "./sql.js";

/** SQLite's answers to what the shared code asks of a database (see SqlDialect in sql.ts). */
export const dialect: SqlDialect = {
  name: "sqlite",
  placeholder: () => "?",
  // No row locks: a transaction (BEGIN IMMEDIATE) already holds the database's one write lock.
  lockClause: () => "",
  // SQLite orders NULL first ascending: told to order it as PostgreSQL does, as the largest value.
  nullsLargest: (direction) => (direction === "asc" ? " NULLS LAST" : " NULLS FIRST"),
  // lower() and LIKE fold ASCII only: the driver registers `hashapi_fold` (JavaScript's toLowerCase).
  foldedText: (column) => `${foldFunction}(${column})`,
  // The FTS5 table's rowids are the rows' ids; NOT INDEXED leaves them the only way in.
  textIndexTable: {
    narrowing: (id, table, query) =>
      `${id} IN (SELECT rowid FROM "${table}" WHERE "${table}" MATCH ${query})`,
    driving: " NOT INDEXED",
  },
  // SQLite's planner walks the (deleted_at, created_at, id) index for `deleted_at IS NULL` already.
  ordersLiveByDeletedAt: false,
  // A whole table is counted from its b-tree pages (≈ 10 µs for 10k rows) but a WHERE visits every
  // matching index entry (≈ 350 µs): all rows minus the few trashed ones is the same number.
  countsLiveBySubtraction: true,
  jsonAsText: true,
  // Prisma stores dates as ISO text on SQLite: a Date is written as that text by the driver.
  datesAsDayText: false,
  embedded: true,
  url: { test: /^file:/, example: "file:./data/app.db", label: "SQLite" },
  migrations: {
    recordsTable: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL,
    "checksum" TEXT NOT NULL,
    "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL,
    "logs" TEXT,
    "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`,
    // BEGIN IMMEDIATE waits (busy_timeout) while another process writes, then is waited on again
    // (db/migration-lock.ts): migrators never interleave.
    settings: [],
    waitless: { on: "PRAGMA busy_timeout = 0", off: "PRAGMA busy_timeout = 5000" },
    begin: "BEGIN IMMEDIATE",
    foreignKeysOff: "PRAGMA foreign_keys = OFF",
    foreignKeysOn: "PRAGMA foreign_keys = ON",
    foreignKeyCheck: "PRAGMA foreign_key_check",
  },
  errors: sqliteErrors,
};
