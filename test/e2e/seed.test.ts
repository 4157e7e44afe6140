import { execa } from "execa";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { prepareProject, repo, type Project } from "../support/service.js";

/**
 * `npm run db:seed` of a generated project (issue 21): realistic records of every resource through
 * the resources' own services, parents before children, deterministic for a seed, and safe to run
 * again (it adds; a unique value is never a failure), on SQLite and PostgreSQL.
 */
describe.each(databaseTargets)("npm run db:seed on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  const urls: string[] = [];

  beforeAll(async () => {
    if (database === "postgresql") {
      postgres = await startPostgres();
      for (const name of ["seed_a", "seed_b"]) await postgres.createDatabase(name);
      urls.push(postgres.url("seed_a"), postgres.url("seed_b"));
    } else urls.push(`file:./data/seed-a-${process.pid}.db`, `file:./data/seed-b-${process.pid}.db`);
    project = await prepareProject({ name: `e2e-seed-${database}`, database, databaseUrl: urls[0], extraSpecs: join(repo, "test/fixtures/seed-domains") });
  }, 300_000);

  afterAll(async () => {
    await project?.cleanup();
    await postgres?.destroy();
  });

  const seed = (url: string, ...args: string[]) =>
    execa(process.execPath, ["dist/scripts/seed.js", ...args], { cwd: project.dir, env: { ...project.env, DATABASE_URL: url }, reject: false, all: true });
  const rows = (url: string, statement: string) => queryDatabase(url, project.dir, statement);
  const count = async (url: string, table: string) => Number((await rows(url, `SELECT COUNT(*) AS "n" FROM "${table}"`))[0]!.n);

  it("creates parents before children, many children per parent, some soft-deleted, with lifelike values", async () => {
    const first = await seed(urls[0]!, "--count", "20", "--seed", "7");
    expect(first.exitCode, first.all).toBe(0);
    expect(first.stdout).toMatch(/^patients: 20 created \(2 of them soft-deleted\)$/m);
    expect(first.stdout).toMatch(/^doctors: 2 fixed rows upserted, 20 created$/m);
    for (const table of ["patients", "appointments", "medical_records"]) expect(await count(urls[0]!, table)).toBe(20);
    // The example's doctor.yaml seed: rows, by crm.
    expect(await count(urls[0]!, "doctors")).toBe(22);
    expect(await rows(urls[0]!, `SELECT "name", "specialty" FROM "doctors" WHERE "crm" = 'CRM-SP-100001'`)).toEqual([{ name: "Dr. Ana Costa", specialty: "cardiology" }]);
    const spread = await rows(urls[0]!, `SELECT COUNT(DISTINCT "patient_id") AS "n" FROM "appointments"`);
    expect(Number(spread[0]!.n)).toBeGreaterThan(1);
    expect(Number(spread[0]!.n)).toBeLessThan(20);
    const names = await rows(urls[0]!, `SELECT "name" FROM "patients"`);
    for (const { name } of names) expect(name).toMatch(/^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u);
    const live = await rows(urls[0]!, `SELECT COUNT(*) AS "n" FROM "patients" WHERE "deleted_at" IS NULL`);
    expect(Number(live[0]!.n)).toBe(18);
    // A unique field of six values: six records, and why not more (never a failure).
    expect(first.stdout).toMatch(/^slots: 6 created, not more: seen_at is unique and its rules allow 6 values$/m);
    expect((await rows(urls[0]!, `SELECT "seen_at" FROM "slots" ORDER BY "seen_at"`)).map((row) => Number(row.seen_at))).toEqual([-4, -3, -2, -1, 0, 1]);
    // Create rules without the owner and the set: keys: the seed fills them as a request would.
    expect(first.stdout).toMatch(/^memos: 20 created$/m);
    const memos = await rows(urls[0]!, `SELECT COUNT(*) AS "n" FROM "memos" WHERE "writer_id" IS NOT NULL AND "editor_id" IS NOT NULL AND "reviewed_on" IS NOT NULL`);
    expect(Number(memos[0]!.n)).toBe(20);
  });

  it("adds records when run again (never failing on a unique value), and --if-empty then does nothing", async () => {
    const again = await seed(urls[0]!, "--count", "20", "--seed", "7");
    expect(again.exitCode, again.all).toBe(0);
    // 20 more, and the two fixed doctors updated in place, not added again.
    expect(await count(urls[0]!, "doctors")).toBe(42);
    expect(await count(urls[0]!, "patients")).toBe(40);
    expect(again.stdout).toMatch(/^slots: 0 created, not more: seen_at is unique and its rules allow 6 values$/m);
    const cpfs = await rows(urls[0]!, `SELECT COUNT(DISTINCT "cpf") AS "n" FROM "patients"`);
    expect(Number(cpfs[0]!.n)).toBe(40);
    const skipped = await seed(urls[0]!, "--if-empty");
    expect(skipped.exitCode).toBe(0);
    expect(skipped.stdout).toContain("nothing seeded (--if-empty)");
    expect(await count(urls[0]!, "doctors")).toBe(42);
  });

  it("is deterministic for a seed: another empty database seeded with it holds the same records", async () => {
    const migrated = await execa("npm", ["run", "db:migrate", "--silent"], { cwd: project.dir, env: { ...project.env, DATABASE_URL: urls[1]! }, reject: false, all: true });
    expect(migrated.exitCode, migrated.all).toBe(0);
    expect((await seed(urls[1]!, "--count", "20", "--seed", "7", "--if-empty")).exitCode).toBe(0);
    const firstTwenty = (url: string) => rows(url, `SELECT "name", "cpf", "phone" FROM "patients" ORDER BY "id" LIMIT 20`);
    expect(await firstTwenty(urls[1]!)).toEqual(await firstTwenty(urls[0]!));
  });

  it("refuses bad arguments with usage (exit 2) and names db:migrate on an unmigrated database", async () => {
    const bad = await seed(urls[0]!, "--count", "0");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--count must be a whole number from 1 to 10000\nusage: npm run db:seed/);
    if (database === "sqlite") {
      const fresh = await seed(`file:./data/seed-empty-${process.pid}.db`);
      expect(fresh.exitCode).toBe(1);
      expect(fresh.stderr).toMatch(/run `npm run db:migrate` first/);
    }
  });
});
