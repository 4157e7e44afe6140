import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, run, startService, type Project, type Request, type RunningService } from "../support/service.js";

/**
 * A rolling deploy (issue 52, `deploy: rolling`): the old build and the new build serve one
 * PostgreSQL at once, each answering its own contract, through the expand, the switch and the
 * contract, with writes from both. The new build renames the resource (Member → Person, table
 * members → people), renames a field (name → full_name), drops one (nickname) and adds a required
 * one (level, backfill 1).
 */
const fixtures = join(repo, "test/fixtures/rolling");

describe.skipIf(!postgresBinDir() && !process.env.CI)("a rolling deploy on PostgreSQL: expand, switch, contract", () => {
  let postgres: PostgresServer;
  let old: Project;
  let next: string;
  let oldService: RunningService | undefined;
  let newService: RunningService | undefined;
  let env: Record<string, string>;
  const tokenOf = async (api: Request) => (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token as string;

  beforeAll(async () => {
    postgres = await startPostgres();
    await postgres.createDatabase("rolling");
    old = await prepareProject({ name: "rolling-old", database: "postgresql", databaseUrl: postgres.url("rolling"), specs: join(fixtures, "v1"), adminRole: "admin" });
    env = old.env;
    // The new build: the same project, generated again from the next specs (its history kept).
    next = `${old.dir}-next`;
    await rm(next, { recursive: true, force: true });
    await cp(old.dir, next, { recursive: true });
    await run(process.execPath, [join(repo, "bin/hashapi.js"), "generate", join(fixtures, "v2"), "--out", next, "--accept-data-loss", "--prune-custom", "--migration-name", "people"], repo, {});
    await run("npm", ["run", "build", "--silent"], next, env);
  }, 300_000);

  afterAll(async () => {
    await oldService?.stop();
    await newService?.stop();
    await old?.cleanup();
    await rm(next, { recursive: true, force: true });
    await postgres?.destroy();
  });

  it("keeps both builds answering their own contract, refuses the contract while the old one runs, then applies it", async () => {
    oldService = await startService({ cwd: old.dir, env });
    const oldApi = client(oldService.baseUrl);
    const oldAuth = { headers: { Authorization: `Bearer ${await tokenOf(oldApi)}` } };
    const before = await oldApi("POST", "/api/members", { ...oldAuth, body: { name: "Ada Lovelace", nickname: "ada" } });
    expect(before.status, before.text).toBe(201);

    // The expand, while the old build serves.
    const expanded = await execa("npm", ["run", "db:migrate", "--silent"], { cwd: next, env, reject: false, all: true });
    expect(expanded.exitCode, expanded.all).toBe(0);
    const during = await oldApi("POST", "/api/members", { ...oldAuth, body: { name: "Grace Hopper", nickname: "amazing" } });
    expect(during.status, during.text).toBe(201);
    expect((await oldApi("GET", `/api/members/${before.body.data.hash}`, oldAuth)).body.data).toMatchObject({ name: "Ada Lovelace", nickname: "ada" });

    // The switch: the new build serves beside the old one.
    newService = await startService({ cwd: next, env });
    const newApi = client(newService.baseUrl);
    const newAuth = { headers: { Authorization: `Bearer ${await tokenOf(newApi)}` } };
    const seen = await newApi("GET", `/api/people/${during.body.data.hash}`, newAuth);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data).toMatchObject({ full_name: "Grace Hopper", level: 1 });
    expect(seen.body.data).not.toHaveProperty("nickname");
    const made = await newApi("POST", "/api/people", { ...newAuth, body: { full_name: "Katherine Johnson", level: 3 } });
    expect(made.status, made.text).toBe(201);
    // Each build reads the other's writes under its own names, and writes what the other reads.
    expect((await oldApi("GET", `/api/members/${made.body.data.hash}`, oldAuth)).body.data).toMatchObject({ name: "Katherine Johnson" });
    expect((await oldApi("PATCH", `/api/members/${made.body.data.hash}`, { ...oldAuth, body: { name: "Katherine G. Johnson" } })).status).toBe(200);
    expect((await newApi("GET", `/api/people/${made.body.data.hash}`, newAuth)).body.data).toMatchObject({ full_name: "Katherine G. Johnson", level: 3 });
    expect((await newApi("PATCH", `/api/people/${before.body.data.hash}`, { ...newAuth, body: { full_name: "Augusta Ada King" } })).status).toBe(200);
    expect((await oldApi("GET", `/api/members/${before.body.data.hash}`, oldAuth)).body.data).toMatchObject({ name: "Augusta Ada King", nickname: "ada" });
    const searched = await newApi("GET", "/api/people?search=johnson", newAuth);
    expect(searched.body.data.map((person: { hash: string }) => person.hash)).toEqual([made.body.data.hash]);
    const listedByOld = await oldApi("GET", "/api/members", oldAuth);
    expect(listedByOld.body.meta.total).toBe(3);

    // No later migration goes in before the contract: one rollout at a time.
    const later = join(next, "prisma/migrations/0003_later");
    await mkdir(later);
    await writeFile(join(later, "migration.sql"), "SELECT 1;\n");
    const held = await execa("npm", ["run", "db:migrate", "--silent"], { cwd: next, env, reject: false, all: true });
    expect(held.exitCode).toBe(1);
    expect(held.all).toContain("Migration 0003_later waits for the contract step of 0002_people");
    await rm(later, { recursive: true });

    // The contract, refused while the old build runs: it names the instance.
    const refused = await execa("npm", ["run", "db:contract", "--silent"], { cwd: next, env, reject: false, all: true });
    expect(refused.exitCode).toBe(1);
    // One row per serving process (a worker per core).
    expect(refused.all).toMatch(/(an instance of that build runs|\d instances of such builds run):\n {2}- .*, process \d+ \(migrations up to 0001_init\)/);
    expect(await columnsOf("people")).toContain("name");

    // The old build stops (its row goes with it); the contract takes the old shape away.
    await oldService.stop();
    oldService = undefined;
    const contracted = await execa("npm", ["run", "db:contract", "--silent"], { cwd: next, env, reject: false, all: true });
    expect(contracted.exitCode, contracted.all).toBe(0);
    expect(contracted.all).toContain("Contracted 0002_people");
    expect(await columnsOf("people")).not.toContain("name");
    expect(await columnsOf("people")).not.toContain("nickname");
    expect(await queryDatabase(env.DATABASE_URL!, next, `SELECT to_regclass('"members"') AS "view"`)).toEqual([{ view: null }]);

    // The new build goes on as before, and a second contract has nothing to do.
    const after = await newApi("POST", "/api/people", { ...newAuth, body: { full_name: "Dorothy Vaughan", level: 2 } });
    expect(after.status, after.text).toBe(201);
    expect((await newApi("GET", "/api/people", newAuth)).body.meta.total).toBe(4);
    const again = await execa("npm", ["run", "db:contract", "--silent"], { cwd: next, env, reject: false, all: true });
    expect(again.all).toContain("No contract step to apply.");
  }, 180_000);

  async function columnsOf(table: string): Promise<string[]> {
    const rows = await queryDatabase(env.DATABASE_URL!, next, `SELECT "column_name" FROM information_schema.columns WHERE "table_name" = $1`, [table]);
    return rows.map((row) => String(row.column_name));
  }
});
