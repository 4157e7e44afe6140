import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSql } from "../../runtime/sqlite/src/db/driver.js";
import { sql, type Sql } from "../../runtime/common/src/db/sql.js";
import { maxNestedPerParent } from "../../runtime/common/src/data/list-operators.js";
import { Table, type TableSpec } from "../../runtime/common/src/data/table.js";
import { eventsTableStatement } from "../support/events-table.js";
import { referencedMessage } from "../../runtime/common/src/resource/referenced-message.js";

// Row types as Prisma would generate them for two related tables.
interface Owner {
  id: number;
  hash: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}
interface Pet {
  id: number;
  hash: string;
  name: string;
  born_on: Date | null;
  weight: { toFixed(digits: number): string } | null;
  vaccinated: boolean;
  owner_id: number;
  created_at: Date;
  updated_at: Date;
}
type PetRow = Pet & { owner: OwnerRow | { hash: string } };
type OwnerRow = Owner & { pets?: PetRow[] };

const ownerTable: TableSpec<Owner, OwnerRow> = {
  name: "owners",
  event: "owner",
  softDelete: true,
  columns: { name: "string" },
  relations: { pets: { kind: "hasMany", foreignKey: "owner_id", target: () => petTable } },
  restrictedBy: [{ foreignKey: "owner_id", target: () => petTable }],
  cascadeTo: [],
  nullOnDelete: [],
};
const petTable: TableSpec<Pet, PetRow> = {
  name: "pets",
  event: "pet",
  softDelete: false,
  columns: { name: "string", born_on: "date", weight: "decimal", vaccinated: "boolean", owner_id: "integer" },
  relations: { owner: { kind: "belongsTo", foreignKey: "owner_id", target: () => ownerTable } },
  restrictedBy: [],
  cascadeTo: [],
  nullOnDelete: [],
};

// Compile-time promises: `npm test` type-checks this file (tsc), so each line below must stay an error.
export const typeChecks = [
  // @ts-expect-error a column the row type does not have
  { ...petTable, columns: { ...petTable.columns, nmae: "string" } } satisfies TableSpec<Pet, PetRow>,
  // @ts-expect-error a column of the row type left undeclared
  { ...petTable, columns: { name: "string" } } satisfies TableSpec<Pet, PetRow>,
  (table: Table<Pet, PetRow>) => [
    // @ts-expect-error a misspelled column in a write
    table.insert({ hash: "PET_AAAAAAAA", nmae: "Rex" }),
    // @ts-expect-error a value of the wrong type
    table.update(1, { vaccinated: "yes" }),
    // @ts-expect-error a misspelled column in a filter
    table.findMany({ where: { nmae: "Rex" } }),
    // @ts-expect-error sorting by a column that does not exist
    table.findMany({ orderBy: [{ nmae: "asc" }] }),
  ],
];

let dir: string;
let db: Sql;
const statements: string[] = [];
let owners: Table<Owner, OwnerRow>;
let pets: Table<Pet, PetRow>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hashapi-table-"));
  const real = openSql(`file:${join(dir, "test.db")}`);
  // Sees every statement text the table runs, on a real SQLite connection.
  const recorded = (method: "all" | "get" | "rows" | "run") => (query: never, values?: readonly unknown[]) => {
    statements.push(typeof query === "string" ? query : "(tagged)");
    return (real[method] as (q: never, v?: readonly unknown[]) => Promise<never>)(query, values);
  };
  db = { dialect: real.dialect, all: recorded("all"), get: recorded("get"), rows: recorded("rows"), run: recorded("run"), exec: (script) => real.exec(script), transaction: (work) => real.transaction(work), close: () => real.close() };
  await db.run(eventsTableStatement("sqlite"));
  await db.run(
    `CREATE TABLE "owners" ("id" INTEGER PRIMARY KEY, "hash" TEXT UNIQUE NOT NULL, "name" TEXT NOT NULL, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL, "deleted_at" TEXT)`,
  );
  await db.run(
    `CREATE TABLE "pets" ("id" INTEGER PRIMARY KEY, "hash" TEXT UNIQUE NOT NULL, "name" TEXT NOT NULL, "born_on" TEXT, "weight" DECIMAL, "vaccinated" BOOLEAN NOT NULL DEFAULT 0, "owner_id" INTEGER NOT NULL REFERENCES "owners"("id") ON DELETE RESTRICT, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL)`,
  );
  owners = new Table(db, ownerTable);
  pets = new Table(db, petTable);
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("Table (runtime/common/src/data/table.ts) on SQLite", () => {
  it("writes typed values and reads them back decoded, with belongsTo as { hash } or as the record", async () => {
    const ownerId = await owners.insert({ hash: "OWN_AAAAAAAA", name: "Ana" });
    await pets.insert({ hash: "PET_AAAAAAAA", name: "Rex", born_on: new Date("2020-02-29"), vaccinated: true, owner_id: ownerId });
    const plain = await pets.findOne({ hash: "PET_AAAAAAAA" });
    expect(plain).toMatchObject({ name: "Rex", vaccinated: true, weight: null, owner: { hash: "OWN_AAAAAAAA" } });
    expect(plain!.born_on!.toISOString()).toBe("2020-02-29T00:00:00.000Z");
    const loaded = await pets.findOne({ hash: "PET_AAAAAAAA" }, ["owner"]);
    expect(loaded!.owner).toMatchObject({ hash: "OWN_AAAAAAAA", name: "Ana", deleted_at: null });
    const withPets = await owners.findOne({ id: ownerId }, ["pets"]);
    expect(withPets!.pets!.map((pet) => pet.name)).toEqual(["Rex"]);
  });

  it("names joined columns by their path, never c0…cN", async () => {
    statements.length = 0;
    await pets.findOne({ hash: "PET_AAAAAAAA" }, ["owner"]);
    const [text] = statements;
    expect(text).toContain(`LEFT JOIN "owners" AS "owner" ON "owner"."id" = "pets"."owner_id"`);
    expect(text).toContain(`"owner"."name" AS "owner.name"`);
    expect(text).not.toMatch(/"c\d+"|"t_\d+"/);
  });

  it("filters, sorts, pages and counts, live rows only unless asked", async () => {
    const ownerId = (await owners.liveId("OWN_AAAAAAAA"))!;
    await pets.insert({ hash: "PET_BBBBBBBB", name: "Bia", vaccinated: false, owner_id: ownerId });
    const page = await pets.findMany({ where: { vaccinated: false }, orderBy: [{ name: "desc" }], limit: 5, offset: 0 });
    expect(page.map((pet) => pet.name)).toEqual(["Bia"]);
    expect(await pets.count({ conditions: [{ relation: "owner", op: "eq", value: "OWN_AAAAAAAA" }] })).toBe(2);
    expect((await pets.findMany({ conditions: [{ relation: "owner", op: "eq", value: "OWN_ZZZZZZZZ" }] })).length).toBe(0);
    await owners.insert({ hash: "OWN_BBBBBBBB", name: "Gone", deleted_at: new Date() });
    expect(await owners.count()).toBe(1);
    expect(await owners.count({ withTrashed: true })).toBe(2);
    expect(await owners.liveId("OWN_BBBBBBBB")).toBeNull();
    // Several hashes in one statement: the live ones and their ids, the deleted and unknown left out.
    const before = statements.length;
    const ids = await owners.liveIds(["OWN_AAAAAAAA", "OWN_BBBBBBBB", "OWN_ZZZZZZZZ"]);
    expect(statements.length - before).toBe(1);
    expect([...ids]).toEqual([["OWN_AAAAAAAA", ownerId]]);
    expect(await owners.liveIds([])).toEqual(new Map());
    expect(await owners.liveIds(["OWN_AAAAAAAA"], undefined, { where: { name: "Someone else" } })).toEqual(new Map());
  });

  it("reads, counts and nests only the rows of a scope, in the statement that reads them", async () => {
    const ann = await owners.insert({ hash: "OWN_SCOPEANN", name: "Ann" });
    const bob = await owners.insert({ hash: "OWN_SCOPEBOB", name: "Bob" });
    await pets.insert({ hash: "PET_SCOPEAN1", name: "Ann's", vaccinated: true, owner_id: ann });
    await pets.insert({ hash: "PET_SCOPEBO1", name: "Bob's", vaccinated: true, owner_id: bob });
    const annOnly = { where: { owner_id: ann } };
    statements.length = 0;
    expect(await pets.findOne({ hash: "PET_SCOPEBO1" }, [], { scope: annOnly })).toBeNull();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/WHERE "pets"\."hash" = \? AND "pets"\."owner_id" = \? LIMIT 1$/);
    expect((await pets.findOne({ hash: "PET_SCOPEAN1" }, ["owner"], { scope: annOnly }))!.name).toBe("Ann's");
    // Through a belongsTo: pets whose owner is named Bob (a live owner only).
    const bobs = { through: { owner: { name: "Bob" } } };
    expect((await pets.findMany({ scope: bobs })).map((pet) => pet.hash)).toEqual(["PET_SCOPEBO1"]);
    expect(await pets.count({ scope: bobs })).toBe(1);
    expect(await pets.count({ scope: bobs, where: { vaccinated: false } })).toBe(0);
    // Filters cannot widen a scope: they only narrow it further.
    expect(await pets.findMany({ scope: annOnly, conditions: [{ relation: "owner", op: "eq", value: "OWN_SCOPEBOB" }] })).toEqual([]);
    // A nested hasMany obeys the scope of its own resource.
    const nested = await owners.findOne({ hash: "OWN_SCOPEANN" }, ["pets"], { scopeOf: (relation) => (relation === "pets" ? { where: { vaccinated: false } } : undefined) });
    expect(nested!.pets).toEqual([]);
    const all = await owners.findMany({ where: { name: "Ann" }, relations: ["pets"], scopeOf: () => undefined });
    expect(all[0]!.pets!.map((pet) => pet.hash)).toEqual(["PET_SCOPEAN1"]);
    // A scope names columns from code: an unknown one is a bug, never SQL.
    await expect(pets.findMany({ scope: { where: { "name\" OR 1=1 --": 1 } } })).rejects.toThrow(/no column/);
    await expect(pets.findMany({ scope: { through: { owner: { nope: 1 } } } })).rejects.toThrow(/no column/);
  });

  it("nests at most maxNestedPerParent records per parent, the first in list order, for every parent of a page", async () => {
    const many = await owners.insert({ hash: "OWN_MANYPETS", name: "Many" });
    const few = await owners.insert({ hash: "OWN_FEWPETSS", name: "Few" });
    for (let index = 0; index < maxNestedPerParent + 10; index += 1)
      await pets.insert({ hash: `PET_M${String(index).padStart(7, "0")}`, name: `Pet ${index}`, vaccinated: true, owner_id: many });
    await pets.insert({ hash: "PET_FEWPETS1", name: "Only", vaccinated: true, owner_id: few });
    // One parent with more items than the bound: the plain statement hits its limit, the ranked one reads.
    statements.length = 0;
    const page = await owners.findMany({ where: { name: "Many" }, relations: ["pets"] });
    expect(statements.filter((text) => text.includes("ROW_NUMBER()"))).toHaveLength(1);
    // Many parents, few items in all: the plain statement reads them, the bound is kept per parent.
    statements.length = 0;
    const listed = (await owners.findMany({ relations: ["pets"], orderBy: [{ name: "asc" }] })).filter((owner) => ["Many", "Few"].includes(owner.name));
    expect((await owners.findMany({})).length * maxNestedPerParent).toBeGreaterThan(await pets.count());
    expect(statements.filter((text) => text.includes("ROW_NUMBER()"))).toEqual([]);
    expect(page[0]!.pets!.map((pet) => pet.name)).toEqual(Array.from({ length: maxNestedPerParent }, (_, index) => `Pet ${index}`));
    expect(listed.map((owner) => owner.pets!.length)).toEqual([1, maxNestedPerParent]);
    expect((await owners.findOne({ id: many }, ["pets"]))!.pets).toHaveLength(maxNestedPerParent);
  });

  it("updates a soft-deleted row only when not told it must be live (a write after a delete is a 404)", async () => {
    const id = await owners.insert({ hash: "OWN_GONEGONE", name: "Gone", deleted_at: new Date() });
    expect(await owners.update(id, { name: "Still gone" }, true)).toBe(false);
    expect(await owners.updateAndRead(id, { name: "Still gone" }, [], true)).toBeNull();
    // The seed updates its fixed rows even when they were soft-deleted.
    expect(await owners.update(id, { name: "Seeded" })).toBe(true);
    expect((await owners.findOne({ id }))?.name).toBe("Seeded");
  });

  it("answers exists, update and delete, refusing a delete a restrict relation holds back", async () => {
    const ownerId = (await owners.liveId("OWN_AAAAAAAA"))!;
    expect(await owners.exists({ name: "Ana" })).toBe(true);
    expect(await owners.exists({ name: "Ana" }, ownerId)).toBe(false);
    expect(await owners.delete(ownerId)).toBe("referenced");
    const why = await owners.whatHoldsBack(ownerId);
    expect([why?.holder.name, why?.held.name]).toEqual(["pets", "owners"]);
    expect(referencedMessage(ownerTable as TableSpec, why)).toBe("Resource is referenced by other records: a pet still points at this owner.");
    expect(referencedMessage(ownerTable as TableSpec, { holder: ownerTable as TableSpec, held: petTable as TableSpec })).toBe("Resource is referenced by other records: an owner still points at a pet its delete would take.");
    expect(referencedMessage(ownerTable as TableSpec, undefined)).toBe("Resource is referenced by other records.");
    expect(await owners.liveId("OWN_AAAAAAAA")).toBe(ownerId);
    const pet = (await pets.findOne({ hash: "PET_BBBBBBBB" }))!;
    expect(await pets.update(pet.id, { name: "Bianca" })).toBe(true);
    expect((await pets.findOne({ id: pet.id }))!.name).toBe("Bianca");
    expect(await pets.delete(pet.id)).toBe("deleted");
    expect(await pets.findOne({ id: pet.id })).toBeNull();
    expect(await pets.delete(pet.id)).toBe("gone");
  });

  it("writes and reads back in one statement (RETURNING) when the read needs no join, and re-reads otherwise", async () => {
    statements.length = 0;
    const owner = await owners.insertAndRead({ hash: "OWN_CCCCCCCC", name: "Caio" });
    expect(owner).toMatchObject({ hash: "OWN_CCCCCCCC", name: "Caio", deleted_at: null });
    expect(owner.created_at).toBeInstanceOf(Date);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^INSERT INTO "owners" .* RETURNING "id", "hash"/);
    const renamed = await owners.updateAndRead(owner.id, { name: "Caio B." });
    expect(renamed).toMatchObject({ id: owner.id, name: "Caio B." });
    expect(renamed!.updated_at.getTime()).toBeGreaterThanOrEqual(owner.updated_at.getTime());
    expect(statements).toHaveLength(2);
    expect(await owners.updateAndRead(999_999, { name: "Nobody" })).toBeNull();

    statements.length = 0;
    // pets belongsTo owners: the read joins, so the write is followed by a read by id.
    const pet = await pets.insertAndRead({ hash: "PET_CCCCCCCC", name: "Tom", vaccinated: false, owner_id: owner.id }, ["owner"]);
    expect(pet.owner).toMatchObject({ hash: "OWN_CCCCCCCC", name: "Caio B." });
    expect(statements).toHaveLength(2);
    const withPets = await owners.updateAndRead(owner.id, { name: "Caio C." }, ["pets"]);
    expect(withPets!.pets!.map((item) => item.name)).toEqual(["Tom"]);
    await pets.delete(pet.id);
    await owners.delete(owner.id);
  });

  it("refuses a column name that is not declared (a bug in code, never SQL)", async () => {
    await expect(pets.findMany({ where: { ["name; DROP TABLE pets" as "name"]: "x" } })).rejects.toThrow("pets has no column");
  });

  it("reads a table whose belongsTo has the table's own name, and aliases past PostgreSQL's 63 bytes", async () => {
    interface Node {
      id: number;
      hash: string;
      a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch: string;
      nodes_id: number | null;
      created_at: Date;
      updated_at: Date;
    }
    const nodeTable: TableSpec<Node, Node & { nodes: unknown }> = {
      name: "nodes",
      event: "node",
      softDelete: false,
      columns: { a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch: "string", nodes_id: "integer" },
      relations: { nodes: { kind: "belongsTo", foreignKey: "nodes_id", target: () => nodeTable } },
      restrictedBy: [],
      cascadeTo: [],
      nullOnDelete: [],
    };
    await db.run(
      `CREATE TABLE "nodes" ("id" INTEGER PRIMARY KEY, "hash" TEXT UNIQUE NOT NULL, "a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch" TEXT NOT NULL, "nodes_id" INTEGER REFERENCES "nodes"("id"), "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL)`,
    );
    const nodes = new Table(db, nodeTable);
    const parent = await nodes.insert({ hash: "NOD_AAAAAAAA", a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch: "root" });
    await nodes.insert({ hash: "NOD_BBBBBBBB", a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch: "leaf", nodes_id: parent });
    const leaf = await nodes.findOne({ hash: "NOD_BBBBBBBB" }, ["nodes"]);
    expect(leaf).toMatchObject({ a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch: "leaf", nodes: { hash: "NOD_AAAAAAAA", a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch: "root" } });
    expect((await nodes.findMany({ conditions: [{ relation: "nodes", op: "eq", value: "NOD_AAAAAAAA" }] })).map((node) => node.hash)).toEqual(["NOD_BBBBBBBB"]);
    expect(await nodes.count({ conditions: [{ relation: "nodes", op: "eq", value: "NOD_AAAAAAAA" }] })).toBe(1);
    statements.length = 0;
    await nodes.findOne({ hash: "NOD_BBBBBBBB" }, ["nodes"]);
    const aliases = [...statements[0]!.matchAll(/AS "([^"]+)"/g)].map((match) => match[1]!);
    expect(aliases.every((alias) => alias.length <= 63)).toBe(true);
    expect(aliases).not.toContain(`nodes.${"a_column_name_long_enough_to_pass_the_postgresql_limit_60_ch"}`);
    expect(aliases).toContain("nodes.row");
  });

  it("runs tagged statements with the values apart from the text", async () => {
    const row = await db.get(sql`SELECT "name" FROM "owners" WHERE "hash" = ${"OWN_AAAAAAAA"}`);
    expect(row).toEqual({ name: "Ana" });
  });
});
