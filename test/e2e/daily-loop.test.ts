import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa, execaSync } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { admin, client, freePort, jwtSecret, prepareProject, run, startService, waitFor200, type Project } from "../support/service.js";

/**
 * Issue 13, the daily loop of a generated project: `.env` read by the server and the scripts, the
 * scripts runnable without a build, and `npm run dev` restarting on a change.
 */
describe("the generated project's daily loop (SQLite)", () => {
  let project: Project;

  beforeAll(async () => {
    project = await prepareProject({ name: "daily-sqlite" });
  }, 300_000);

  afterAll(async () => {
    await rm(join(project.dir, ".env"), { force: true });
    await project?.cleanup();
  });

  it("reads .env: the server listens on its PORT; variables already set win over it", async () => {
    const port = await freePort();
    await writeFile(join(project.dir, ".env"), `PORT=${port}\nDATABASE_URL=${project.databaseUrl}\nJWT_SECRET=${jwtSecret}\nLOG_LEVEL=silent\n`);
    const server = execa(process.execPath, ["dist/server.js"], { cwd: project.dir, env: { PATH: process.env.PATH, HOST: "127.0.0.1" }, extendEnv: false, reject: false });
    try {
      const health = await waitFor200(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      server.kill("SIGTERM");
      await server;
    }
    // PORT set in the environment: the .env file's PORT is ignored.
    const service = await startService({ cwd: project.dir, env: project.env });
    try {
      expect(service.port).not.toBe(port);
      expect((await client(service.baseUrl)("GET", "/api/health")).status).toBe(200);
    } finally {
      await service.stop();
      await rm(join(project.dir, ".env"));
    }
  }, 60_000);

  it("refuses a port in use with one line and exit 1, never a 'listening' line first", async () => {
    const service = await startService({ cwd: project.dir, env: project.env });
    try {
      for (const workers of ["1", "2"]) {
        const second = await execa(process.execPath, ["dist/server.js"], { cwd: project.dir, env: { ...project.env, PORT: String(service.port), HOST: "127.0.0.1", WEB_CONCURRENCY: workers, JWT_SECRET: jwtSecret, LOG_LEVEL: "info" }, reject: false, all: true, timeout: 20_000 });
        expect(second.exitCode, second.all).toBe(1);
        expect(second.all).toMatch(new RegExp(`Cannot listen on 127\\.0\\.0\\.1:${service.port}: .*EADDRINUSE`));
        expect(second.all).not.toContain("listening on");
      }
    } finally {
      await service.stop();
    }
  }, 60_000);

  it("runs db:status and user:create from the sources (no build), with DATABASE_URL from .env", async () => {
    await writeFile(join(project.dir, ".env"), `DATABASE_URL=${project.databaseUrl}\n`);
    try {
      await rm(join(project.dir, "dist"), { recursive: true, force: true });
      const status = await execa("npm", ["run", "db:status", "--silent"], { cwd: project.dir, env: { PATH: process.env.PATH }, extendEnv: false, reject: false, all: true });
      expect(status.exitCode, status.all).toBe(0);
      expect(status.all).toMatch(/applied {3}0001_init\nThe database is up to date\./);
      const created = await execa("npm", ["run", "user:create", "--silent", "--", "--name", "Eve", "--email", "eve@example.com", "--password", "a long password"], { cwd: project.dir, env: { PATH: process.env.PATH }, extendEnv: false, reject: false, all: true });
      expect(created.exitCode, created.all).toBe(0);
      const eve = await queryDatabase(project.databaseUrl, project.dir, `SELECT "hash" FROM "users" WHERE "email" = 'eve@example.com'`);
      expect(created.stdout.trim()).toBe(eve[0]!.hash);
    } finally {
      await rm(join(project.dir, ".env"), { force: true });
      await run("npm", ["run", "build", "--silent"], project.dir, project.env);
    }
  }, 120_000);

  it("npm run dev serves from src/ and restarts on a change", async () => {
    const port = await freePort();
    const dev = execa("npm", ["run", "dev", "--silent"], {
      cwd: project.dir,
      env: { ...project.env, PORT: String(port), HOST: "127.0.0.1", JWT_SECRET: jwtSecret, LOG_LEVEL: "info" },
      reject: false,
      all: true,
      detached: true,
    });
    let output = "";
    dev.all?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const policy = join(project.dir, "src/custom/doctor/doctor.policy.ts");
    const original = await readFile(policy, "utf8");
    try {
      await waitFor200(`http://127.0.0.1:${port}/api/health`);
      const api = client(`http://127.0.0.1:${port}`);
      expect((await api("GET", "/api/doctors")).status).toBe(200);
      const token = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token as string;
      const restarted = async (change: () => Promise<void>) => {
        const listening = output.split("listening").length;
        await change();
        await waitUntil(() => output.split("listening").length > listening, 20_000);
        await waitFor200(`http://127.0.0.1:${port}/api/health`);
      };
      // A change in your file: the server restarts from the sources as they now are.
      await restarted(() => writeFile(policy, original.replace(/export class DoctorPolicy extends ResourcePolicy<DoctorRow> \{\}/, "export class DoctorPolicy extends ResourcePolicy<DoctorRow> {\n  override index(): boolean {\n    return false;\n  }\n}")));
      expect((await api("GET", "/api/doctors", { token })).status).toBe(403);
      // A change that breaks the server: said once, the server before goes on serving, and the next change starts it again.
      const failed = output.split("did not start").length;
      await writeFile(policy, `${original}\nexport const = ;\n`);
      await waitUntil(() => output.split("did not start").length > failed, 20_000);
      expect(output).toContain("the one before goes on serving");
      expect((await api("GET", "/api/doctors", { token })).status).toBe(403);
      await restarted(() => writeFile(policy, original));
      expect((await api("GET", "/api/doctors", { token })).status).toBe(200);
      // The runner killed outright: no server or standby process outlives it.
      const standbys = () => processes().filter(({ args }) => args.includes(join(project.dir, "src/app/dev-standby.ts")));
      const runner = processes().find(({ pid }) => standbys().some((standby) => standby.ppid === pid));
      expect(runner, output).toBeDefined();
      process.kill(runner!.pid, "SIGKILL");
      await waitUntil(() => standbys().length === 0, 10_000);
    } finally {
      await writeFile(policy, original);
      if (dev.pid) process.kill(-dev.pid, "SIGTERM");
      await dev;
    }
  }, 90_000);
});

function processes(): { pid: number; ppid: number; args: string }[] {
  return execaSync("ps", ["-eo", "pid=,ppid=,args="])
    .stdout.split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }));
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((done) => setTimeout(done, 100));
  }
}
