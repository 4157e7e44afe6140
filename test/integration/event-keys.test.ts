import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { eventKeyStatements } from "../../src/migrate/event-keys.js";
import { parseSchemaShape } from "../../src/migrate/schema-shape.js";
import type { SchemaEvolution } from "../../src/model/schema-evolution.js";
import { eventsTableStatement } from "../support/events-table.js";
import { integrationTargets, openIntegrationDatabase, type IntegrationDatabase } from "../support/integration-database.js";

/**
 * Issue 45: a migration carries its renames and drops into the stored events (src/migrate/
 * event-keys.ts), run here on a real database each: a renamed field's key and a renamed
 * resource's type follow, a dropped column's key is put out of the way, values and other
 * resources' events stay exactly as they were.
 */
const before = `model HashapiEvent {
  id Int @id
  @@map("hashapi_events")
}
model Appointment {
  id Int @id
  notes String?
  weight Int?
  doctor_id Int?
  @@map("appointments")
}`;
// After the renames (notes → clinical_notes, doctor → physician): what the migration diffs from.
const renamed = before.replace("notes String?", "clinical_notes String?").replace("doctor_id Int?", "physician_id Int?");
const after = `model HashapiEvent {
  id Int @id
  @@map("hashapi_events")
}
model Visit {
  id Int @id
  clinical_notes String?
  physician_id Int?
  @@map("appointments")
}`;

const evolution: SchemaEvolution = {
  tables: [{ from: "Appointment", table: "appointments", events: { from: "appointment", to: "visit" } }],
  columns: [
    { table: "appointments", from: "notes", to: "clinical_notes", eventKey: { from: "notes", to: "clinical_notes" } },
    { table: "appointments", from: "doctor_id", to: "physician_id", eventKey: { from: "doctor", to: "physician" } },
  ],
  fills: [],
  sources: {},
  events: { appointments: { event: "visit", keys: ["clinical_notes", "physician"] } },
};
const renames = {
  tables: [],
  columns: [
    { table: "appointments", from: "notes", to: "clinical_notes" },
    { table: "appointments", from: "doctor_id", to: "physician_id" },
  ],
};

describe.each(integrationTargets)("stored events follow a migration's renames and drops on $label", ({ dialect }) => {
  let db: Sql;
  let opened: IntegrationDatabase | undefined;

  beforeAll(async () => {
    opened = await openIntegrationDatabase(dialect, "event_keys", 2);
    db = opened.db;
    await db.exec(eventsTableStatement(dialect));
  }, 120_000);

  afterAll(async () => {
    await opened?.close();
  });

  it("renames keys and types, puts dropped keys out of the way, and leaves the rest as it was", async () => {
    const add = (type: string, changes: object) =>
      db.run(`INSERT INTO "hashapi_events" ("type", "record_hash", "changes", "created_at") VALUES ('${type}', 'APT_AAAAAAAA', '${JSON.stringify(changes).replaceAll("'", "''")}', '2026-01-01T00:00:00.000Z')`);
    await add("appointment.created", { notes: [null, "it's \"quoted\""], weight: [null, 70], doctor: [null, "DOC_AAAAAAAA"], status: [null, "scheduled"] });
    await add("appointment.updated", { notes: ["a", ["nested", { b: 1 }]] });
    await add("appointment_extra.updated", { notes: ["not", "this resource's"] });
    await add("patient.updated", { notes: ["nor", "this"] });
    const statements = eventKeyStatements(before, parseSchemaShape(renamed), parseSchemaShape(after), renames, evolution, dialect, "0012_visits");
    expect(statements).toHaveLength(4);
    await db.transaction(async (tx) => {
      for (const statement of statements) await tx.run(statement);
    });
    const rows = await db.all(`SELECT "type", "changes" FROM "hashapi_events" ORDER BY "id"`);
    const read = rows.map((row) => [String(row.type), JSON.parse(String(row.changes)) as Record<string, unknown>] as const);
    expect(read[0]).toEqual(["visit.created", { clinical_notes: [null, "it's \"quoted\""], "weight#0012_visits": [null, 70], physician: [null, "DOC_AAAAAAAA"], status: [null, "scheduled"] }]);
    expect(read[1]).toEqual(["visit.updated", { clinical_notes: ["a", ["nested", { b: 1 }]] }]);
    // `_` in a resource's name is no wildcard; another resource's events are not touched.
    expect(read[2]).toEqual(["appointment_extra.updated", { notes: ["not", "this resource's"] }]);
    expect(read[3]).toEqual(["patient.updated", { notes: ["nor", "this"] }]);
  });

  it("writes nothing for a project whose outbox does not exist yet", () => {
    const withoutOutbox = before.replace(/model HashapiEvent \{[\s\S]*?\n\}\n/, "");
    expect(eventKeyStatements(withoutOutbox, parseSchemaShape(renamed), parseSchemaShape(after), renames, evolution, dialect, "0002_x")).toEqual([]);
    expect(eventKeyStatements(null, null, parseSchemaShape(after), renames, evolution, dialect, "0001_init")).toEqual([]);
  });
});
