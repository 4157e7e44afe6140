import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { columnComparison } from "../../runtime/common/src/data/list-conditions.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { openSql as openSqlite } from "../../runtime/sqlite/src/db/driver.js";
import { dialect as sqlite } from "../../runtime/sqlite/src/db/dialect.js";
import type { SqlDialect } from "../../runtime/common/src/db/sql.js";

// The PostgreSQL runtime compiles with its own tsconfig (runtime/tsconfig.postgresql.json): loaded by path.
const postgresDialect = "../../runtime/postgresql/src/db/dialect.js";
const { dialect: postgresql } = (await import(postgresDialect)) as { dialect: SqlDialect };
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * Issue 30, point 2: no statement of a request holds the database (or, on SQLite, its whole process)
 * longer than DATABASE_STATEMENT_TIMEOUT_MS. SQLite has no timeout its Node driver can set: the
 * folding function every text match calls per row gives up past the deadline. PostgreSQL stops the
 * statement itself (statement_timeout). Both come back as a StatementTimeout the service answers 503.
 */
const contains = (name: "sqlite" | "postgresql", pattern: string) => {
  const dialect = name === "sqlite" ? sqlite : postgresql;
  return columnComparison(dialect, `"notes"."body"`, { op: "contains", value: pattern }, () => dialect.placeholder(1));
};

describe("a statement that matches text past its deadline, on SQLite", () => {
  const rows = 400;
  // 400 texts of 20,000 characters and the worst kind of pattern: many near-matches per text.
  const fill = (db: Sql) => db.exec(`CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows}) INSERT INTO "notes" ("body") SELECT printf('%.*c', 20000, 'a') FROM n;`);
  const worst = `${"a".repeat(63)}b`;
  const query = `SELECT COUNT(*) AS "n" FROM "notes" WHERE ${contains("sqlite", worst)}`;

  it("stops after about the deadline, and the next statement runs at once", async () => {
    const db = openSqlite(":memory:", 1, 50);
    await fill(db);
    const started = performance.now();
    const failure = await db.get(query, [`%${worst}%`]).catch((error: unknown) => error);
    const took = performance.now() - started;
    expect(db.dialect.errors.isStatementTimeout(failure)).toBe(true);
    // Bounded: the deadline plus one row's matching at most (generous for a loaded machine).
    expect(took).toBeLessThan(1_000);
    expect(await db.get(`SELECT COUNT(*) AS "n" FROM "notes"`)).toEqual({ n: rows });
    await db.close();
  });

  it("runs to the end without a limit (0: scripts, seeds, migrations)", async () => {
    const db = openSqlite(":memory:", 1, 0);
    await fill(db);
    expect(await db.get(`SELECT COUNT(*) AS "n" FROM "notes" WHERE ${contains("sqlite", "ab")}`, ["%ab%"])).toEqual({ n: 0 });
    await db.close();
  });
});

describe.skipIf(!postgresBinDir() && !process.env.CI)("a statement past its deadline, on PostgreSQL", () => {
  let postgres: PostgresServer;
  let db: Sql;

  beforeAll(async () => {
    postgres = await startPostgres();
    await postgres.createDatabase("timeouts");
    const driver = "../../runtime/postgresql/src/db/driver.js";
    const { openSql } = (await import(driver)) as { openSql: (url: string, poolSize: number, timeout: number) => Sql };
    db = openSql(postgres.url("timeouts"), 2, 100);
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await postgres?.destroy();
  });

  it("is stopped by the server, on every connection of the pool, and the pool goes on", async () => {
    const failures = await Promise.all([1, 2, 3].map(() => db.get("SELECT pg_sleep(2)").catch((error: unknown) => error)));
    for (const failure of failures) expect(db.dialect.errors.isStatementTimeout(failure)).toBe(true);
    expect(await db.get("SELECT 1 AS one")).toEqual({ one: 1 });
  });
});
