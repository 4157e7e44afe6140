import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Issue 13, point 4: the rough edges a first hour found, each through the built CLI. */
const repo = new URL("../..", import.meta.url).pathname;
const cli = join(repo, "bin/hashapi.js");

async function hashapi(args: string[], cwd: string) {
  const result = await execa(process.execPath, [cli, ...args], { cwd, reject: false, env: { NO_COLOR: "1" } });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}
const noStackTrace = /\n\s+at .+:\d+:\d+/;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hashapi-edges-"));
});
afterAll(async () => rm(work, { recursive: true, force: true }));

describe("add-resource", () => {
  it("quotes --fields in its help, because the shell would cut values=a|b", async () => {
    const help = await hashapi(["add-resource", "--help"], work);
    expect(help.stdout).toContain("--fields 'total:decimal:precision=10:scale=2,status:enum:values=open|paid'");
  });

  it.each([
    [["user"], /specs\/user\.yaml:\d+:\d+ name: "User" is the built-in user of \/api\/auth/],
    [["notes", "--fields", "id:integer,title:string"], /specs\/note\.yaml:\d+:\d+ fields\.id: "id" is reserved/],
  ])("refuses %j with the spec-style message, writing nothing", async (args, message) => {
    const dir = join(work, `refuse-${args[0]}`);
    await mkdir(dir, { recursive: true });
    const result = await hashapi(["add-resource", ...args], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(noStackTrace);
    expect(await readdir(dir)).toEqual([]);
  });

  it("adds required belongsTo relations from --belongs-to, checked against the other specs", async () => {
    const dir = join(work, "belongs");
    await cp(join(repo, "specs"), join(dir, "specs"), { recursive: true });
    const added = await hashapi(["add-resource", "visits", "--fields", "at:datetime", "--belongs-to", "patient,physician:Doctor"], dir);
    expect(added.code, added.stderr).toBe(0);
    const text = await readFile(join(dir, "specs/visit.yaml"), "utf8");
    expect(text).toContain("relations:\n  patient: { type: belongsTo, resource: Patient, required: true }\n  physician: { type: belongsTo, resource: Doctor, required: true }");
    expect((await hashapi(["validate", "specs"], dir)).code).toBe(0);
    const unknown = await hashapi(["add-resource", "bills", "--fields", "total:decimal", "--belongs-to", "clinic"], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/specs\/bill\.yaml:\d+:\d+ relations\.clinic\.resource: unknown resource "Clinic"/);
  });

  it("adds belongsToMany relations from --belongs-to-many, which generate into a pivot table", async () => {
    const dir = join(work, "many");
    await cp(join(repo, "specs"), join(dir, "specs"), { recursive: true });
    const added = await hashapi(["add-resource", "clinics", "--fields", "name:string", "--belongs-to-many", "staff:Doctor,specialties"], dir);
    expect(added.code, added.stderr).toBe(0);
    const text = await readFile(join(dir, "specs/clinic.yaml"), "utf8");
    expect(text).toContain("relations:\n  staff: { type: belongsToMany, resource: Doctor }\n  specialties: { type: belongsToMany, resource: Specialty }");
    expect((await hashapi(["validate", "specs"], dir)).code).toBe(0);
    const generated = await hashapi(["generate", "specs", "--out", "api"], dir);
    expect(generated.code, generated.stderr).toBe(0);
    const schema = await readFile(join(dir, "api/prisma/schema.prisma"), "utf8");
    expect(schema).toContain('@@map("clinics_staff")');
    expect(schema).toContain("@@id([clinic_id, doctor_id])");
    const unknown = await hashapi(["add-resource", "rooms", "--fields", "name:string", "--belongs-to-many", "wards"], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/specs\/room\.yaml:\d+:\d+ relations\.wards\.resource: unknown resource "Ward"/);
  });

  it("writes a commented template whose collection hint is the real default", async () => {
    const dir = join(work, "template");
    await mkdir(dir, { recursive: true });
    expect((await hashapi(["add-resource", "medical-records"], dir)).code).toBe(0);
    expect(await readFile(join(dir, "specs/medical-record.yaml"), "utf8")).toContain("# collection: medical-records ");
  });
});

describe("generate and validate", () => {
  let specs: string;
  beforeAll(async () => {
    specs = join(work, "project", "specs");
    await cp(join(repo, "specs"), specs, { recursive: true });
  });

  it("points a spec file given instead of its folder to the folder", async () => {
    const result = await hashapi(["generate", "specs/patient.yaml", "--dry-run"], join(work, "project"));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('"specs/patient.yaml" is a spec file; hashapi reads the whole specs folder: `hashapi generate specs`');
  });

  it("accepts a folder typed with Windows separators", async () => {
    const result = await hashapi(["validate", "specs\\"], join(work, "project"));
    expect(result.code, result.stderr).toBe(0);
  });

  it("names files and folders in the specs folder that it does not read", async () => {
    await writeFile(join(specs, "notes.txt"), "x");
    await mkdir(join(specs, "old"), { recursive: true });
    const result = await hashapi(["validate", "specs"], join(work, "project"));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("notice: specs/ also holds notes.txt, old/: not read (specs are the *.yaml and *.yml files directly in the folder)");
    await rm(join(specs, "notes.txt"));
    await rm(join(specs, "old"), { recursive: true });
  });

  it("reports an enum without values once", async () => {
    const dir = join(work, "enum");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "task.yaml"), "name: Task\nfields:\n  status: { type: enum, default: open }\n");
    const result = await hashapi(["validate", dir], work);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain('an enum field needs "values"');
  });

  it("stops quietly when the reader of its output goes away (EPIPE)", async () => {
    const result = await execa("sh", ["-c", `node ${cli} generate specs --dry-run | head -n 1`], { cwd: join(work, "project"), reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("Dry run: nothing is written.");
    expect(result.stderr).not.toMatch(/EPIPE/);
    expect(result.stderr).not.toMatch(noStackTrace);
  });
});

describe("generate --watch", () => {
  it("regenerates on each saved spec with its migration, reports a broken spec and keeps watching", async () => {
    const dir = join(work, "watch");
    await cp(join(repo, "specs"), join(dir, "specs"), { recursive: true });
    let output = "";
    const watcher = execa(process.execPath, [cli, "generate", "specs", "--out", "api", "--watch"], { cwd: dir, reject: false, all: true, env: { NO_COLOR: "1" } });
    watcher.all?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const waitFor = async (pattern: RegExp, from: number) => {
      const deadline = Date.now() + 60_000;
      while (!pattern.test(output.slice(from))) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in:\n${output}`);
        await new Promise((done) => setTimeout(done, 50));
      }
    };
    try {
      await waitFor(/Watching specs \(Ctrl-C to stop\)/, 0);
      const patient = join(dir, "specs/patient.yaml");
      let mark = output.length;
      await writeFile(patient, (await readFile(patient, "utf8")).replace("  phone: { type: string, max: 20, nullable: true }\n", "  phone: { type: string, max: 20, nullable: true }\n  email: { type: email, nullable: true }\n"));
      await waitFor(/update src\/resources\/patient\/patient\.repository\.ts[\s\S]*New migration prisma\/migrations\/0002_update[\s\S]*Watching specs/, mark);
      expect(await readdir(join(dir, "api/prisma/migrations"))).toEqual(["0001_init", "0002_update", "migration_lock.toml"]);
      expect(await readFile(join(dir, "api/prisma/migrations/0002_update/migration.sql"), "utf8")).toMatch(/ADD COLUMN "email"/);
      mark = output.length;
      await writeFile(patient, "name: Patient\nfields:\n\tname: { type: string }\n");
      await waitFor(/specs\/patient\.yaml:3:1 invalid YAML: a tab indents this line[\s\S]*Watching specs/, mark);
      expect(watcher.exitCode).toBeNull();
    } finally {
      watcher.kill("SIGINT");
    }
    expect((await watcher).exitCode).toBe(0);
  }, 120_000);
});

describe("--json for CI tools", () => {
  it("validate, generate --check and --dry-run print one JSON document, also for invalid specs", async () => {
    const dir = join(work, "json");
    await cp(join(repo, "specs"), join(dir, "specs"), { recursive: true });
    const valid = await hashapi(["validate", "specs", "--json"], dir);
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, resources: ["Appointment", "Doctor", "MedicalRecord", "Patient", "Specialty"] });

    const dryRun = await hashapi(["generate", "specs", "--out", "api", "--dry-run", "--json"], dir);
    expect(dryRun.code).toBe(0);
    const preview = JSON.parse(dryRun.stdout);
    expect(preview.changes).toContainEqual({ kind: "create", path: "src/app.ts" });
    expect(preview.migration).toMatchObject({ path: "prisma/migrations/0001_init/migration.sql", risky: [], refusedWithoutConsent: false });
    expect(preview.migration.sql).toContain('CREATE TABLE "patients"');

    expect((await hashapi(["generate", "specs", "--out", "api"], dir)).code).toBe(0);
    const clean = await hashapi(["generate", "specs", "--out", "api", "--check", "--json"], dir);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toEqual({ upToDate: true, out: "api", missing: [], changed: [], orphaned: [], orphanedUser: [], migrationPending: false, risky: [] });

    // crm dropped, and with it the doctors' seed rows, which are upserted by it.
    await writeFile(join(dir, "specs/doctor.yaml"), (await readFile(join(dir, "specs/doctor.yaml"), "utf8")).replace("  crm: { type: string, max: 20, unique: true }\n", "").replace(/\n# Upserted by crm[\s\S]*$/, "\n"));
    const stale = await hashapi(["generate", "specs", "--out", "api", "--check", "--json"], dir);
    expect(stale.code).toBe(1);
    const report = JSON.parse(stale.stdout);
    expect(report).toMatchObject({ upToDate: false, migrationPending: true, risky: [{ table: "doctors", column: "crm", effect: "drops column doctors.crm and every value in it" }] });
    expect(report.changed).toContain("src/resources/doctor/doctor.validator.ts");

    await writeFile(join(dir, "specs/doctor.yaml"), "name: Doctor\nfields:\n\tname: { type: string }\n");
    const invalid = await hashapi(["generate", "specs", "--out", "api", "--check", "--json"], dir);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout)).toEqual({ valid: false, problems: [{ file: "specs/doctor.yaml", line: 3, column: 1, path: "", message: "invalid YAML: a tab indents this line; YAML indents with spaces only" }] });
    expect((await hashapi(["generate", "specs", "--json"], dir)).code).toBe(2);
  }, 120_000);
});

describe("colour and step lines", () => {
  it("colours change labels on a terminal or with FORCE_COLOR, never when piped or with NO_COLOR, and says what takes longer than the threshold", async () => {
    const dir = join(work, "colour");
    await cp(join(repo, "specs"), join(dir, "specs"), { recursive: true });
    const run = (env: Record<string, string>) =>
      execa(process.execPath, [cli, "generate", "specs", "--out", "api", "--dry-run"], { cwd: dir, reject: false, env, extendEnv: false });
    const base = { PATH: process.env.PATH ?? "" };
    expect((await run(base)).stdout).not.toContain("\u001b[");
    expect((await run({ ...base, FORCE_COLOR: "1" })).stdout).toContain("\u001b[32mcreate\u001b[39m src/app.ts");
    // A real terminal (script(1) gives the command a pseudo-terminal): colour, and step lines for what is slow.
    // The threshold, not the machine's speed, decides: 0 ms shows every step, ten minutes none.
    const onTerminal = (slowStepMs: string) =>
      execa("script", ["-qec", `node ${cli} generate specs --out api --dry-run`, "/dev/null"], { cwd: dir, reject: false, env: { ...base, TERM: "xterm", HASHAPI_SLOW_STEP_MS: slowStepMs }, extendEnv: false });
    const tty = await onTerminal("0");
    expect(tty.stdout).toContain("\u001b[32mcreate\u001b[39m src/app.ts");
    expect(tty.stdout).toMatch(/✓ computing the migration \(prisma migrate diff\) \(\d+\.\d s\)/);
    expect((await onTerminal("600000")).stdout).not.toMatch(/computing the migration/);
    const noColour = await execa("script", ["-qec", `node ${cli} generate specs --out api --dry-run`, "/dev/null"], { cwd: dir, reject: false, env: { ...base, TERM: "xterm", NO_COLOR: "1" }, extendEnv: false });
    expect(noColour.stdout).not.toContain("\u001b[3");
  }, 120_000);
});

