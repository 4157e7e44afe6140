import { describe, expect, it } from "vitest";
import { evolutionOf } from "../../src/model/evolution.js";
import type { SchemaEvolution } from "../../src/model/schema-evolution.js";
import type { ResourceSpec, ValidSpecs } from "../../src/spec/types.js";
import { assessChanges } from "../../src/migrate/changes.js";
import { fillStatement, sqlLiteral, withOptionalColumns } from "../../src/migrate/fills.js";
import { constraintName, renamedSchema, renameStatements, resolveRenames } from "../../src/migrate/renames.js";
import { parseSchemaShape, withoutComments } from "../../src/migrate/schema-shape.js";

/** A schema in the layout src/emit/prisma-schema.ts writes. */
const schema = (patientFields: string, extraModels = "") => `datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model Patient {
  id      Int     @id @default(autoincrement())
  hash    String  @unique @db.VarChar(20)
${patientFields}
  visits  Visit[] @relation("Visit_patient")

  @@index([created_at, id])
  @@map("patients")
}

model Visit {
  id         Int     @id @default(autoincrement())
  patient_id Int
  patient    Patient @relation("Visit_patient", fields: [patient_id], references: [id], onDelete: Restrict)

  @@index([patient_id])
  @@map("visits")
}
${extraModels}`;

const before = schema(`  name    String  @db.VarChar(120)
  phone   String? @db.VarChar(20)
  /// values: a | b | c
  status  String  @default("a") @db.VarChar(1)
  weight  Decimal? @db.Decimal(5, 2)`);

const none: SchemaEvolution = { tables: [], columns: [], fills: [], sources: { patients: "specs/patient.yaml" }, events: {} };
const assess = (next: string, evolution = none) => assessChanges(parseSchemaShape(before), parseSchemaShape(next), evolution);
const effects = (next: string, evolution = none) => assess(next, evolution).risky.map((change) => change.effect);

describe("parseSchemaShape", () => {
  it("reads tables, columns with their type, optionality, uniqueness, native type and enum values, relations and indexes", () => {
    const shape = parseSchemaShape(before);
    const patients = shape.get("patients")!;
    expect(patients.model).toBe("Patient");
    expect([...patients.columns.keys()]).toEqual(["id", "hash", "name", "phone", "status", "weight"]);
    expect(patients.columns.get("hash")).toMatchObject({ type: "String", optional: false, unique: true, native: "VarChar(20)" });
    expect(patients.columns.get("phone")).toMatchObject({ optional: true, unique: false });
    expect(patients.columns.get("status")).toMatchObject({ hasDefault: true, values: ["a", "b", "c"] });
    expect(patients.columns.get("weight")!.native).toBe("Decimal(5, 2)");
    expect(shape.get("visits")!.relations.get("patient")).toEqual(["patient_id"]);
    expect(shape.get("visits")!.indexes).toEqual([{ unique: false, columns: ["patient_id"] }]);
  });

  it("compares schemas without their comments", () => {
    expect(withoutComments(before)).toBe(withoutComments(before.replace("/// values: a | b | c", "/// values: a | b")));
  });
});

describe("assessChanges: what a migration does to stored rows", () => {
  it("lists drops, type changes, narrowing, new unique indexes and removed enum values as risky", () => {
    expect(effects(schema(`  name    String  @unique @db.VarChar(60)
  /// values: a | c
  status  String  @default("a") @db.VarChar(1)
  weight  Int?`))).toEqual([
      "changes the column type from VarChar(120) to VarChar(60) of patients.name: values that do not fit are lost or refused",
      "adds a unique index on patients.name: the migration fails if stored values repeat",
      "drops column patients.phone and every value in it",
      "removes enum value b of patients.status: rows holding it keep a value the API no longer accepts",
      "changes the type from Decimal to Int of patients.weight: values that do not fit are lost or refused",
    ]);
    expect(effects("")).toEqual(["drops table patients and every row in it", "drops table visits and every row in it"]);
  });

  it("lets widening pass: a longer VarChar, VarChar to Text, a Decimal with room for every stored value, a new enum value", () => {
    expect(effects(schema(`  name    String  @db.Text
  phone   String? @db.VarChar(40)
  /// values: a | b | c | d
  status  String  @default("a") @db.VarChar(1)
  weight  Decimal? @db.Decimal(7, 3)`))).toEqual([]);
    expect(effects(schema(`  name    String  @db.VarChar(120)
  phone   String? @db.VarChar(20)
  /// values: a | b | c
  status  String  @default("a") @db.VarChar(1)
  weight  Decimal? @db.Decimal(5, 3)`))).toEqual(["changes the column type from Decimal(5, 2) to Decimal(5, 3) of patients.weight: values that do not fit are lost or refused"]);
  });

  it("fills a column that becomes required from its backfill or default, and refuses one without either", () => {
    const next = schema(`  name    String  @db.VarChar(120)
  phone   String  @db.VarChar(20)
  /// values: a | b | c
  status  String  @default("a") @db.VarChar(1)
  weight  Decimal? @db.Decimal(5, 2)
  age     Int
  nick    String  @default("x")`);
    const refused = assess(next);
    expect(refused.unfillable).toEqual([
      { table: "patients", column: "phone", added: false, source: "specs/patient.yaml" },
      { table: "patients", column: "age", added: true, source: "specs/patient.yaml" },
    ]);
    const fills: SchemaEvolution["fills"] = [
      { table: "patients", column: "phone", type: "string", value: "unknown" },
      { table: "patients", column: "age", type: "integer", value: 0 },
    ];
    const filled = assess(next, { ...none, fills });
    expect(filled.unfillable).toEqual([]);
    expect(filled.required.map(({ column, added }) => [column, added])).toEqual([["phone", false], ["age", true]]);
    expect(withOptionalColumns(next, filled.required)).toContain("  phone   String?  @db.VarChar(20)");
    expect(withOptionalColumns(next, filled.required)).toContain("  age     Int?");
    expect(fillStatement(filled.required[0]!, "postgresql")).toBe(`UPDATE "patients" SET "phone" = 'unknown' WHERE "phone" IS NULL;`);
  });
});

describe("renames", () => {
  const renamedNext = schema(`  name    String  @db.VarChar(120)
  mobile  String? @db.VarChar(20)
  /// values: a | b | c
  status  String  @default("a") @db.VarChar(1)
  weight  Decimal? @db.Decimal(5, 2)`).replace('@@map("patients")', '@@map("clients")');
  const evolution: SchemaEvolution = {
    ...none,
    tables: [{ from: "Patient", table: "clients" }],
    columns: [{ table: "clients", from: "phone", to: "mobile" }],
  };

  it("apply while the previous schema has the old name, and are ignored once it has the new one", () => {
    const renames = resolveRenames(parseSchemaShape(before), parseSchemaShape(renamedNext), evolution);
    expect(renames).toEqual({ tables: [{ from: "patients", to: "clients" }], columns: [{ table: "clients", from: "phone", to: "mobile" }] });
    expect(renameStatements(renames, "postgresql")).toEqual([
      'ALTER TABLE "patients" RENAME TO "clients";',
      'ALTER SEQUENCE IF EXISTS "patients_id_seq" RENAME TO "clients_id_seq";',
      'ALTER TABLE "clients" RENAME COLUMN "phone" TO "mobile";',
    ]);
    expect(resolveRenames(parseSchemaShape(renamedNext), parseSchemaShape(renamedNext), evolution)).toEqual({ tables: [], columns: [] });
  });

  it("rewrite the previous schema to the renamed tables and columns, keeping index and constraint names as stored", () => {
    const shape = parseSchemaShape(before);
    const from = renamedSchema(before, shape, resolveRenames(shape, parseSchemaShape(renamedNext), evolution), "postgresql");
    expect(from).toContain('@@map("clients")');
    expect(from).toContain("  mobile   String? @db.VarChar(20)");
    expect(from).toContain('@id(map: "patients_pkey")');
    expect(from).toContain('@unique(map: "patients_hash_key")');
    expect(from).toContain('@@index([created_at, id], map: "patients_created_at_id_idx")');
    // Nothing of the renamed table is left for the comparison to call dropped.
    expect(assessChanges(parseSchemaShape(from), parseSchemaShape(renamedNext), evolution).risky).toEqual([]);
  });

  it("name indexes as Prisma does, cut to PostgreSQL's 63 bytes before the suffix", () => {
    expect(constraintName("patients", ["created_at", "id"], "idx", "postgresql")).toBe("patients_created_at_id_idx");
    const long = constraintName("a_very_long_table_name_for_records", ["a_very_long_column_name", "another"], "idx", "postgresql");
    expect(long).toHaveLength(63);
    expect(long.endsWith("_idx")).toBe(true);
  });
});

describe("fill values as SQL", () => {
  const fill = (type: SchemaEvolution["fills"][number]["type"], value: unknown) => ({ table: "t", column: "c", type, value });
  it.each([
    ["string", "O'Neil", "sqlite", "'O''Neil'"],
    ["integer", 7, "postgresql", "7"],
    ["boolean", true, "sqlite", "1"],
    ["boolean", false, "postgresql", "false"],
    ["date", "2024-02-29", "sqlite", "'2024-02-29T00:00:00.000+00:00'"],
    ["date", "2024-02-29", "postgresql", "'2024-02-29'"],
    ["datetime", "2024-02-29T10:00:00Z", "sqlite", "'2024-02-29T10:00:00.000+00:00'"],
    ["datetime", "now", "postgresql", "CURRENT_TIMESTAMP"],
    ["json", { a: "it's" }, "postgresql", `'{"a":"it''s"}'`],
  ] as const)("%s %j on %s → %s", (type, value, provider, expected) => {
    expect(sqlLiteral(fill(type, value), provider)).toBe(expected);
  });

  it("looks an adopted tenant up by its public id (tenancy.adopt), and makes its relation optional with the column until filled", () => {
    const adopted = { table: "projects", column: "tenant_id", type: "tenant" as const, value: "TEM_7KX9MQ2B", tenants: "teams" };
    expect(sqlLiteral(adopted, "postgresql")).toBe(`(SELECT "id" FROM "teams" WHERE "hash" = 'TEM_7KX9MQ2B')`);
    const tenanted = `model Project {\n  id Int @id\n  tenant_id Int\n  hashapi_tenant Team @relation("ProjectTenant", fields: [tenant_id], references: [id], onDelete: Restrict)\n  @@map("projects")\n}\n`;
    const optional = withOptionalColumns(tenanted, [{ table: "projects", column: "tenant_id", fill: adopted, added: true }]);
    expect(optional).toContain("  tenant_id Int?\n");
    expect(optional).toContain("  hashapi_tenant Team? @relation(");
  });
});

describe("a belongsToMany's pivot in the schema's evolution (src/model/evolution.ts)", () => {
  const doctor = (name: string, renamedFrom?: string): ResourceSpec => ({
    file: "specs/doctor.yaml",
    name,
    ...(renamedFrom ? { renamedFrom } : {}),
    fields: [{ name: "name", type: "string" }],
    relations: [{ name: "specialties", type: "belongsToMany", resource: "Specialty", pivot: [{ name: "rank", type: "integer", backfill: 0 }, { name: "since", type: "date", nullable: true }] }],
  });
  const specialty: ResourceSpec = { file: "specs/specialty.yaml", name: "Specialty", fields: [{ name: "name", type: "string" }] };
  const evolution = (...resources: ResourceSpec[]) => evolutionOf({ resources, project: {} } as unknown as ValidSpecs);

  it("fills a pivot field that becomes required from its backfill, as a table's field", () => {
    expect(evolution(doctor("Doctor"), specialty).fills).toContainEqual({ table: "doctors_specialties", column: "rank", type: "integer", value: 0 });
  });

  it("renames the pivot table and its key column with the resource that owns it", () => {
    const renamed = evolution(doctor("Physician", "Doctor"), specialty);
    expect(renamed.tables).toContainEqual({ from: "DoctorSpecialties", table: "physicians_specialties" });
    expect(renamed.columns).toContainEqual({ table: "physicians_specialties", from: "doctor_id", to: "physician_id" });
  });
});
