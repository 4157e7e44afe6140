import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { openSql as openSqlite } from "../../runtime/sqlite/src/db/driver.js";
import { postgresBinDir, startPostgres } from "./postgres.js";

/**
 * A database of each kind for the runtime's integration tests, through the runtime's own drivers:
 * a SQLite file in a temporary folder, and (where PostgreSQL is installed, always in CI) a server of
 * the test's own with one database.
 */
export const integrationTargets = [
  { label: "SQLite", dialect: "sqlite" as const },
  ...(postgresBinDir() || process.env.CI ? [{ label: "PostgreSQL", dialect: "postgresql" as const }] : []),
];

export interface IntegrationDatabase {
  readonly db: Sql;
  close(): Promise<void>;
}

export async function openIntegrationDatabase(dialect: "sqlite" | "postgresql", name: string, poolSize = 4): Promise<IntegrationDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), `hashapi-${name}-`));
    const db = openSqlite(`file:${join(dir, "test.db")}`);
    return {
      db,
      async close() {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const postgres = await startPostgres();
  await postgres.createDatabase(name);
  // Imported here: the PostgreSQL driver module is a PostgreSQL project's, typed by its own tsconfig.
  const driver = "../../runtime/postgresql/src/db/driver.js";
  const { openSql } = (await import(driver)) as { openSql: (url: string, poolSize: number) => Sql };
  const db = openSql(postgres.url(name), poolSize);
  return {
    db,
    async close() {
      await db.close();
      await postgres.destroy();
    },
  };
}
