import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSql } from "../../runtime/sqlite/src/db/driver.js";
import { largestGroup } from "../../runtime/sqlite/src/db/commit-group.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";

// SQLite's group commit (runtime/sqlite/src/db/commit-group.ts): transactions that end in the same
// turn of the event loop share one COMMIT, and none resolves before it. What another connection
// sees is what is committed, so a second connection on the same file tells the COMMIT apart.

let dir: string;
let file: string;
let db: Sql;
let observer: Database.Database;

const committedNames = () =>
  (observer.prepare(`SELECT "name" FROM "items" ORDER BY "id"`).all() as { name: string }[]).map(
    (row) => row.name,
  );

const insertItem = (name: string) => (tx: Sql) =>
  tx.run(`INSERT INTO "items" ("name") VALUES (?)`, [name]);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "hashapi-commit-group-"));
  file = join(dir, "app.db");
  db = openSql(`file:${file}`);
  await db.exec(`CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL UNIQUE)`);
  observer = new Database(file, { readonly: true });
});

afterEach(async () => {
  observer.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SQLite's group commit", () => {
  it("commits the transactions of one turn together, and resolves none before the COMMIT", async () => {
    const seenAtResolve: string[][] = [];
    const writes = ["a", "b", "c"].map((name) =>
      db.transaction(insertItem(name)).then(() => seenAtResolve.push(committedNames())),
    );
    await Promise.all(writes);
    // Each learnt of its commit only once all three were on disk: one COMMIT for the three.
    expect(seenAtResolve).toEqual([
      ["a", "b", "c"],
      ["a", "b", "c"],
      ["a", "b", "c"],
    ]);
  });

  it("undoes a failing transaction alone and commits the others of its group", async () => {
    await db.transaction(insertItem("taken"));
    const outcomes = await Promise.allSettled([
      db.transaction(insertItem("first")),
      db.transaction(async (tx) => {
        await insertItem("half")(tx);
        await insertItem("taken")(tx); // UNIQUE: fails after a write of its own
      }),
      db.transaction(insertItem("last")),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect(committedNames()).toEqual(["taken", "first", "last"]);
  });

  it("commits a lone failing transaction's empty group, releasing the write lock", async () => {
    await expect(
      db.transaction(async (tx) => {
        await insertItem("gone")(tx);
        throw new Error("changed its mind");
      }),
    ).rejects.toThrow("changed its mind");
    const writer = new Database(file);
    try {
      // Another connection can take the write lock at once: nothing is left open.
      writer.prepare(`INSERT INTO "items" ("name") VALUES ('other')`).run();
    } finally {
      writer.close();
    }
    expect(committedNames()).toEqual(["other"]);
  });

  it("commits the waiting group before a plain write, which then commits on its own", async () => {
    const grouped = db.transaction(insertItem("grouped"));
    // The plain write is issued while the group still waits for its COMMIT.
    await Promise.resolve();
    const changed = await db.run(`INSERT INTO "items" ("name") VALUES (?)`, ["plain"]);
    expect(changed).toBe(1);
    expect(committedNames()).toEqual(["grouped", "plain"]);
    await grouped;
  });

  it("reads the group's writes on the same connection before their COMMIT", async () => {
    const grouped = db.transaction(insertItem("pending"));
    await Promise.resolve();
    const inside = await db.all(`SELECT "name" FROM "items"`);
    expect(inside).toEqual([{ name: "pending" }]);
    await grouped;
    expect(committedNames()).toEqual(["pending"]);
  });

  it(`commits at ${largestGroup} transactions without waiting for the turn to end`, async () => {
    const names = Array.from({ length: largestGroup + 3 }, (_, index) => `item ${index}`);
    const seen: number[] = [];
    await Promise.all(
      names.map((name) =>
        db.transaction(insertItem(name)).then(() => seen.push(committedNames().length)),
      ),
    );
    expect(seen.slice(0, largestGroup)).toEqual(Array(largestGroup).fill(largestGroup));
    expect(seen.slice(largestGroup)).toEqual([names.length, names.length, names.length]);
  });
});
