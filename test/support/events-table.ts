import type { Sql } from "../../runtime/common/src/db/sql.js";
import { openIntegrationDatabase, type IntegrationDatabase } from "./integration-database.js";

/**
 * The outbox's tables (runtime data/outbox.ts, events/) for tests that build their own tables by hand: the
 * columns the Prisma models HashapiEvent, HashapiDelivery and HashapiLane give them in a generated
 * project's migrations.
 */
export function eventsTableStatement(dialect: "sqlite" | "postgresql"): string {
  const id = dialect === "sqlite" ? `"id" INTEGER PRIMARY KEY AUTOINCREMENT` : `"id" SERIAL PRIMARY KEY`;
  const time = dialect === "sqlite" ? "DATETIME" : "TIMESTAMPTZ(3)";
  return `CREATE TABLE "hashapi_events" (${id}, "type" TEXT NOT NULL, "record_hash" TEXT NOT NULL, "actor_hash" TEXT, "actor_name" TEXT, "changes" TEXT NOT NULL, "origin" TEXT, "fanned_out" BOOLEAN NOT NULL DEFAULT false, "created_at" ${time} NOT NULL)`;
}

/** hashapi_deliveries and hashapi_lanes, with the indexes their statements rely on. */
export function deliveryTablesStatements(dialect: "sqlite" | "postgresql"): string[] {
  const id = dialect === "sqlite" ? `"id" INTEGER PRIMARY KEY AUTOINCREMENT` : `"id" SERIAL PRIMARY KEY`;
  const time = dialect === "sqlite" ? "DATETIME" : "TIMESTAMPTZ(3)";
  return [
    `CREATE TABLE "hashapi_deliveries" (${id}, "hash" TEXT NOT NULL UNIQUE, "event_id" INTEGER NOT NULL, "receiver" TEXT NOT NULL, "record_hash" TEXT NOT NULL, "status" TEXT NOT NULL, "attempts" INTEGER NOT NULL DEFAULT 0, "next_attempt_at" ${time} NOT NULL, "locked_until" ${time}, "last_status" INTEGER, "last_error" TEXT, "delivered_at" ${time}, "created_at" ${time} NOT NULL, "updated_at" ${time} NOT NULL, UNIQUE ("event_id", "receiver"))`,
    `CREATE INDEX "hashapi_deliveries_lane" ON "hashapi_deliveries" ("receiver", "record_hash", "status", "event_id")`,
    `CREATE TABLE "hashapi_lanes" ("receiver" TEXT NOT NULL, "record_hash" TEXT NOT NULL, "next_attempt_at" ${time} NOT NULL, "lease" TEXT, "version" INTEGER NOT NULL DEFAULT 0, PRIMARY KEY ("receiver", "record_hash"))`,
    `CREATE INDEX "hashapi_lanes_due" ON "hashapi_lanes" ("receiver", "next_attempt_at")`,
  ];
}

/** hashapi_jobs (runtime jobs/queue.ts), as the Prisma model HashapiJob gives it. */
export function jobsTableStatements(dialect: "sqlite" | "postgresql"): string[] {
  const id = dialect === "sqlite" ? `"id" INTEGER PRIMARY KEY AUTOINCREMENT` : `"id" SERIAL PRIMARY KEY`;
  const time = dialect === "sqlite" ? "DATETIME" : "TIMESTAMPTZ(3)";
  return [
    `CREATE TABLE "hashapi_jobs" (${id}, "hash" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "payload" TEXT NOT NULL, "key" TEXT UNIQUE, "status" TEXT NOT NULL, "attempts" INTEGER NOT NULL DEFAULT 0, "run_at" ${time} NOT NULL, "lease" TEXT, "last_error" TEXT, "finished_at" ${time}, "created_at" ${time} NOT NULL, "updated_at" ${time} NOT NULL)`,
    `CREATE INDEX "hashapi_jobs_due" ON "hashapi_jobs" ("status", "run_at")`,
  ];
}

/** A database of its own with the outbox's tables (events, deliveries, lanes), for tests of the events' runtime. */
export async function openOutboxDatabase(dialect: "sqlite" | "postgresql", name: string, poolSize: number): Promise<IntegrationDatabase> {
  const opened = await openIntegrationDatabase(dialect, name, poolSize);
  await opened.db.exec(eventsTableStatement(dialect));
  for (const statement of deliveryTablesStatements(dialect)) await opened.db.exec(statement);
  return opened;
}

/** Empties the outbox's tables between the tests of one database. */
export async function emptyOutbox(db: Sql): Promise<void> {
  for (const table of ["hashapi_events", "hashapi_deliveries", "hashapi_lanes"]) await db.run(`DELETE FROM "${table}"`);
}
