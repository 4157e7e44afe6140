import { describe, expect, it } from "vitest";
import { isPlainSelect } from "../../runtime/common/src/db/replicas.js";
import { sql } from "../../runtime/common/src/db/sql.js";

describe("what a replica may answer (runtime/common/src/db/replicas.ts isPlainSelect)", () => {
  const id = 7;
  it.each([
    ["a plain select", 'SELECT * FROM "patients" WHERE "id" = $1', true],
    ["a select after blank lines, in lower case", '\n  select "id" from "patients"', true],
    ["a select whose column is named like a lock", 'SELECT "for_update" FROM "t"', true],
    ["an insert", 'INSERT INTO "t" ("a") VALUES ($1)', false],
    ["an update", 'UPDATE "t" SET "a" = $1', false],
    ["a select locking rows to update", 'SELECT "id" FROM "t" WHERE "id" = $1 FOR UPDATE', false],
    ["a select locking rows to share", 'SELECT "id" FROM "t" FOR SHARE', false],
    ["a claim that skips locked rows", 'SELECT "id" FROM "jobs" LIMIT $1 FOR UPDATE SKIP LOCKED', false],
    ["a weaker lock, across a line break", 'SELECT "id" FROM "t" FOR NO KEY\n UPDATE', false],
    ["a key share lock", 'SELECT "id" FROM "t" FOR KEY SHARE', false],
    ["a sequence's next value", "SELECT nextval('t_id_seq')", false],
    ["an advisory lock", "SELECT pg_advisory_xact_lock($1)", false],
    ["a cte (not routed: it may write)", 'WITH "x" AS (DELETE FROM "t" RETURNING *) SELECT * FROM "x"', false],
  ])("%s", (_title, text, expected) => {
    expect(isPlainSelect(text)).toBe(expected);
  });

  it("reads every text part of an sql query: a lock after a value is still a lock", () => {
    expect(isPlainSelect(sql`SELECT "id" FROM "t" WHERE "id" = ${id}`)).toBe(true);
    expect(isPlainSelect(sql`SELECT "id" FROM "t" WHERE "id" = ${id} FOR UPDATE`)).toBe(false);
    expect(isPlainSelect(sql`${"SELECT"} 1`)).toBe(false);
  });
});
