import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { eventMatcher } from "../../runtime/common/src/events/receivers.js";
import { fanOut } from "../../runtime/common/src/events/fan-out.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { emptyOutbox, openOutboxDatabase } from "../support/events-table.js";
import { integrationTargets, type IntegrationDatabase } from "../support/integration-database.js";

/**
 * Issue 47: an event no receiver hears is written fanned out already (runtime data/event-hearing.ts),
 * so fan-out never reads or rewrites it; every event some receiver hears still waits for fan-out and
 * gets its delivery. Until a service tells the outbox its receivers, every event waits, as before.
 * The steps share the process's receivers (module state), so they run in order, on modules loaded
 * afresh for each database.
 */
type Outbox = typeof import("../../runtime/common/src/data/outbox.js");
type Hearing = typeof import("../../runtime/common/src/data/event-hearing.js");
const crm = { name: "crm", matches: eventMatcher(["ticket.*"]), seeds: false };
const audit = { name: "audit", matches: eventMatcher(["note.created"]), seeds: true };
const actor = { hash: "USR_AAAAAAAA", name: "Ada" };

describe.each(integrationTargets)("events no receiver hears, on $label", ({ dialect }) => {
  let db: Sql;
  let opened: IntegrationDatabase | undefined;
  let outbox: Outbox;
  let hearing: Hearing;

  beforeAll(async () => {
    vi.resetModules();
    outbox = await import("../../runtime/common/src/data/outbox.js");
    hearing = await import("../../runtime/common/src/data/event-hearing.js");
    opened = await openOutboxDatabase(dialect, "event_hearing", 2);
    db = opened.db;
  }, 120_000);

  afterAll(async () => {
    await opened?.close();
  });

  beforeEach(() => emptyOutbox(db));

  const write = (type: string, hash: string) => outbox.appendEvents(db, actor, [{ type, hash, changes: {} }]);
  const waiting = async () =>
    (await db.all(`SELECT "type" FROM "hashapi_events" WHERE "fanned_out" = ${dialect === "sqlite" ? "0" : "false"} ORDER BY "id"`)).map((row) => row.type);
  const delivered = async () => (await db.all(`SELECT "receiver", "record_hash" FROM "hashapi_deliveries" ORDER BY "id"`)).map((row) => `${row.receiver} ${row.record_hash}`);
  const receivers = [crm, audit].map((receiver) => ({ name: receiver.name, accepts: (event: { type: string; origin: string | null }) => receiver.matches(event.type) && (event.origin === null || receiver.seeds) }));

  it.sequential("leaves every event to fan-out until a service names its receivers", async () => {
    await write("ticket.created", "TCK_00000001");
    await write("patient.created", "PAT_00000001");
    expect(await waiting()).toEqual(["ticket.created", "patient.created"]);
  });

  it.sequential("then writes settled what none of them hears, in single and bulk writes, and delivers the rest", async () => {
    hearing.hearEventsOf([crm, audit]);
    await write("ticket.created", "TCK_00000001");
    await write("patient.created", "PAT_00000001");
    await write("note.created", "NOT_00000001");
    await write("note.updated", "NOT_00000001");
    await outbox.appendEventsOfRows(db, actor, "patient.updated", () => `SELECT 'PAT_00000002' AS "hash", '{}' AS "changes"`);
    await outbox.appendEventsOfRows(db, actor, "ticket.updated", () => `SELECT 'TCK_00000002' AS "hash", '{}' AS "changes"`);
    expect(await waiting()).toEqual(["ticket.created", "note.created", "ticket.updated"]);
    expect((await fanOut(db, receivers)).events).toBe(3);
    expect(await delivered()).toEqual(["crm TCK_00000001", "audit NOT_00000001", "crm TCK_00000002"]);
    expect(await waiting()).toEqual([]);
  });

  it.sequential("decides what commands write by whether a receiver hears seeds", async () => {
    outbox.recordEventsAs("seed");
    await write("ticket.created", "TCK_00000003");
    await write("note.created", "NOT_00000003");
    expect(await waiting()).toEqual(["note.created"]);
    expect((await fanOut(db, receivers)).events).toBe(1);
    expect(await delivered()).toEqual(["audit NOT_00000003"]);
  });
});
