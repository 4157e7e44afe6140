import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeValue } from "../../runtime/common/src/data/column-codec.js";
import { fanOut } from "../../runtime/common/src/events/fan-out.js";
import { eventMatcher } from "../../runtime/common/src/events/receivers.js";
import { pruneEvents } from "../../runtime/common/src/events/retention.js";
import { Binder, type Sql } from "../../runtime/common/src/db/sql.js";
import { openOutboxDatabase } from "../support/events-table.js";
import { integrationTargets, type IntegrationDatabase } from "../support/integration-database.js";

/**
 * The outbox's retention and fan-out on a real database each (issue 35): old events of each rule
 * go, in batches, and nothing else; an audited resource without retainDays keeps all; `_` in a
 * resource's name is no wildcard; fan-out makes one delivery per receiver an event is for and
 * marks every event, once, whatever runs it.
 */
describe.each(integrationTargets)("the outbox's retention and fan-out on $label", ({ dialect }) => {
  let db: Sql;
  let opened: IntegrationDatabase | undefined;

  beforeAll(async () => {
    opened = await openOutboxDatabase(dialect, "retention", 4);
    db = opened.db;
  }, 120_000);

  afterAll(async () => {
    await opened?.close();
  });

  const day = 86_400_000;
  async function addEvent(type: string, ageDays: number, hash = "PAT_AAAAAAAA"): Promise<void> {
    const values = new Binder(db.dialect);
    const at = encodeValue("datetime", new Date(Date.now() - ageDays * day), db.dialect);
    await db.run(`INSERT INTO "hashapi_events" ("type", "record_hash", "changes", "created_at") VALUES (${values.add(type)}, ${values.add(hash)}, ${values.add("{}")}, ${values.add(at)})`, values.list);
  }
  const types = async () => (await db.all(`SELECT "type" FROM "hashapi_events" ORDER BY "id"`)).map((row) => String(row.type));

  it("deletes each rule's events older than its days, in batches, with their deliveries, and nothing else", async () => {
    for (let n = 0; n < 1_203; n += 1) await addEvent("patient.updated", 40);
    await addEvent("patient.created", 10);
    await addEvent("medical_record.created", 4_000);
    await addEvent("medicalxrecord.created", 40);
    await addEvent("user.created", 31);
    const deleted = await pruneEvents(db, [
      { event: "patient", days: 30 },
      { event: "medical_record", days: 3_650 },
      { event: "medicalxrecord", days: 100 },
      { event: "user", days: 30 },
    ]);
    expect(deleted).toBe(1_203 + 1 + 1);
    // The patient's recent event stays; `_` matched no other character; no rule, no deletion.
    expect(await types()).toEqual(["patient.created", "medicalxrecord.created"]);
    // The deliveries of pruned events go with them; those of kept events stay.
    const kept = await db.all(`SELECT "id" FROM "hashapi_events" ORDER BY "id"`);
    const now = encodeValue("datetime", new Date(), db.dialect);
    for (const [index, eventId] of [Number(kept[0]!.id), 999_999].entries()) {
      const values = new Binder(db.dialect);
      await db.run(`INSERT INTO "hashapi_deliveries" ("hash", "event_id", "receiver", "record_hash", "status", "next_attempt_at", "created_at", "updated_at") VALUES (${values.add(`DLV_AAAAAAA${index + 2}`)}, ${values.add(eventId)}, ${values.add("crm")}, ${values.add("PAT_AAAAAAAA")}, ${values.add("failed")}, ${values.add(now)}, ${values.add(now)}, ${values.add(now)})`, values.list);
    }
    await pruneEvents(db, []);
    expect((await db.all(`SELECT "hash" FROM "hashapi_deliveries"`)).map((row) => row.hash)).toEqual(["DLV_AAAAAAA2"]);
    await db.run(`DELETE FROM "hashapi_deliveries"`);
    await db.run(`DELETE FROM "hashapi_events"`);
  });

  it("fans each event out once, to the receivers it is for, and marks the others too", async () => {
    await addEvent("patient.created", 0, "PAT_BBBBBBBB");
    await addEvent("doctor.specialties.attached", 0, "DOC_BBBBBBBB");
    await addEvent("user.updated", 0, "USR_BBBBBBBB");
    const receiver = (name: string, patterns: string[]) => {
      const matches = eventMatcher(patterns);
      return { name, accepts: (event: { type: string }) => matches(event.type) };
    };
    const receivers = [receiver("crm", ["patient.*", "doctor.specialties.attached"]), receiver("on *", ["*"])];
    // Two workers at once: each event is taken by one of them (the second waits for the first).
    const taken = await Promise.all([fanOut(db, receivers, 2), fanOut(db, receivers, 2)]);
    expect(taken.reduce((sum, made) => sum + made.events, 0) + (await fanOut(db, receivers)).events).toBe(3);
    expect((await fanOut(db, receivers)).events).toBe(0);
    const made = await db.all(`SELECT "receiver", "record_hash", "status" FROM "hashapi_deliveries" ORDER BY "receiver", "record_hash"`);
    expect(made.map((row) => `${String(row.receiver)} ${String(row.record_hash)} ${String(row.status)}`)).toEqual([
      "crm DOC_BBBBBBBB pending",
      "crm PAT_BBBBBBBB pending",
      "on * DOC_BBBBBBBB pending",
      "on * PAT_BBBBBBBB pending",
      "on * USR_BBBBBBBB pending",
    ]);
    // Each receiver's deliveries of a record wait in that record's lane, due now.
    const lanes = await db.all(`SELECT "receiver", "record_hash", "lease" FROM "hashapi_lanes" ORDER BY "receiver", "record_hash"`);
    expect(lanes.map((row) => `${String(row.receiver)} ${String(row.record_hash)} ${String(row.lease)}`)).toEqual([
      "crm DOC_BBBBBBBB null",
      "crm PAT_BBBBBBBB null",
      "on * DOC_BBBBBBBB null",
      "on * PAT_BBBBBBBB null",
      "on * USR_BBBBBBBB null",
    ]);
  });
});
