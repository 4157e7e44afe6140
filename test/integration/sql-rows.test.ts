import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { openSql } from "../../runtime/sqlite/src/db/driver.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * `Sql.rows`: a statement's rows as arrays in the order of its SELECT (or RETURNING) list, which
 * read shapes decode by position (table/shape.ts). The same values `all` gives under their names,
 * outside and inside a transaction, on both databases.
 */
function behaves(open: () => Promise<{ db: Sql; close(): Promise<void> }>) {
  let db: Sql;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await open()));
  afterAll(async () => close?.());

  it("answers each row as its values in SELECT order, as `all` names them", async () => {
    const text = `SELECT "label", "id", "label" AS "again" FROM "items" ORDER BY "id"`;
    const named = await db.all(text);
    const arrays = await db.rows(text);
    expect(arrays).toEqual(named.map((row) => [row.label, Number(row.id), row.again]));
    expect(arrays.map((row) => row[0])).toEqual(["first", "second"]);
  });

  it("keeps the two forms apart for one text, and answers RETURNING inside a transaction", async () => {
    const text = `SELECT "id", "label" FROM "items" WHERE "label" = 'first'`;
    expect(await db.rows(text)).toEqual([[1, "first"]]);
    expect(await db.all(text)).toEqual([{ id: 1, label: "first" }]);
    expect(await db.rows(text)).toEqual([[1, "first"]]);
    const returned = await db.transaction((tx) =>
      tx.rows(`INSERT INTO "items" ("label") VALUES ('third') RETURNING "label", "id"`),
    );
    expect(returned).toEqual([["third", 3]]);
    expect(await db.rows(`SELECT "id" FROM "items" WHERE "id" > 5`)).toEqual([]);
  });
}

describe("Sql.rows on SQLite", () => {
  behaves(async () => {
    const db = openSql(":memory:");
    await db.exec(`CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "label" TEXT NOT NULL)`);
    await db.exec(`INSERT INTO "items" ("label") VALUES ('first'), ('second')`);
    return { db, close: () => db.close() };
  });
});

describe.skipIf(!postgresBinDir() && !process.env.CI)("Sql.rows on PostgreSQL", () => {
  let postgres: PostgresServer;
  behaves(async () => {
    postgres = await startPostgres();
    await postgres.createDatabase("rows");
    const driver = "../../runtime/postgresql/src/db/driver.js";
    const db = ((await import(driver)) as { openSql: (url: string, poolSize: number) => Sql }).openSql(postgres.url("rows"), 2);
    await db.exec(`CREATE TABLE "items" ("id" SERIAL PRIMARY KEY, "label" TEXT NOT NULL)`);
    await db.exec(`INSERT INTO "items" ("label") VALUES ('first'), ('second')`);
    return {
      db,
      close: async () => {
        await db.close();
        await postgres.destroy();
      },
    };
  });
});
