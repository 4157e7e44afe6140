import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListCondition } from "../../runtime/common/src/data/list-conditions.js";
import type { FilterOperator } from "../../runtime/common/src/data/list-operators.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { Table, type TableSpec } from "../../runtime/common/src/data/table.js";
import { openSql } from "../../runtime/sqlite/src/db/driver.js";

/*
 * data/table/filters.ts conditionSql, differentially: a random condition tree (every column
 * operator, nested all/any, NULLs, LIKE's own characters, letters whose case folds outside ASCII)
 * selects, on a real SQLite table, exactly the rows a plain JavaScript reading of the contract
 * (docs/api-contract.md §4) selects.
 */
interface Item {
  id: number;
  hash: string;
  label: string | null;
  n: number | null;
  created_at: Date;
  updated_at: Date;
}
const itemTable: TableSpec<Item, Item> = {
  name: "items",
  event: "item",
  softDelete: false,
  columns: { label: "string", n: "integer" },
  relations: {},
  restrictedBy: [],
  cascadeTo: [],
  nullOnDelete: [],
};

const letters = ["a", "A", "é", "É", "%", "_", "\\", "x"];
const text = fc.array(fc.constantFrom(...letters), { maxLength: 3 }).map((chars) => chars.join(""));
const number = fc.integer({ min: -3, max: 3 });
const rows = fc.sample(fc.record({ label: fc.option(text, { nil: null }), n: fc.option(number, { nil: null }) }), { numRuns: 40, seed: 47 });

type Column = "label" | "n";
const leaf: fc.Arbitrary<ListCondition> = fc.oneof(
  fc.record({ column: fc.constant("label"), op: fc.constantFrom<FilterOperator>("eq", "ne", "contains", "starts_with", "ends_with"), value: text }),
  fc.record({ column: fc.constant("n"), op: fc.constantFrom<FilterOperator>("eq", "ne", "gt", "gte", "lt", "lte"), value: number }),
  fc.record({ column: fc.constantFrom<Column>("label", "n"), op: fc.constant<FilterOperator>("null"), value: fc.boolean() }),
  fc.record({ column: fc.constant("label"), op: fc.constantFrom<FilterOperator>("in", "nin"), value: fc.array(text, { minLength: 1, maxLength: 3 }) }),
  fc.record({ column: fc.constant("n"), op: fc.constantFrom<FilterOperator>("in", "nin"), value: fc.array(number, { minLength: 1, maxLength: 3 }) }),
  fc.record({ column: fc.constant("n"), op: fc.constant<FilterOperator>("between"), value: fc.tuple(number, number) }),
  fc.record({ column: fc.constantFrom<Column>("label", "n"), op: fc.constant<FilterOperator>("eq"), value: fc.constant(null) }),
);

const condition: fc.Arbitrary<ListCondition> = fc.letrec<{ tree: ListCondition }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("tree"), { maxLength: 3 }).map((all) => ({ all })),
    fc.array(tie("tree"), { maxLength: 3 }).map((any) => ({ any })),
  ),
})).tree;

/** The contract's reading of one condition on one row. */
function holds(row: { label: string | null; n: number | null }, tree: ListCondition): boolean {
  if ("all" in tree) return tree.all.every((part) => holds(row, part));
  if ("any" in tree) return tree.any.some((part) => holds(row, part));
  if (!("column" in tree)) throw new Error("only column conditions are drawn");
  // Each operator is drawn with values of its column's type only (see leaf).
  const actual = row[tree.column as Column] as number | null;
  const value = tree.value as number;
  const present = actual !== null;
  const fold = (s: unknown) => String(s).toLowerCase();
  switch (tree.op) {
    case "eq": return tree.value === null ? !present : actual === value;
    case "ne": return !present || actual !== value;
    case "null": return (tree.value as boolean) ? !present : present;
    case "in": return present && (tree.value as unknown[]).includes(actual);
    case "nin": return !present || !(tree.value as unknown[]).includes(actual);
    case "gt": return present && actual! > value;
    case "gte": return present && actual! >= value;
    case "lt": return present && actual! < value;
    case "lte": return present && actual! <= value;
    case "between": return present && actual! >= (tree.value as number[])[0]! && actual! <= (tree.value as number[])[1]!;
    case "contains": return present && fold(actual).includes(fold(value));
    case "starts_with": return present && fold(actual).startsWith(fold(value));
    case "ends_with": return present && fold(actual).endsWith(fold(value));
  }
}

let dir: string;
let db: Sql;
let items: Table<Item, Item>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hashapi-conditions-"));
  db = openSql(`file:${join(dir, "test.db")}`);
  await db.run(`CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "hash" TEXT UNIQUE NOT NULL, "label" TEXT, "n" INTEGER, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL)`);
  items = new Table(db, itemTable);
  for (const [index, row] of rows.entries()) await items.insert({ hash: `ITM_${String(index).padStart(8, "0")}`, ...row });
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("conditionSql (runtime/common/src/data/table/filters.ts) against the contract's reading", () => {
  it("selects exactly the rows each random condition tree holds for", async () => {
    const expectedHashes = (tree: ListCondition) =>
      rows.flatMap((row, index) => (holds(row, tree) ? [`ITM_${String(index).padStart(8, "0")}`] : []));
    await fc.assert(
      fc.asyncProperty(condition, async (tree) => {
        const found = await items.findMany({ conditions: [tree], orderBy: [{ id: "asc" }], limit: 100, offset: 0 });
        expect(found.map((item) => item.hash)).toEqual(expectedHashes(tree));
      }),
      { numRuns: 400, seed: 47 },
    );
  });

  it("takes LIKE's own characters literally and folds case beyond ASCII", async () => {
    const hashes = async (tree: ListCondition) => (await items.findMany({ conditions: [tree], limit: 100, offset: 0 })).map((item) => item.hash).sort();
    for (const value of ["%", "_", "\\", "É"]) {
      const tree: ListCondition = { column: "label", op: "contains", value };
      const expected = rows.flatMap((row, index) => (holds(row, tree) ? [`ITM_${String(index).padStart(8, "0")}`] : []));
      expect(expected.length, `the seeded rows hold ${value}`).toBeGreaterThan(0);
      expect(expected.length, `and some do not`).toBeLessThan(rows.length);
      expect(await hashes(tree)).toEqual(expected.sort());
    }
  });
});
