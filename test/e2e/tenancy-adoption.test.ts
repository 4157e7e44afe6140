import { readdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, migrate, prepareProject, repo, run, startService, type Project, type RunningService } from "../support/service.js";

/**
 * Issue 49: tenancy adopted by a project whose database holds records (test/fixtures/adoption).
 * Turning tenancy on gives the tenanted tables a required tenant_id, which stored rows lack:
 * `hashapi generate` refuses, naming tenancy.adopt, and writes nothing; with `adopt:` naming a stored
 * team, the migration gives every stored record that team, and the rebuilt service serves them in
 * it and in no other. On SQLite and PostgreSQL.
 */
describe.each(databaseTargets)("adopting tenancy on stored records on $label", ({ database }) => {
  let postgres: PostgresServer | undefined;
  let project: Project;
  let specs: string;
  let service: RunningService | undefined;
  const hashes: Record<string, string> = {};

  const cli = (...args: string[]) => execa(process.execPath, [join(repo, "bin/hashapi.js"), ...args], { cwd: repo, reject: false, all: true });
  const query = (statement: string) => queryDatabase(project.databaseUrl, project.dir, statement);
  const migrations = () => readdirSync(join(project.dir, "prisma/migrations")).filter((name) => /^\d{4}_/.test(name));
  const edit = async (file: string, change: (text: string) => string) => {
    const path = join(specs, file);
    const before = await readFile(path, "utf8");
    expect(change(before), `the edit of ${file} changes it`).not.toBe(before);
    await writeFile(path, change(before));
  };
  const signIn = async (api: ReturnType<typeof client>) =>
    (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token as string;

  beforeAll(async () => {
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("adoption");
    }
    project = await prepareProject({ name: `adoption-${database}`, database, databaseUrl: postgres?.url("adoption"), specs: join(repo, "test/fixtures/adoption"), adminRole: "staff" });
    specs = `${project.dir}-specs`;
    service = await startService({ cwd: project.dir, env: project.env });
    const api = client(service.baseUrl);
    const token = await signIn(api);
    const create = async (key: string, path: string, body: object) => {
      const reply = await api("POST", path, { token, body });
      expect(reply.status, reply.text).toBe(201);
      hashes[key] = reply.body.data.hash as string;
    };
    await create("acme", "/api/teams", { name: "Acme" });
    await create("beta", "/api/teams", { name: "Beta" });
    await create("engine", "/api/projects", { title: "Engine", code: "ENG" });
    await create("wheels", "/api/projects", { title: "Wheels", code: "WHL" });
    await create("bolts", "/api/tasks", { summary: "Bolts", project: hashes.engine });
    await create("rims", "/api/tasks", { summary: "Rims", project: hashes.wheels });
    await service.stop();
    service = undefined;
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await postgres?.destroy();
    await project?.cleanup();
  });

  it("refuses tenancy over stored rows without adopt, naming it, and writes nothing", async () => {
    await edit("hashapi.yaml", (text) => `${text}tenancy:\n  resource: Team\n  roles: [owner, member]\n  bypass: [staff]\n`);
    await edit("project.yaml", (text) => `${text}tenant: true\n`);
    await edit("task.yaml", (text) => `${text}tenant: { via: project }\n`);
    const before = migrations();
    const refused = await cli("generate", specs, "--out", project.dir);
    expect(refused.exitCode, refused.all).toBe(1);
    expect(refused.all).toMatch(/tenancy gives table projects a tenant_id, and the rows it already holds belong to no Team yet: name the one they go to with tenancy\.adopt/);
    expect(refused.all).toMatch(/table tasks a tenant_id/);
    expect(refused.all).not.toMatch(/backfill:/);
    expect(refused.all).not.toMatch(/\bat \S+ \(/);
    expect(migrations()).toEqual(before);
    // A public id of another resource is a spec error, before any migration is planned.
    await edit("hashapi.yaml", (text) => text.replace("  bypass: [staff]\n", `  bypass: [staff]\n  adopt: ${hashes.engine}\n`));
    const wrong = await cli("generate", specs, "--out", project.dir);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.all).toMatch(/is not a public id of Team \(they start with TEM_\)/);
  });

  it("gives every stored record the adopted team, and serves them in it and in no other", async () => {
    await edit("hashapi.yaml", (text) => text.replace(`adopt: ${hashes.engine}`, `adopt: ${hashes.acme}`));
    const generated = await cli("generate", specs, "--out", project.dir);
    expect(generated.exitCode, generated.all).toBe(0);
    expect(await migrate(project.dir, project.env)).toMatch(/Applied \d{4}_\w+/);
    const [acme] = await query(`SELECT "id" FROM "teams" WHERE "hash" = '${hashes.acme}'`);
    for (const table of ["projects", "tasks"]) {
      const rows = await query(`SELECT "tenant_id" FROM "${table}"`);
      expect(rows.map((row) => Number(row.tenant_id)), table).toEqual([Number(acme!.id), Number(acme!.id)]);
    }
    await run("npm", ["run", "build", "--silent"], project.dir, project.env);
    service = await startService({ cwd: project.dir, env: project.env });
    const api = client(service.baseUrl);
    const token = await signIn(api);
    const inTeam = (team: string, path: string) => api("GET", path, { token, headers: { "X-Tenant": team } });
    const acmeProjects = await inTeam(hashes.acme!, "/api/projects");
    expect(acmeProjects.status, acmeProjects.text).toBe(200);
    expect(acmeProjects.body.data.map((item: { hash: string }) => item.hash).sort()).toEqual([hashes.engine, hashes.wheels].sort());
    expect((await inTeam(hashes.acme!, `/api/tasks/${hashes.bolts}`)).status).toBe(200);
    expect((await inTeam(hashes.beta!, "/api/projects")).body.data).toEqual([]);
    expect((await inTeam(hashes.beta!, `/api/tasks/${hashes.rims}`)).status).toBe(404);
    // Unique codes are now per team: Beta may use Acme's.
    expect((await api("POST", "/api/projects", { token, body: { title: "Engine too", code: "ENG" }, headers: { "X-Tenant": hashes.beta! } })).status).toBe(201);
  });
});
