// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "../base/logger.js";
import { instanceStaleMs } from "../db/contracts.js";
import { latestMigration } from "../db/migrations.js";
import { sql, type Sql } from "../db/sql.js";

/**
 * A serving process says that it runs, and which build: a row of `hashapi_instances` with the
 * newest migration its build holds, seen every 10 s and deleted at shutdown. `npm run db:contract`
 * reads them to refuse a contract step while the build before it still serves (db/contracts.ts).
 * On a server database only (a SQLite file has no rolling deploys); a database whose migrations
 * predate the table is left alone, and a failed beat is tried again at the next.
 */
export function startInstanceBeacon(
  db: Sql,
  migrationsDir: string,
  logger: Logger,
): { stop(): Promise<void> } {
  const migration = latestMigration(migrationsDir);
  if (db.dialect.embedded || migration === undefined) return { stop: async () => undefined };
  const id = randomUUID();
  let registered = false;
  // Stamped by the database's clock, which `db:contract` reads too (db/contracts.ts).
  const beat = async () => {
    try {
      if (registered)
        await db.run(
          sql`UPDATE "hashapi_instances" SET "seen_at" = CURRENT_TIMESTAMP WHERE "id" = ${id}`,
        );
      else {
        await db.run(
          sql`INSERT INTO "hashapi_instances" ("id", "host", "pid", "migration") VALUES (${id}, ${hostname()}, ${process.pid}, ${migration})`,
        );
        registered = true;
      }
    } catch (error) {
      logger.debug(
        { err: error },
        "instance beacon: not recorded (the database lacks hashapi_instances until db:migrate makes it)",
      );
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), instanceStaleMs / 3);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      if (registered)
        await db
          .run(sql`DELETE FROM "hashapi_instances" WHERE "id" = ${id}`)
          .catch(() => undefined);
    },
  };
}
