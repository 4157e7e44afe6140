import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsTableStatement } from "../support/events-table.js";
import { openSql as openSqlite } from "../../runtime/sqlite/src/db/driver.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { defineTable, Table, type TableSpec } from "../../runtime/common/src/data/table.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * Reference integrity of soft deletes (issue 20): a soft delete and a write that references the
 * record never both succeed, and restrict, cascade and setNull hold for soft deletes as the
 * database's foreign keys hold them for hard ones. Real SQLite and PostgreSQL, real concurrency.
 */

// Owners (soft delete) have: visits (soft, cascade), tags (hard, cascade), notes (setNull) and
// invoices (soft, restrict). Visits have stamps (soft, restrict): a cascade stops at them.
const owners: TableSpec = defineTable<any>({
  name: "owners",
  softDelete: true,
  columns: { name: "string" },
  restrictedBy: [{ foreignKey: "owner_id", target: () => invoices }],
  cascadeTo: [
    { foreignKey: "owner_id", target: () => visits },
    { foreignKey: "owner_id", target: () => tags },
  ],
  nullOnDelete: [{ foreignKey: "owner_id", target: () => notes }],
});
const visits: TableSpec = defineTable<any>({
  name: "visits",
  softDelete: true,
  columns: { owner_id: "integer" },
  relations: { owner: { kind: "belongsTo", foreignKey: "owner_id", target: () => owners } },
  restrictedBy: [{ foreignKey: "visit_id", target: () => stamps }],
});
const stamps: TableSpec = defineTable<any>({
  name: "stamps",
  softDelete: true,
  columns: { visit_id: "integer" },
  relations: { visit: { kind: "belongsTo", foreignKey: "visit_id", target: () => visits } },
});
const tags: TableSpec = defineTable<any>({
  name: "tags",
  columns: { owner_id: "integer" },
  relations: { owner: { kind: "belongsTo", foreignKey: "owner_id", target: () => owners } },
});
const notes: TableSpec = defineTable<any>({
  name: "notes",
  columns: { owner_id: "integer" },
  relations: { owner: { kind: "belongsTo", foreignKey: "owner_id", target: () => owners } },
});
const invoices: TableSpec = defineTable<any>({
  name: "invoices",
  softDelete: true,
  columns: { owner_id: "integer" },
  relations: { owner: { kind: "belongsTo", foreignKey: "owner_id", target: () => owners } },
});

// Rows that point at rows of their own table (a spec's belongsTo to itself): tickets (soft delete)
// cascade to the tickets under them and are restricted by the tickets they block; nodes (hard
// delete) cascade to theirs. Rows may point at themselves, or at each other in a ring.
const tickets: TableSpec = defineTable<any>({
  name: "tickets",
  softDelete: true,
  columns: { parent_id: "integer", blocker_id: "integer" },
  relations: { parent: { kind: "belongsTo", foreignKey: "parent_id", target: () => tickets } },
  cascadeTo: [{ foreignKey: "parent_id", target: () => tickets }],
  restrictedBy: [{ foreignKey: "blocker_id", target: () => tickets }],
});
const nodes: TableSpec = defineTable<any>({
  name: "nodes",
  columns: { parent_id: "integer" },
  relations: { parent: { kind: "belongsTo", foreignKey: "parent_id", target: () => nodes } },
  cascadeTo: [{ foreignKey: "parent_id", target: () => nodes }],
});

function schema(dialect: "sqlite" | "postgresql"): string[] {
  const id = dialect === "sqlite" ? `"id" INTEGER PRIMARY KEY` : `"id" SERIAL PRIMARY KEY`;
  const time = dialect === "sqlite" ? "TEXT" : "TIMESTAMPTZ(3)";
  const common = `${id}, "hash" TEXT UNIQUE NOT NULL, "created_at" ${time} NOT NULL, "updated_at" ${time} NOT NULL`;
  const child = (name: string, parent: string, column: string, onDelete: string, soft: boolean) =>
    `CREATE TABLE "${name}" (${common}, "${column}" INTEGER ${onDelete === "SET NULL" ? "" : "NOT NULL "}REFERENCES "${parent}"("id") ON DELETE ${onDelete}${soft ? `, "deleted_at" ${time}` : ""})`;
  return [
    eventsTableStatement(dialect),
    `CREATE TABLE "owners" (${common}, "name" TEXT NOT NULL, "deleted_at" ${time})`,
    child("visits", "owners", "owner_id", "CASCADE", true),
    child("stamps", "visits", "visit_id", "RESTRICT", true),
    child("tags", "owners", "owner_id", "CASCADE", false),
    child("notes", "owners", "owner_id", "SET NULL", false),
    child("invoices", "owners", "owner_id", "RESTRICT", true),
    `CREATE TABLE "tickets" (${common}, "deleted_at" ${time}, "parent_id" INTEGER REFERENCES "tickets"("id") ON DELETE CASCADE, "blocker_id" INTEGER REFERENCES "tickets"("id") ON DELETE RESTRICT)`,
    `CREATE TABLE "nodes" (${common}, "parent_id" INTEGER REFERENCES "nodes"("id") ON DELETE CASCADE)`,
  ];
}

/** The PostgreSQL driver, loaded by path: the type-check sees runtime/common beside sqlite/ only (tsconfig rootDirs). */
async function openPostgres(url: string, poolSize: number): Promise<Sql> {
  const driver = "../../runtime/postgresql/src/db/driver.js";
  return ((await import(driver)) as { openSql: (url: string, poolSize: number) => Sql }).openSql(url, poolSize);
}

let serial = 0;
const nextHash = (prefix: string) => `${prefix}_${String((serial += 1)).padStart(8, "A")}`;

const targets = [
  { label: "SQLite", dialect: "sqlite" as const },
  ...(postgresBinDir() || process.env.CI ? [{ label: "PostgreSQL", dialect: "postgresql" as const }] : []),
];

describe.each(targets)("soft-delete integrity on $label", ({ dialect }) => {
  let db: Sql;
  let dir: string | undefined;
  let postgres: PostgresServer | undefined;
  const table = (spec: TableSpec) => new Table<any, any>(db, spec);

  beforeAll(async () => {
    if (dialect === "sqlite") {
      dir = mkdtempSync(join(tmpdir(), "hashapi-integrity-"));
      db = openSqlite(`file:${join(dir, "test.db")}`);
    } else {
      postgres = await startPostgres();
      await postgres.createDatabase("integrity");
      db = await openPostgres(postgres.url("integrity"), 10);
    }
    for (const statement of schema(dialect)) await db.exec(statement);
  });

  afterAll(async () => {
    await db?.close();
    await postgres?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const newOwner = () => table(owners).insert({ hash: nextHash("OWN"), name: "Ana" });
  const softDelete = (spec: TableSpec, id: number) => db.transaction((tx) => table(spec).within(tx).softDelete(id));
  const restore = (spec: TableSpec, id: number) => db.transaction((tx) => table(spec).within(tx).restore(id));
  const live = async (name: string, where: string, values: unknown[]) =>
    Number((await db.get(`SELECT COUNT(*) AS "n" FROM "${name}" WHERE ${where}`, values))!.n);
  const p = (position: number) => (dialect === "sqlite" ? "?" : `$${position}`);

  it("refuses a soft delete while a live row points at it through restrict, and allows it once that row is deleted", async () => {
    const owner = await newOwner();
    const invoice = await table(invoices).insert({ hash: nextHash("INV"), owner_id: owner });
    expect(await softDelete(owners, owner)).toBe("referenced");
    expect(await live("owners", `"id" = ${p(1)} AND "deleted_at" IS NULL`, [owner])).toBe(1);
    expect(await softDelete(invoices, invoice)).toBe("deleted");
    expect(await softDelete(owners, owner)).toBe("deleted");
    expect(await softDelete(owners, owner)).toBe("gone");
  });

  it("cascades a soft delete (soft rows at the same instant, hard rows removed), clears setNull links, and restores exactly what it cascaded to", async () => {
    const owner = await newOwner();
    const earlier = await table(visits).insert({ hash: nextHash("VIS"), owner_id: owner });
    expect(await softDelete(visits, earlier)).toBe("deleted");
    // A cascade restores what was deleted at the parent's instant (to the millisecond): not this one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const visitIds = [
      await table(visits).insert({ hash: nextHash("VIS"), owner_id: owner }),
      await table(visits).insert({ hash: nextHash("VIS"), owner_id: owner }),
    ];
    await table(tags).insert({ hash: nextHash("TAG"), owner_id: owner });
    const note = await table(notes).insert({ hash: nextHash("NOT"), owner_id: owner });

    expect(await softDelete(owners, owner)).toBe("deleted");
    const deletedAt = (await db.get(`SELECT "deleted_at" FROM "owners" WHERE "id" = ${p(1)}`, [owner]))!.deleted_at;
    const visitRows = await db.all(`SELECT "id", "deleted_at" FROM "visits" WHERE "owner_id" = ${p(1)} ORDER BY "id"`, [owner]);
    expect(visitRows.filter((row) => row.deleted_at === null)).toEqual([]);
    for (const row of visitRows.filter((row) => visitIds.includes(Number(row.id)))) expect(String(row.deleted_at)).toBe(String(deletedAt));
    expect(await live("tags", `"owner_id" = ${p(1)}`, [owner])).toBe(0);
    expect((await db.get(`SELECT "owner_id" FROM "notes" WHERE "id" = ${p(1)}`, [note]))!.owner_id).toBeNull();

    expect(await restore(owners, owner)).toEqual({ outcome: "restored" });
    expect(await live("owners", `"id" = ${p(1)} AND "deleted_at" IS NULL`, [owner])).toBe(1);
    // The two visits the cascade deleted are back; the one deleted before stays deleted.
    const back = await db.all(`SELECT "id" FROM "visits" WHERE "owner_id" = ${p(1)} AND "deleted_at" IS NULL ORDER BY "id"`, [owner]);
    expect(back.map((row) => Number(row.id))).toEqual(visitIds);
    expect(await live("visits", `"id" = ${p(1)} AND "deleted_at" IS NULL`, [earlier])).toBe(0);
  });

  it("records an event for every row a cascade touches, in the write's transaction, and none for a refused one", async () => {
    const owner = await newOwner();
    const hashOf = async (name: string, id: number) => (await db.get(`SELECT "hash" FROM "${name}" WHERE "id" = ${p(1)}`, [id]))!.hash as string;
    const visit = await table(visits).insert({ hash: nextHash("VIS"), owner_id: owner });
    const tag = await table(tags).insert({ hash: nextHash("TAG"), owner_id: owner });
    const note = await table(notes).insert({ hash: nextHash("NOT"), owner_id: owner });
    const ownerHash = await hashOf("owners", owner);
    const [visitHash, tagHash, noteHash] = [await hashOf("visits", visit), await hashOf("tags", tag), await hashOf("notes", note)];
    const eventsOf = async (hashes: string[]) =>
      (await db.all(`SELECT "type", "record_hash", "actor_hash", "changes" FROM "hashapi_events" WHERE "record_hash" IN (${hashes.map((_, index) => p(index + 1)).join(", ")}) ORDER BY "id"`, hashes)).map((row) => ({
        type: row.type,
        hash: row.record_hash,
        actor: row.actor_hash,
        changes: JSON.parse(String(row.changes)) as unknown,
      }));
    const actor = { hash: "USR_AAAAAAAA", name: "Ada" };
    const hashes = [ownerHash, visitHash, tagHash, noteHash];
    expect(await db.transaction((tx) => table(owners).within(tx).softDelete(owner, actor))).toBe("deleted");
    expect(await eventsOf(hashes)).toEqual([
      { type: "owners.deleted", hash: ownerHash, actor: actor.hash, changes: {} },
      { type: "notes.updated", hash: noteHash, actor: actor.hash, changes: { owner: [ownerHash, null] } },
      { type: "tags.deleted", hash: tagHash, actor: actor.hash, changes: {} },
      { type: "visits.deleted", hash: visitHash, actor: actor.hash, changes: {} },
    ]);
    expect(await restore(owners, owner)).toEqual({ outcome: "restored" });
    expect((await eventsOf(hashes)).slice(4)).toEqual([
      { type: "visits.restored", hash: visitHash, actor: null, changes: {} },
      { type: "owners.restored", hash: ownerHash, actor: null, changes: {} },
    ]);
    // Refused below the cascade (a live stamp restricts its visit): rolled back, events included.
    await table(stamps).insert({ hash: nextHash("STA"), visit_id: visit });
    expect(await softDelete(owners, owner)).toBe("referenced");
    expect(await eventsOf(hashes)).toHaveLength(6);
    // A write that fails after its events were appended leaves none either.
    await expect(
      db.transaction(async (tx) => {
        await table(owners).within(tx).softDelete(owner, actor);
        throw new Error("after the events");
      }),
    ).rejects.toThrow("after the events");
    expect(await eventsOf(hashes)).toHaveLength(6);
  });

  it("lets a restrict below a cascade refuse the whole delete, changing nothing", async () => {
    const owner = await newOwner();
    const visit = await table(visits).insert({ hash: nextHash("VIS"), owner_id: owner });
    await table(stamps).insert({ hash: nextHash("STA"), visit_id: visit });
    const note = await table(notes).insert({ hash: nextHash("NOT"), owner_id: owner });
    expect(await softDelete(owners, owner)).toBe("referenced");
    expect(await live("visits", `"id" = ${p(1)} AND "deleted_at" IS NULL`, [visit])).toBe(1);
    expect((await db.get(`SELECT "owner_id" FROM "notes" WHERE "id" = ${p(1)}`, [note]))!.owner_id).toBe(owner);
  });

  it("refuses to restore a row whose parent is deleted, naming the relation", async () => {
    const owner = await newOwner();
    const invoice = await table(invoices).insert({ hash: nextHash("INV"), owner_id: owner });
    expect(await softDelete(invoices, invoice)).toBe("deleted");
    expect(await softDelete(owners, owner)).toBe("deleted");
    expect(await restore(invoices, invoice)).toEqual({ outcome: "parent", relation: "owner" });
    expect(await restore(owners, owner)).toEqual({ outcome: "restored" });
    expect(await restore(invoices, invoice)).toEqual({ outcome: "restored" });
    expect(await restore(invoices, invoice)).toEqual({ outcome: "gone" });
  });

  it("never lets a soft delete and an insert that references the row both succeed: 300 concurrent pairs", async () => {
    const rounds = 300;
    let bothSucceeded = 0;
    let deletes = 0;
    let inserts = 0;
    for (let start = 0; start < rounds; start += 30) {
      const pairs = await Promise.all(
        Array.from({ length: 30 }, async () => {
          const owner = await newOwner();
          const ownerHash = (await db.get(`SELECT "hash" FROM "owners" WHERE "id" = ${p(1)}`, [owner]))!.hash as string;
          const [deleted, inserted] = await Promise.all([
            softDelete(owners, owner),
            db
              .transaction(async (tx) => {
                const parent = await table(owners).within(tx).liveId(ownerHash, "share");
                if (parent === null) return false;
                await table(invoices).within(tx).insert({ hash: nextHash("INV"), owner_id: parent });
                return true;
              })
              .catch((error: unknown) => {
                if (db.dialect.errors.isForeignKeyViolation(error)) return false;
                throw error;
              }),
          ]);
          return { owner, deleted: deleted === "deleted", inserted };
        }),
      );
      for (const pair of pairs) {
        if (pair.deleted) deletes += 1;
        if (pair.inserted) inserts += 1;
        if (pair.deleted && pair.inserted) bothSucceeded += 1;
      }
    }
    expect(bothSucceeded).toBe(0);
    expect(deletes + inserts).toBe(rounds);
    // Nothing in the database contradicts it either: no live invoice of a deleted owner.
    expect(await live("invoices", `"deleted_at" IS NULL AND "owner_id" IN (SELECT "id" FROM "owners" WHERE "deleted_at" IS NOT NULL)`, [])).toBe(0);
  });

  /** Rows of `spec` inserted then linked by `links` (index → index of the row it points at). */
  const linked = async (spec: TableSpec, prefix: string, count: number, links: Record<number, Record<string, number>>) => {
    const ids: number[] = [];
    for (let index = 0; index < count; index += 1) ids.push(await table(spec).insert({ hash: nextHash(prefix) }));
    for (const [index, columns] of Object.entries(links))
      for (const [column, target] of Object.entries(columns))
        await db.run(`UPDATE "${spec.name}" SET "${column}" = ${p(1)} WHERE "id" = ${p(2)}`, [ids[target], ids[Number(index)]]);
    return ids;
  };
  const eventCounts = async (name: string, ids: number[]) => {
    const rows = await db.all(
      `SELECT "e"."type" AS "type", COUNT(*) AS "n" FROM "hashapi_events" AS "e" JOIN "${name}" AS "r" ON "r"."hash" = "e"."record_hash" WHERE "r"."id" IN (${ids.map((_, index) => p(index + 1)).join(", ")}) GROUP BY "e"."type" ORDER BY "e"."type"`,
      ids,
    );
    return Object.fromEntries(rows.map((row) => [row.type, Number(row.n)]));
  };
  const trashed = (name: string, ids: number[]) => live(name, `"deleted_at" IS NOT NULL AND "id" IN (${ids.map((_, index) => p(index + 1)).join(", ")})`, ids);

  it("soft-deletes and restores rows that point at themselves or at each other in a ring, each once", async () => {
    // 0 is its own parent; 1 and 2 are each other's, 3 is under 2 and 4 under 3.
    const ids = await linked(tickets, "TIC", 5, { 0: { parent_id: 0 }, 1: { parent_id: 2 }, 2: { parent_id: 1 }, 3: { parent_id: 2 }, 4: { parent_id: 3 } });
    expect(await softDelete(tickets, ids[0]!)).toBe("deleted");
    expect(await trashed("tickets", ids)).toBe(1);
    expect(await softDelete(tickets, ids[1]!)).toBe("deleted");
    expect(await trashed("tickets", ids)).toBe(5);
    expect(await eventCounts("tickets", ids)).toEqual({ "tickets.deleted": 5 });
    // Restoring one of the ring brings the ring and what hangs under it back; its parent is among them.
    expect(await restore(tickets, ids[2]!)).toEqual({ outcome: "restored" });
    expect(await trashed("tickets", ids)).toBe(1);
    expect(await restore(tickets, ids[0]!)).toEqual({ outcome: "restored" });
    expect(await trashed("tickets", ids)).toBe(0);
    expect(await eventCounts("tickets", ids)).toEqual({ "tickets.deleted": 5, "tickets.restored": 5 });
  });

  it("lets a row that restricts itself, or is restricted only by rows the same delete takes, be deleted", async () => {
    // 0 blocks itself; 2 (under 1) blocks 1; 3 blocks 4, which the delete of 1 does not take.
    const ids = await linked(tickets, "TIC", 5, { 0: { blocker_id: 0 }, 2: { parent_id: 1, blocker_id: 1 }, 3: { blocker_id: 4 } });
    expect(await softDelete(tickets, ids[0]!)).toBe("deleted");
    expect(await softDelete(tickets, ids[1]!)).toBe("deleted");
    expect(await trashed("tickets", ids)).toBe(3);
    expect(await softDelete(tickets, ids[4]!)).toBe("referenced");
    expect(await trashed("tickets", ids)).toBe(3);
  });

  it("deletes (hard) a chain and a ring of rows of one table, with one event for each row the database deletes", async () => {
    // 1 is under 0 and 2 under 1; 3 and 4 are each other's; 5 is its own parent.
    const ids = await linked(nodes, "NOD", 6, { 1: { parent_id: 0 }, 2: { parent_id: 1 }, 3: { parent_id: 4 }, 4: { parent_id: 3 }, 5: { parent_id: 5 } });
    const remove = (id: number) => db.transaction((tx) => table(nodes).within(tx).delete(id));
    expect(await remove(ids[0]!)).toBe("deleted");
    expect(await remove(ids[3]!)).toBe("deleted");
    expect(await remove(ids[5]!)).toBe("deleted");
    expect(await live("nodes", `"id" IN (${ids.map((_, index) => p(index + 1)).join(", ")})`, ids)).toBe(0);
    const recorded = await db.all(`SELECT "record_hash" FROM "hashapi_events" WHERE "type" = 'nodes.deleted' AND "record_hash" LIKE 'NOD%'`, []);
    expect(recorded).toHaveLength(6);
    expect(new Set(recorded.map((row) => row.record_hash)).size).toBe(6);
  });

  it("takes each row of a ring once when deletes of its members race: 30 rounds, soft and hard", async () => {
    const remove = (id: number) => db.transaction((tx) => table(nodes).within(tx).delete(id));
    for (let round = 0; round < 30; round += 1) {
      // A ring of three (0 under 2, 1 under 0, 2 under 1) and 3 under 2; three deletes at once.
      const ring = { 0: { parent_id: 2 }, 1: { parent_id: 0 }, 2: { parent_id: 1 }, 3: { parent_id: 2 } };
      const soft = await linked(tickets, "TIC", 4, ring);
      const softOutcomes = await Promise.all([softDelete(tickets, soft[0]!), softDelete(tickets, soft[1]!), softDelete(tickets, soft[3]!)]);
      expect(softOutcomes).toContain("deleted");
      expect(softOutcomes.every((outcome) => outcome === "deleted" || outcome === "gone")).toBe(true);
      expect(await trashed("tickets", soft)).toBe(4);
      expect(await eventCounts("tickets", soft)).toEqual({ "tickets.deleted": 4 });

      const hard = await linked(nodes, "NOD", 4, ring);
      const places = hard.map((_, index) => p(index + 1)).join(", ");
      const hashes = (await db.all(`SELECT "hash" FROM "nodes" WHERE "id" IN (${places})`, hard)).map((row) => String(row.hash));
      const hardOutcomes = await Promise.all([remove(hard[0]!), remove(hard[1]!), remove(hard[3]!)]);
      expect(hardOutcomes).toContain("deleted");
      expect(hardOutcomes.every((outcome) => outcome === "deleted" || outcome === "gone")).toBe(true);
      expect(await live("nodes", `"id" IN (${places})`, hard)).toBe(0);
      // One `.deleted` event for each row the database deleted, whichever delete took it.
      const recorded = await db.all(`SELECT "record_hash" FROM "hashapi_events" WHERE "type" = 'nodes.deleted' AND "record_hash" IN (${places})`, hashes);
      expect(recorded.map((row) => String(row.record_hash)).sort()).toEqual([...hashes].sort());
    }
  });

  it("keeps statements of other requests out of an open transaction (a rollback takes only its own writes)", async () => {
    const owner = await newOwner();
    const failing = db.transaction(async (tx) => {
      await table(tags).within(tx).insert({ hash: nextHash("TAG"), owner_id: owner });
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error("rolled back on purpose");
    });
    const outside = table(notes).insert({ hash: nextHash("NOT"), owner_id: owner });
    await expect(failing).rejects.toThrow("rolled back on purpose");
    const note = await outside;
    expect(await live("notes", `"id" = ${p(1)}`, [note])).toBe(1);
    expect(await live("tags", `"owner_id" = ${p(1)}`, [owner])).toBe(0);
  });
});
