import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { recordedChanges } from "../../runtime/common/src/data/outbox.js";
import { defineTable, Table, type StatementEvent } from "../../runtime/common/src/data/table.js";
import type { ResourceDescriptor } from "../../runtime/common/src/resource/descriptor.js";
import { changesBetween, recordValues } from "../../runtime/common/src/resource/event-changes.js";
import { eventsTableStatement } from "../support/events-table.js";
import { integrationTargets, openIntegrationDatabase, type IntegrationDatabase } from "../support/integration-database.js";

/**
 * A create or update and its event as one statement (runtime data/table/one-statement.ts), where
 * the database builds the event's changes: they must be what the service builds in JavaScript from
 * the same rows (resource/event-changes.ts), for every column kind, nulls, decimals' places, dates,
 * instants and JSON with nulls and any alphabet inside; an update's before is the row it locked.
 */
interface Item {
  id: number;
  hash: string;
  title: string | null;
  count: number | null;
  price: string | null;
  active: boolean | null;
  due: Date | null;
  at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const columns = { title: "string", count: "integer", price: "decimal", active: "boolean", due: "date", at: "datetime" } as const;
const keys = Object.keys(columns);
const spec = defineTable<Item>({ name: "items", event: "item", softDelete: true, columns });
const descriptor = { table: spec, scales: { price: 2 }, output: ["hash", ...keys, "created_at", "updated_at", "deleted_at"] } as unknown as ResourceDescriptor;
const recorded: StatementEvent["recorded"] = keys.map((key) => ({ key, scale: key === "price" ? 2 : 0 }));
const actor = { hash: "USR_AAAAAAAA", name: "Ada" };

function itemsTable(dialect: "sqlite" | "postgresql"): string {
  const id = dialect === "sqlite" ? `"id" INTEGER PRIMARY KEY AUTOINCREMENT` : `"id" SERIAL PRIMARY KEY`;
  const [time, day, decimal] = dialect === "sqlite" ? ["DATETIME", "DATETIME", "DECIMAL"] : ["TIMESTAMPTZ(3)", "DATE", "DECIMAL(10, 2)"];
  return `CREATE TABLE "items" (${id}, "hash" TEXT NOT NULL UNIQUE, "title" TEXT UNIQUE, "count" INTEGER, "price" ${decimal}, "active" BOOLEAN, "due" ${day}, "at" ${time}, "created_at" ${time} NOT NULL, "updated_at" ${time} NOT NULL, "deleted_at" ${time})`;
}

describe.each(integrationTargets)("a write and its event as one statement on $label", ({ dialect }) => {
  let db: Sql;
  let opened: IntegrationDatabase | undefined;
  let table: Table<Item>;
  const values = recordValues(descriptor);
  let n = 0;

  beforeAll(async () => {
    opened = await openIntegrationDatabase(dialect, "one_statement", 4);
    db = opened.db;
    await db.exec(eventsTableStatement(dialect));
    await db.exec(itemsTable(dialect));
    table = new Table(db, spec);
  }, 120_000);

  afterAll(async () => {
    await opened?.close();
  });

  const lastEvent = async () => db.get(`SELECT "type", "record_hash", "actor_hash", "actor_name", "changes" FROM "hashapi_events" ORDER BY "id" DESC LIMIT 1`);
  const hash = () => `ITM_${String((n += 1)).padStart(8, "0")}`;

  it("is offered on PostgreSQL only, and not for a table with a json column (PostgreSQL writes its text its own way)", () => {
    expect(table.writesInOneStatement()).toBe(dialect === "postgresql");
    const withJson = new Table(db, defineTable<Item & { extra: unknown }>({ name: "items", columns: { ...columns, extra: "json" } }));
    expect(withJson.writesInOneStatement()).toBe(false);
  });

  it.runIf(dialect === "postgresql").each([
    ["every kind", { title: "Ação 東京 \"quoted\" 'single'", count: -7, price: "12.5", active: false, due: new Date("2026-02-28T00:00:00Z"), at: new Date("2026-01-15T09:30:00.120Z") }],
    ["nulls left out", { title: "Only a title", count: null, price: null, active: null, due: null, at: null }],
    ["zeros and edges", { title: "", count: 0, price: "-0.5", active: true, due: new Date("0999-01-01T00:00:00Z"), at: new Date("2026-12-31T23:59:59.999Z") }],
  ] as const)("records a create's changes as the service would: %s", async (_label, written) => {
    const row = await table.insertWithEvent({ ...written, hash: hash() }, { type: "item.created", actor, recorded });
    const event = await lastEvent();
    expect(event).toMatchObject({ type: "item.created", record_hash: row.hash, actor_hash: actor.hash, actor_name: actor.name });
    // Byte for byte: the stored text is what JSON.stringify writes (LIKE queries and receivers see the same).
    expect(event!.changes).toBe(JSON.stringify(changesBetween(undefined, values(row))));
    expect(await table.findOne({ hash: row.hash })).toEqual(row);
  });

  it.runIf(dialect === "postgresql")("records an update's changes from the row it locked, only what changed, and writes nothing for a row gone", async () => {
    const created = await table.insertWithEvent({ title: "Before", count: 1, price: "1.10", active: true, hash: hash() }, { type: "item.created", actor: null, recorded });
    const before = values(created);
    const updated = await table.updateWithEvent({ id: created.id }, { count: 2, price: "1.1", active: null, at: new Date("2026-03-01T10:00:00.000Z") }, true, { type: "item.updated", actor, recorded });
    const event = await lastEvent();
    // price 1.10 → 1.1 is the same decimal: no change.
    expect(recordedChanges(event!.changes)).toEqual({ count: [1, 2], active: [true, null], at: [null, "2026-03-01T10:00:00.000Z"] });
    expect(event!.changes).toBe(JSON.stringify(changesBetween(before, values(updated!))));
    await db.run(`UPDATE "items" SET "deleted_at" = '2026-01-01T00:00:00Z' WHERE "id" = ${created.id}`);
    const events = Number((await db.get(`SELECT COUNT(*) AS "count" FROM "hashapi_events"`))!.count);
    // Neither by id nor by hash (the update that read nothing first) is a trashed row written.
    expect(await table.updateWithEvent({ id: created.id }, { count: 3 }, true, { type: "item.updated", actor, recorded })).toBeNull();
    expect(await table.updateWithEvent({ hash: created.hash }, { count: 3 }, true, { type: "item.updated", actor, recorded })).toBeNull();
    expect(Number((await db.get(`SELECT COUNT(*) AS "count" FROM "hashapi_events"`))!.count)).toBe(events);
  });

  it.runIf(dialect === "postgresql")("chains 30 concurrent updates of one row, by id and by hash: each before is the after of the one before", async () => {
    const created = await table.insertWithEvent({ title: "Raced", count: 0, hash: hash() }, { type: "item.created", actor: null, recorded });
    const first = Number((await db.get(`SELECT MAX("id") AS "id" FROM "hashapi_events"`))!.id);
    await Promise.all(Array.from({ length: 30 }, (_, k) => table.updateWithEvent(k % 2 === 0 ? { id: created.id } : { hash: created.hash }, { count: k + 1 }, true, { type: "item.updated", actor: null, recorded })));
    const chain = (await db.all(`SELECT "changes" FROM "hashapi_events" WHERE "id" > ${first} ORDER BY "id"`)).map((row) => recordedChanges(row.changes).count as [number, number] | undefined);
    expect(chain).toHaveLength(30);
    let last = 0;
    for (const change of chain) {
      if (change === undefined) continue; // an update that wrote the value the row already had
      expect(change[0]).toBe(last);
      last = change[1];
    }
    expect((await table.findOne({ id: created.id }))!.count).toBe(last);
  });

  it.runIf(dialect === "postgresql")("fails whole on a unique value taken: no row, no event", async () => {
    await table.insertWithEvent({ title: "Taken", hash: hash() }, { type: "item.created", actor: null, recorded });
    const events = Number((await db.get(`SELECT COUNT(*) AS "count" FROM "hashapi_events"`))!.count);
    await expect(table.insertWithEvent({ title: "Taken", hash: hash() }, { type: "item.created", actor: null, recorded })).rejects.toThrow();
    expect(Number((await db.get(`SELECT COUNT(*) AS "count" FROM "hashapi_events"`))!.count)).toBe(events);
  });
});
