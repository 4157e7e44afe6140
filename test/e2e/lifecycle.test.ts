import { existsSync, readdirSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, migrate, prepareProject, repo, run, startService, type Project, type RunningService } from "../support/service.js";

/**
 * Issue 12: a project that lives for years. Starting from a populated database with the server
 * running, the specs change the way users change them; after every step `hashapi generate` writes
 * (or refuses) the migration, `npm run db:migrate` applies it to the live database, and every row
 * stored before is read back straight from the database, column by column.
 */

type Row = Record<string, unknown>;
type Ledger = Map<string, Row[]>;

const targets = (process.env.HASHAPI_E2E_TARGETS ?? "sqlite,postgresql").split(",");
// SQLite always; PostgreSQL where installed, and always in CI (which installs it).
const cases = databaseTargets.filter(({ database }) => targets.includes(database));

describe.each(cases)("changing the specs of a live database on $label", ({ database }) => {
  let postgres: PostgresServer | undefined;
  let project: Project;
  let specs: string;
  let service: RunningService;
  let ledger: Ledger;

  const cli = (...args: string[]) => execa(process.execPath, [join(repo, "bin/hashapi.js"), ...args], { cwd: repo, reject: false, all: true });
  const generate = (...flags: string[]) => cli("generate", specs, "--out", project.dir, ...flags);
  const query = (statement: string) => queryDatabase(project.databaseUrl, project.dir, statement);
  const tables = ["patients", "doctors", "appointments", "medical_records"];
  const migrations = () => readdirSync(join(project.dir, "prisma/migrations")).filter((name) => /^\d{4}_/.test(name)).sort();
  const latestSql = () => readFile(join(project.dir, "prisma/migrations", migrations().at(-1)!, "migration.sql"), "utf8");

  async function editSpec(file: string, edit: (text: string) => string): Promise<void> {
    const path = join(specs, file);
    const before = await readFile(path, "utf8");
    const after = edit(before);
    // An edit that no longer matches the example's spec would test nothing: say so.
    expect(after, `the edit of ${file} changes it`).not.toBe(before);
    await writeFile(path, after);
  }

  /** Every row of the tables the ledger follows, straight from the database, in id order. */
  async function readTables(names: readonly string[]): Promise<Ledger> {
    const read: Ledger = new Map();
    for (const table of names) read.set(table, await query(`SELECT * FROM "${table}" ORDER BY "id"`));
    return read;
  }

  /** The rows stored before are all still there, each column as expected. */
  async function expectLedger(): Promise<void> {
    const stored = await readTables([...ledger.keys()]);
    for (const [table, rows] of ledger) {
      const now = stored.get(table)!;
      expect(now.map((row) => row.id), `${table}: the same rows`).toEqual(rows.map((row) => row.id));
      rows.forEach((row, index) => {
        for (const [column, value] of Object.entries(row)) {
          if (column === "updated_at") continue;
          expect(comparable(now[index]![column]), `${table} row ${String(row.id)} column ${column}`).toEqual(comparable(value));
        }
      });
    }
  }

  /** Generates with `flags`, expecting a new migration, and applies it while the service runs. */
  async function generateAndMigrate(...flags: string[]): Promise<{ sql: string; output: string }> {
    const before = migrations().length;
    const generated = await generate(...flags);
    expect(generated.exitCode, generated.all).toBe(0);
    expect(migrations().length, "one new migration").toBe(before + 1);
    expect((await client(service.baseUrl)("GET", "/api/health")).status, "not ready while a migration is pending").toBe(503);
    const output = await migrate(project.dir, project.env);
    expect(output).toMatch(/Applied \d{4}_\w+ \(\d+ statements, \d+ ms\)/);
    expect((await client(service.baseUrl)("GET", "/api/health")).status, "the running service sees every migration applied").toBe(200);
    return { sql: await latestSql(), output };
  }

  /** A refused generation: exit 1, the expected message, and not one file written. */
  async function expectRefused(flags: string[], message: RegExp): Promise<string> {
    const before = migrations();
    const manifest = await readFile(join(project.dir, "hashapi.manifest.json"), "utf8");
    const refused = await generate(...flags);
    expect(refused.exitCode, refused.all).toBe(1);
    expect(refused.all).toMatch(message);
    expect(refused.all).not.toMatch(/\bat \S+ \(/);
    expect(migrations()).toEqual(before);
    expect(await readFile(join(project.dir, "hashapi.manifest.json"), "utf8")).toBe(manifest);
    return refused.all!;
  }

  beforeAll(async () => {
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("lifecycle");
    }
    project = await prepareProject({ name: `lifecycle-${database}`, database, databaseUrl: postgres?.url("lifecycle") });
    specs = `${project.dir}-specs`;
    service = await startService({ cwd: project.dir, env: project.env });
    const api = client(service.baseUrl);
    const login = await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } });
    const token = login.body.data.access_token as string;
    const create = async (path: string, body: object) => {
      const reply = await api("POST", path, { token, body });
      expect(reply.status, reply.text).toBe(201);
      return (reply.body.data.hash ?? reply.body.data.public_id) as string;
    };
    const cardiology = await create("/api/specialties", { name: "Cardiology" });
    const doctors = [
      await create("/api/doctors", { name: "Dr. Ada", crm: "CRM-1", specialty: "cardiology", specialties: [{ hash: cardiology, since: "2024-01-31" }] }),
      await create("/api/doctors", { name: "Dr. Bea", crm: "CRM-2" }),
    ];
    const patients = [
      await create("/api/patients", { name: "Ann O'Neil", cpf: "11111111111", phone: "+55 21 1111-1111" }),
      await create("/api/patients", { name: "Bob", cpf: "22222222222" }),
      await create("/api/patients", { name: "Cid", cpf: "33333333333", phone: "+55 21 3333-3333" }),
    ];
    expect((await api("DELETE", `/api/patients/${patients[2]}`, { token })).status).toBe(200);
    for (const [index, doctor] of [doctors[0], doctors[1], doctors[0]].entries())
      await create("/api/appointments", { patient: patients[index % 2], doctor, scheduled_at: `2026-12-0${index + 1}T10:00:00.000Z`, ...(index === 0 ? { notes: "fasting" } : {}) });
    await create("/api/medical-records", { patient: patients[0], summary: "Check-up", recorded_on: "2026-01-02", weight_kg: 72.5 });
    await create("/api/medical-records", { patient: patients[1], summary: "Flu", recorded_on: "2026-02-03" });
    ledger = await readTables(tables);
    expect(ledger.get("patients")).toHaveLength(3);
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await postgres?.destroy();
    await project?.cleanup();
  });

  it("1. adds a field: a nullable column, every row kept", async () => {
    await editSpec("patient.yaml", (text) => text.replace("  phone: { type: string, max: 20, nullable: true }\n", "  phone: { type: string, max: 20, nullable: true }\n  email: { type: email, max: 120, nullable: true }\n"));
    const { sql } = await generateAndMigrate("--migration-name", "add email");
    expect(sql).toMatch(/ADD COLUMN\s+"email"/);
    for (const row of ledger.get("patients")!) row.email = null;
    await expectLedger();
  });

  it("2. adds a resource: a new table, every row kept", async () => {
    await writeFile(join(specs, "room.yaml"), "name: Room\nfields:\n  label: { type: string, max: 40 }\n");
    const { sql } = await generateAndMigrate("--migration-name", "add rooms");
    expect(sql).toMatch(/CREATE TABLE "rooms"/);
    await expectLedger();
  });

  it("3. renames a field with renamedFrom: the column is renamed, not dropped, and the key may then go", async () => {
    await editSpec("patient.yaml", (text) => text.replaceAll("phone", "mobile").replace("mobile: { type: string, max: 20, nullable: true }", "mobile: { type: string, max: 20, nullable: true, renamedFrom: phone }"));
    const { sql } = await generateAndMigrate("--migration-name", "rename phone");
    expect(sql).toContain('ALTER TABLE "patients" RENAME COLUMN "phone" TO "mobile";');
    expect(sql).not.toMatch(/DROP COLUMN|DROP TABLE "patients"/);
    for (const row of ledger.get("patients")!) {
      row.mobile = row.phone;
      delete row.phone;
    }
    await expectLedger();

    await editSpec("patient.yaml", (text) => text.replace(", renamedFrom: phone", ""));
    const again = await generate();
    expect(again.exitCode, again.all).toBe(0);
    expect(migrations()).toHaveLength(4);
    expect((await generate("--check")).exitCode).toBe(0);
  });

  it("3b. renames a belongsTo with renamedFrom: its foreign key column is renamed, every link kept", async () => {
    await editSpec("medical-record.yaml", (text) => text.replace("patient: { type: belongsTo, resource: Patient, required: true }", "owner: { type: belongsTo, resource: Patient, required: true, renamedFrom: patient }"));
    const { sql } = await generateAndMigrate("--migration-name", "owner");
    expect(sql).toContain('ALTER TABLE "medical_records" RENAME COLUMN "patient_id" TO "owner_id";');
    expect(sql).not.toMatch(/DROP COLUMN/);
    for (const row of ledger.get("medical_records")!) {
      row.owner_id = row.patient_id;
      delete row.patient_id;
    }
    await expectLedger();
  });

  it("4. renames a resource with renamedFrom: the table is renamed, its rows, ids and links kept; your files of the old name are pruned only on request", async () => {
    await rm(join(specs, "doctor.yaml"));
    await writeFile(
      join(specs, "physician.yaml"),
      "name: Physician\nrenamedFrom: Doctor\nprefix: DOC\nfields:\n  name: { type: string, max: 120 }\n  crm: { type: string, max: 20, unique: true }\n  specialty: { type: enum, values: [general, cardiology, pediatrics, dermatology], default: general }\nrelations:\n  appointments: { type: hasMany, resource: Appointment }\n  user: { type: belongsTo, resource: User }\n  specialties: { type: belongsToMany, resource: Specialty, pivot: { since: { type: date, nullable: true } } }\nserializer:\n  hidden: [user]\nauth:\n  public: [index, show]\n  roles: { store: [admin], update: [admin], destroy: [admin] }\n",
    );
    const links = async (table: string, key: string) =>
      (await queryDatabase(project.databaseUrl, project.dir, `SELECT "${key}" AS "owner", "specialty_id", "since" FROM "${table}" ORDER BY 1, 2`)).map((row) => [Number(row.owner), Number(row.specialty_id), comparable(row.since)]);
    const linkedBefore = await links("doctors_specialties", "doctor_id");
    expect(linkedBefore).toHaveLength(1);
    await editSpec("specialty.yaml", (text) => text.replace("resource: Doctor", "resource: Physician"));
    await editSpec("appointment.yaml", (text) => text.replace("resource: Doctor", "resource: Physician"));
    await editSpec("medical-record.yaml", (text) => text.replace("resource: Doctor", "resource: Physician"));
    await expectRefused([], /src\/custom\/doctor\/doctor\.controller\.ts[\s\S]*--prune-custom/);
    const { sql } = await generateAndMigrate("--prune-custom", "--migration-name", "physicians");
    expect(sql).toContain('ALTER TABLE "doctors" RENAME TO "physicians";');
    expect(sql).not.toMatch(/DROP TABLE "doctors"|CREATE TABLE "physicians"/);
    // The pivot named after the resource follows it: renamed, its key column too, every link kept.
    expect(sql).toContain('ALTER TABLE "doctors_specialties" RENAME TO "physicians_specialties";');
    expect(sql).toContain('RENAME COLUMN "doctor_id" TO "physician_id"');
    expect(sql).not.toMatch(/DROP TABLE "doctors_specialties"/);
    expect(await links("physicians_specialties", "physician_id")).toEqual(linkedBefore);
    expect(existsSync(join(project.dir, "src/custom/doctor"))).toBe(false);
    expect(existsSync(join(project.dir, "src/custom/physician/physician.policy.ts"))).toBe(true);
    ledger.set("physicians", ledger.get("doctors")!);
    ledger.delete("doctors");
    await expectLedger();
  });

  it("5. makes a column required with its default, and adds a required one with a backfill: rows without a value get it", async () => {
    await editSpec("appointment.yaml", (text) =>
      text.replace("notes: { type: text, max: 2000, nullable: true,", 'room_number: { type: integer, backfill: 0 }\n  notes: { type: text, max: 2000, default: "no notes",'),
    );
    const { sql } = await generateAndMigrate("--migration-name", "require notes");
    expect(sql).toMatch(/UPDATE "appointments" SET "notes" = 'no notes' WHERE "notes" IS NULL;/);
    expect(sql).toMatch(/UPDATE "appointments" SET "room_number" = 0 WHERE "room_number" IS NULL;/);
    for (const row of ledger.get("appointments")!) {
      row.notes ??= "no notes";
      row.room_number = 0;
    }
    await expectLedger();
  });

  it("5b. refuses a required field with neither default nor backfill, naming it and both ways out", async () => {
    await editSpec("appointment.yaml", (text) => text.replace("  room_number: { type: integer, backfill: 0 }", "  room_number: { type: integer, backfill: 0 }\n  priority: { type: integer }"));
    await expectRefused([], /specs\/appointment\.yaml: the new required field priority on table appointments[\s\S]*default:[\s\S]*backfill:/);
    await expectRefused(["--accept-data-loss"], /priority/);
    await editSpec("appointment.yaml", (text) => text.replace("\n  priority: { type: integer }", ""));
  });

  it("6. changes a type only with consent: refused and listed by generate, --dry-run and --check; written with --accept-data-loss", async () => {
    await editSpec("medical-record.yaml", (text) => text.replace("weight_kg: { type: decimal, precision: 5, scale: 2, nullable: true }", "weight_kg: { type: integer, nullable: true }"));
    await expectRefused([], /changes the type from Decimal to Int of medical_records\.weight_kg[\s\S]*--accept-data-loss/);
    const dryRun = await generate("--dry-run");
    expect(dryRun.exitCode, dryRun.all).toBe(0);
    expect(dryRun.all).toMatch(/^Dry run: nothing is written\./);
    expect(dryRun.all).toMatch(/generate refuses to write it without --accept-data-loss:\n  - changes the type from Decimal to Int of medical_records\.weight_kg/);
    const next = String(migrations().length + 1).padStart(4, "0");
    expect(dryRun.all).toMatch(new RegExp(`SQL of prisma/migrations/${next}_update/migration\\.sql:\\n[\\s\\S]*weight_kg`));
    const check = await generate("--check");
    expect(check.exitCode).toBe(1);
    expect(check.all).toMatch(/it needs --accept-data-loss\):\n  - changes the type from Decimal to Int/);
    await generateAndMigrate("--accept-data-loss", "--migration-name", "integer weight");
    // 72.5 kg: PostgreSQL rounds it (73); SQLite keeps what the column holds.
    for (const row of ledger.get("medical_records")!) row.weight_kg = row.weight_kg === null ? null : database === "postgresql" ? Math.round(Number(row.weight_kg)) : Number(row.weight_kg);
    await expectLedger();
  });

  it("7. removes a resource only with consent for its rows and for your files", async () => {
    await rm(join(specs, "room.yaml"));
    await expectRefused([], /drops table rooms and every row in it/);
    await expectRefused(["--accept-data-loss"], /src\/custom\/room\/room\.controller\.ts/);
    const { sql } = await generateAndMigrate("--accept-data-loss", "--prune-custom", "--migration-name", "drop rooms");
    expect(sql).toMatch(/DROP TABLE "rooms"/);
    expect(existsSync(join(project.dir, "src/custom/room"))).toBe(false);
    expect(existsSync(join(project.dir, "src/resources/room"))).toBe(false);
    await expectLedger();
  });

  it("8. a failing migration is rolled back whole and named; after the data is fixed (and a stale failed record resolved offline) it applies", async () => {
    // Every row has room 0 (the backfill of step 5): a unique index cannot be built over them.
    await editSpec("appointment.yaml", (text) => text.replace("room_number: { type: integer, backfill: 0 }", "room_number: { type: integer, backfill: 0, unique: true }"));
    const generated = await generate("--accept-data-loss", "--migration-name", "unique rooms");
    expect(generated.exitCode, generated.all).toBe(0);
    const name = migrations().at(-1)!;
    const failed = await execa("npm", ["run", "db:migrate", "--silent"], { cwd: project.dir, env: project.env, reject: false, all: true });
    expect(failed.exitCode).toBe(1);
    expect(failed.all).toMatch(new RegExp(`Migration ${name} failed and was rolled back: the database is as it was before it\\.\\n  statement: .*\\n  reason: .*UNIQUE|unique`, "i"));
    expect(failed.all).not.toMatch(/\bat \S+ \(/);
    await expectLedger();

    // What an interrupted `prisma migrate deploy` of an older hashapi leaves: a record never finished.
    await query(`INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "applied_steps_count") VALUES ('interrupted', 'x', '${name}', 0)`);
    const refused = await execa("npm", ["run", "db:migrate", "--silent"], { cwd: project.dir, env: project.env, reject: false, all: true });
    expect(refused.exitCode).toBe(1);
    expect(refused.all).toContain(`npm run db:resolve -- --rolled-back ${name}`);
    await run("npm", ["run", "db:resolve", "--silent", "--", "--rolled-back", name], project.dir, project.env);

    await query(`UPDATE "appointments" SET "room_number" = "id"`);
    for (const row of ledger.get("appointments")!) row.room_number = row.id;
    const output = await migrate(project.dir, project.env);
    expect(output).toContain(`Applied ${name}`);
    await expectLedger();
    expect(await migrate(project.dir, project.env)).toMatch(/Nothing to migrate: the database is up to date/);
  });

  it("serves the rows stored before every change through the rebuilt API: renamed field, renamed resource, same public ids", async () => {
    await service.stop();
    await run("npm", ["run", "build", "--silent"], project.dir, project.env);
    service = await startService({ cwd: project.dir, env: project.env });
    const api = client(service.baseUrl);
    const token = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token as string;
    const ann = ledger.get("patients")![0]!;
    const patient = await api("GET", `/api/patients/${String(ann.hash)}`, { token });
    expect(patient.status, patient.text).toBe(200);
    expect(patient.body.data).toMatchObject({ name: "Ann O'Neil", mobile: "+55 21 1111-1111", email: null });
    const ada = ledger.get("physicians")![0]!;
    const physician = await api("GET", `/api/physicians/${String(ada.hash)}?with=appointments`, { token });
    expect(physician.status, physician.text).toBe(200);
    expect(physician.body.data).toMatchObject({ name: "Dr. Ada", specialty: "cardiology" });
    expect(physician.body.data.appointments).toHaveLength(2);
  });
});

/** A stored value in a form both reads of it share (drivers give dates and numbers their own types). */
function comparable(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}
