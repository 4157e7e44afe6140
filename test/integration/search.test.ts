import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchCondition } from "../../runtime/common/src/data/list-conditions.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { defineTable, Table } from "../../runtime/common/src/data/table.js";
import { openSql } from "../../runtime/sqlite/src/db/driver.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * `?search=` over two or more searchable fields (issue 31: a pattern bound once and used per column
 * answered 500 on SQLite, whose `?` placeholders cannot repeat). Every word must be in some field,
 * case-insensitively in every alphabet, on both databases.
 */
const people = defineTable<any>({ name: "people", columns: { first: "string", last: "string", bio: "string" } });
const rows: [string, string, string][] = [
  ["Ana", "Silva", "VPN support"],
  ["SÍLVIA", "Costa", "hours of work"],
  ["Kofi", "Mensah", "vpn at night"],
];

async function fill(db: Sql, create: string): Promise<Table<any, any>> {
  await db.exec(create);
  const table = new Table(db, people);
  for (const [index, [first, last, bio]] of rows.entries()) await table.insert({ hash: `PPL_${index}`, first, last, bio });
  return table;
}

function behaves(open: () => Promise<{ table: Table<any, any>; close(): Promise<void> }>) {
  let table: Table<any, any>;
  let close: () => Promise<void>;
  beforeAll(async () => ({ table, close } = await open()));
  afterAll(async () => close?.());
  const found = async (...words: string[]) => {
    const conditions = [searchCondition(["first", "last", "bio"], words)];
    const listed = await table.findMany({ conditions });
    expect(await table.count({ conditions })).toBe(listed.length);
    return listed.map((row: { first: string }) => row.first).sort();
  };

  it("finds every word in some field, in any case and alphabet", async () => {
    expect(await found("vpn")).toEqual(["Ana", "Kofi"]);
    expect(await found("VPN", "silva")).toEqual(["Ana"]);
    expect(await found("sílvia", "HOURS")).toEqual(["SÍLVIA"]);
    expect(await found("vpn", "hours")).toEqual([]);
  });
}

describe("?search= over three fields on SQLite", () => {
  behaves(async () => {
    const db = openSql(":memory:");
    const table = await fill(db, `CREATE TABLE "people" ("id" INTEGER PRIMARY KEY, "hash" TEXT NOT NULL, "first" TEXT NOT NULL, "last" TEXT NOT NULL, "bio" TEXT NOT NULL, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL)`);
    return { table, close: () => db.close() };
  });
});

describe.skipIf(!postgresBinDir() && !process.env.CI)("?search= over three fields on PostgreSQL", () => {
  let postgres: PostgresServer;
  behaves(async () => {
    postgres = await startPostgres();
    await postgres.createDatabase("search");
    const driver = "../../runtime/postgresql/src/db/driver.js";
    const db = ((await import(driver)) as { openSql: (url: string, poolSize: number) => Sql }).openSql(postgres.url("search"), 2);
    const table = await fill(db, `CREATE TABLE "people" ("id" SERIAL PRIMARY KEY, "hash" TEXT NOT NULL, "first" TEXT NOT NULL, "last" TEXT NOT NULL, "bio" TEXT NOT NULL, "created_at" TIMESTAMPTZ(3) NOT NULL, "updated_at" TIMESTAMPTZ(3) NOT NULL)`);
    return {
      table,
      close: async () => {
        await db.close();
        await postgres.destroy();
      },
    };
  });
});
