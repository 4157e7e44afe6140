import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSql } from "../../runtime/sqlite/src/db/driver.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { defineTable, Table, type TableSpec } from "../../runtime/common/src/data/table.js";
import { eventsTableStatement } from "../support/events-table.js";
import { pivotDecoder } from "../../runtime/common/src/data/table/nested-items.js";
import { dialect as sqliteDialect } from "../../runtime/sqlite/src/db/dialect.js";

/**
 * belongsToMany in the runtime's data layer (data/relations/belongs-to-many.ts through table.ts),
 * on a real SQLite file: a page's links load in one statement whatever the page size, soft-deleted
 * related rows stay linked but unseen, a sync keeps what the caller cannot see, filters look
 * through the pivot.
 */
const tagTable: TableSpec = defineTable({ name: "tags", softDelete: true, columns: { label: "string" } });
const bookTable: TableSpec = defineTable({
  name: "books",
  columns: { title: "string" },
  relations: { tags: { kind: "belongsToMany", pivot: "books_tags", ownKey: "book_id", otherKey: "tag_id", target: () => tagTable, pivotColumns: { since: "date", weight: "decimal" } } },
});

let dir: string;
let db: Sql;
const statements: string[] = [];
let books: Table<any, any>;
let tags: Table<any, any>;
const bookIds: number[] = [];
const tagIds: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hashapi-many-"));
  const real = openSql(`file:${join(dir, "test.db")}`);
  const recorded = (method: "all" | "get" | "rows" | "run") => (query: never, values?: readonly unknown[]) => {
    statements.push(String(query));
    return (real[method] as (q: never, v?: readonly unknown[]) => Promise<never>)(query, values);
  };
  db = { dialect: real.dialect, all: recorded("all"), get: recorded("get"), rows: recorded("rows"), run: recorded("run"), exec: (script) => real.exec(script), transaction: (work) => real.transaction(work), close: () => real.close() };
  await db.run(eventsTableStatement("sqlite"));
  await db.run(`CREATE TABLE "books" ("id" INTEGER PRIMARY KEY, "hash" TEXT UNIQUE NOT NULL, "title" TEXT NOT NULL, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL)`);
  await db.run(`CREATE TABLE "tags" ("id" INTEGER PRIMARY KEY, "hash" TEXT UNIQUE NOT NULL, "label" TEXT NOT NULL, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL, "deleted_at" TEXT)`);
  await db.run(`CREATE TABLE "books_tags" ("book_id" INTEGER NOT NULL REFERENCES "books"("id") ON DELETE CASCADE, "tag_id" INTEGER NOT NULL REFERENCES "tags"("id") ON DELETE CASCADE, "since" TEXT, "weight" DECIMAL, PRIMARY KEY ("book_id", "tag_id"))`);
  books = new Table(db, bookTable);
  tags = new Table(db, tagTable);
  for (let n = 0; n < 30; n += 1) bookIds.push(await books.insert({ hash: `BOK_${String(n).padStart(8, "A")}`, title: `Book ${n}` }));
  for (let n = 0; n < 5; n += 1) tagIds.push(await tags.insert({ hash: `TAG_${String(n).padStart(8, "A")}`, label: `tag ${n}` }));
  // Book n is linked to tags n % 5 and (n + 1) % 5.
  for (const [index, id] of bookIds.entries())
    await books.syncLinks(bookOf(id), "tags", [
      { id: tagIds[index % 5]!, pivot: { since: new Date("2024-01-31T00:00:00Z"), weight: "1.50" } },
      { id: tagIds[(index + 1) % 5]! },
    ], undefined, null);
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Book `id` as a link write names its owner (the hash its events are about). */
const bookOf = (id: number) => ({ id, hash: `BOK_${String(bookIds.indexOf(id)).padStart(8, "A")}` });

const labels = (row: { tags: { label: string }[] }) => row.tags.map((tag) => tag.label).sort();

describe("belongsToMany in the data layer", () => {
  it("loads a whole page's links in one statement, whatever the page size", async () => {
    for (const limit of [1, 10, 30]) {
      statements.length = 0;
      const rows = (await books.findMany({ relations: ["tags"], limit })) as { id: number; tags: { label: string; pivot: Record<string, unknown> }[] }[];
      expect(rows).toHaveLength(limit);
      // One for the page, one for the links of every row on it.
      expect(statements, statements.join("\n")).toHaveLength(2);
      for (const [index, row] of rows.entries()) expect(labels(row)).toEqual([`tag ${index % 5}`, `tag ${(index + 1) % 5}`].sort());
      const first = rows[0]!.tags.find((tag) => tag.label === "tag 0")!;
      expect(first.pivot.since).toEqual(new Date("2024-01-31T00:00:00Z"));
      expect(String(first.pivot.weight)).toBe("1.5");
    }
  });

  it("hides a soft-deleted related row but keeps its link, and a sync keeps what it cannot see", async () => {
    await tags.softDelete(tagIds[1]!);
    const [book] = (await books.findMany({ where: { id: bookIds[0] } as never, relations: ["tags"] })) as { tags: { label: string }[] }[];
    expect(labels(book! as never)).toEqual(["tag 0"]);
    // Replacing book 0's visible links with tag 2 keeps its link to the deleted tag 1.
    await books.syncLinks(bookOf(bookIds[0]!), "tags", [{ id: tagIds[2]! }], undefined, null);
    const links = await db.all(`SELECT "tag_id" FROM "books_tags" WHERE "book_id" = ? ORDER BY "tag_id"`, [bookIds[0]]);
    expect(links.map((link) => Number(link.tag_id))).toEqual([tagIds[1], tagIds[2]]);
    await tags.restore(tagIds[1]!);
    const [restored] = (await books.findMany({ where: { id: bookIds[0] } as never, relations: ["tags"] })) as never[];
    expect(labels(restored!)).toEqual(["tag 1", "tag 2"]);
  });

  it("filters by linked hashes through the pivot, and attaches idempotently", async () => {
    const linkedTo = async (hashes: string[]) => (await books.findMany({ conditions: [{ relation: "tags", op: "in", value: hashes }], limit: 100 })).length;
    const before = await linkedTo(["TAG_AAAAAAA4"]);
    expect(before).toBe(bookIds.filter((_, index) => index % 5 === 4 || (index + 1) % 5 === 4).length);
    expect(await books.count({ conditions: [{ relation: "tags", op: "in", value: ["TAG_AAAAAAA4"] }] })).toBe(before);
    await books.attach(bookOf(bookIds[0]!), "tags", { id: tagIds[4]! }, null);
    await books.attach(bookOf(bookIds[0]!), "tags", { id: tagIds[4]!, pivot: { weight: "2.25" } }, null);
    expect(await linkedTo(["TAG_AAAAAAA4"])).toBe(before + 1);
    const pivot = await db.get(`SELECT "weight" FROM "books_tags" WHERE "book_id" = ? AND "tag_id" = ?`, [bookIds[0], tagIds[4]]);
    expect(Number(pivot!.weight)).toBe(2.25);
    expect(await books.detach(bookOf(bookIds[0]!), "tags", tagIds[4]!, null)).toBe(true);
    expect(await books.detach(bookOf(bookIds[0]!), "tags", tagIds[4]!, null)).toBe(false);
  });
});

describe("pivotDecoder (runtime/common/src/data/table/nested-items.ts)", () => {
  it("is built once per relation, database, place and kind of read, never per page", () => {
    const kinds = { since: "date", weight: "decimal" } as const;
    const decoder = pivotDecoder(kinds, 4, sqliteDialect, true);
    // A page built its own decoder (an object literal compiled anew): the call sites that ran it
    // never saw the same function twice, and V8 never optimized it.
    expect(pivotDecoder(kinds, 4, sqliteDialect, true)).toBe(decoder);
    expect(pivotDecoder(kinds, 4, sqliteDialect, false)).not.toBe(decoder);
    expect(pivotDecoder(kinds, 5, sqliteDialect, true)).not.toBe(decoder);
    expect(pivotDecoder({ ...kinds }, 4, sqliteDialect, true)).not.toBe(decoder);
    // What it decodes: the pivot's columns from place 4 on, a date kept as stored for output.
    expect(decoder([1, "x", null, 7, "2026-11-28T00:00:00.000+00:00", "2.50"])).toEqual({ since: "2026-11-28T00:00:00.000+00:00", weight: expect.anything() });
  });
});
