import { describe, expect, it } from "vitest";
import { ownedChanges, ownedObjects } from "../../src/migrate/owned-sql.js";
import { ownerIndexMarker } from "../../src/migrate/owner-indexes.js";
import { textIndexMarker, textTableName, trigramIndexName } from "../../src/migrate/text-indexes.js";

/** A model as hashapi writes it, with the doc lines that declare what migrations own. */
function patients(options: { table?: string; indexed?: string[]; column?: string; owner?: boolean; softDelete?: boolean; provider?: "sqlite" | "postgresql" }): string {
  const table = options.table ?? "patients";
  const provider = options.provider ?? "sqlite";
  const name = options.column ?? "name";
  const marker = (column: string) => (options.indexed ?? [name, "notes"]).includes(column) ? [`  /// ${textIndexMarker(provider === "sqlite" ? textTableName(table) : trigramIndexName(table, column))}`] : [];
  return [
    "model Patient {",
    "  id Int @id @default(autoincrement())",
    ...marker(name),
    `  ${name} String`,
    ...marker("notes"),
    "  notes String?",
    "  doctor_id Int",
    ...(options.owner ? [`  /// ${ownerIndexMarker(table, "doctor_id", options.softDelete ?? true)}`] : []),
    "  created_at DateTime @default(now())",
    ...(options.softDelete ?? true ? ["  deleted_at DateTime?"] : []),
    "",
    `  @@map("${table}")`,
    "}",
  ].join("\n");
}

describe("what migrations own beside Prisma's diff (src/migrate/owned-sql.ts)", () => {
  it("makes a table's FTS5 index on SQLite, filled and kept in step by triggers; a GIN index per column on PostgreSQL, after pg_trgm once", () => {
    const sqlite = ownedChanges(null, patients({}), "sqlite", []);
    expect(sqlite.before).toEqual([]);
    expect(sqlite.after).toHaveLength(1);
    expect(sqlite.after[0]).toContain(`CREATE VIRTUAL TABLE "hashapi_text_patients_fts" USING fts5("name", "notes", content='', contentless_delete=1, tokenize='trigram', detail='column');`);
    expect(sqlite.after[0]).toContain(`INSERT INTO "hashapi_text_patients_fts" (rowid, "name", "notes") SELECT "id", "name", "notes" FROM "patients";`);
    expect(sqlite.after[0]).toMatch(/CREATE TRIGGER "hashapi_text_patients_fts_update" AFTER UPDATE OF "name", "notes" ON "patients" BEGIN DELETE .*; INSERT .*; END;/);
    const postgres = ownedChanges(null, patients({ provider: "postgresql" }), "postgresql", []);
    expect(postgres.after.filter((sql) => sql.includes("CREATE EXTENSION pg_trgm SCHEMA public"))).toHaveLength(1);
    expect(postgres.after.join("\n")).toContain(`CREATE INDEX "patients_notes_trgm" ON "patients" USING GIN (lower(CAST("notes" AS text) COLLATE "und-x-icu") %I.gin_trgm_ops)', (SELECT n.nspname FROM pg_extension`);
  });

  it("writes nothing when the schema's owned objects are the ones the database has", () => {
    for (const provider of ["sqlite", "postgresql"] as const) {
      const schema = patients({ provider, owner: true });
      expect(ownedChanges(schema, schema, provider, ["ALTER TABLE \"patients\" ADD COLUMN \"x\" TEXT;"])).toEqual({ before: [], after: [] });
    }
  });

  it("drops before the diff and makes after it when a column is renamed, turned off or the table renamed", () => {
    const renamed = ownedChanges(patients({}), patients({ column: "full_name" }), "sqlite", []);
    expect(renamed.before.join("")).toContain(`DROP TABLE IF EXISTS "hashapi_text_patients_fts";`);
    expect(renamed.after.join("")).toContain(`fts5("full_name", "notes"`);
    const off = ownedChanges(patients({ provider: "postgresql" }), patients({ provider: "postgresql", indexed: ["notes"] }), "postgresql", []);
    expect(off).toEqual({ before: [`DROP INDEX IF EXISTS "patients_name_trgm";\n`], after: [] });
    const moved = ownedChanges(patients({ owner: true }), patients({ owner: true, table: "clients" }), "sqlite", []);
    expect(moved.before.join("")).toContain(`DROP INDEX IF EXISTS "patients_doctor_id_owner_idx";`);
    expect(moved.after.join("")).toContain(`CREATE INDEX "clients_doctor_id_owner_idx" ON "clients"("doctor_id", "created_at", "id") WHERE "deleted_at" IS NULL;`);
  });

  it("makes again on SQLite what a rebuilt table lost (Prisma copies the table and drops the old one)", () => {
    const schema = patients({ owner: true });
    const rebuild = ['CREATE TABLE "new_patients" (…);', 'DROP TABLE "patients";', 'ALTER TABLE "new_patients" RENAME TO "patients";'].join("\n");
    const { before, after } = ownedChanges(schema, schema, "sqlite", [rebuild]);
    expect(before).toEqual([]);
    expect(after.join("")).toContain(`CREATE VIRTUAL TABLE "hashapi_text_patients_fts"`);
    expect(after.join("")).toContain(`CREATE INDEX "patients_doctor_id_owner_idx"`);
    // PostgreSQL alters in place: its indexes stay.
    expect(ownedChanges(patients({ provider: "postgresql" }), patients({ provider: "postgresql" }), "postgresql", [rebuild])).toEqual({ before: [], after: [] });
  });

  it("names every object it makes, to find them in the catalog", () => {
    expect(ownedObjects(patients({ owner: true, softDelete: false }), "sqlite").flatMap((object) => object.names)).toEqual([
      "hashapi_text_patients_fts",
      "hashapi_text_patients_fts_insert",
      "hashapi_text_patients_fts_update",
      "hashapi_text_patients_fts_delete",
      "patients_doctor_id_owner_idx",
    ]);
  });
});
