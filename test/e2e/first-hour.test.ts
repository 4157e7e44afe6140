import { appendFile, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa, type Options } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { betterSqlitePrebuild } from "../support/native-prebuilds.js";
import { freePort, repo, waitFor200 } from "../support/service.js";

/**
 * Issue 13, point 7: what a new user does in the first hour, from the packed tarball in an empty
 * folder outside the repository (nothing of it resolves from here): install, init, add-resource,
 * generate, install the project, migrate, create a user, start, log in, create and list. The time
 * of each step is printed (figures, not assertions). better-sqlite3's binary comes as a user's
 * install downloads it (support/native-prebuilds.ts), not compiled from source.
 */
describe("the first hour, from the packed tarball", () => {
  let work: string | undefined;
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("init → add-resource → generate → npm install → db:migrate → user:create → start → log in, create, list; dev restarts on a change", async () => {
    work = await mkdtemp(join(tmpdir(), "hashapi-first-hour-"));
    const app = join(work, "app");
    await mkdir(app);
    const timings: [string, number][] = [];
    // better-sqlite3's binary as a user's install downloads it, not compiled here (native-prebuilds.ts).
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...betterSqlitePrebuild(join(work, "prebuilds")) };
    const step = async (label: string, file: string, args: string[], options: Options = {}) => {
      const started = performance.now();
      const result = await execa(file, args, { cwd: app, env, extendEnv: false, reject: false, all: true, ...options });
      timings.push([label, performance.now() - started]);
      expect(result.exitCode, `${label}:\n${String(result.all)}`).toBe(0);
      return String(result.all);
    };

    await step("npm pack", "npm", ["pack", "--pack-destination", work], { cwd: repo });
    const tarball = (await readdir(work)).find((name) => name.endsWith(".tgz"))!;
    await step("npm init", "npm", ["init", "-y"]);
    await step("npm install -D hashapi (tarball)", "npm", ["install", "-D", join(work, tarball), "--prefer-offline", "--no-audit", "--no-fund"]);
    await step("hashapi init", "npx", ["hashapi", "init"]);
    await step("hashapi add-resource", "npx", ["hashapi", "add-resource", "patients", "--fields", "name:string:max=120,cpf:string:unique:length=11,phone:string:nullable"]);
    const generated = await step("hashapi generate", "npx", ["hashapi", "generate"]);
    expect(generated).toMatch(/Next steps:\n {2}cd api\n/);

    const api = join(app, "api");
    await step("npm install (project)", "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: api });
    expect(await step("npm run db:migrate", "npm", ["run", "db:migrate", "--silent"], { cwd: api })).toContain("Applied 0001_init");
    await step("npm run user:create", "npm", ["run", "user:create", "--silent", "--", "--name", "Ada Admin", "--email", "ada@example.com", "--password", "a long password"], { cwd: api });
    await step("npm run build", "npm", ["run", "build", "--silent"], { cwd: api });

    const port = await freePort();
    const started = performance.now();
    const server = execa("npm", ["start", "--silent"], { cwd: api, env: { ...env, PORT: String(port), HOST: "127.0.0.1" }, extendEnv: false, reject: false, detached: true });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor200(`${base}/api/health`, 60_000);
      timings.push(["npm start (first answer)", performance.now() - started]);
      const login = await post(`${base}/api/auth/login`, { email: "ada@example.com", password: "a long password" });
      expect(login.status).toBe(200);
      const token = login.body.data.access_token as string;
      const created = await post(`${base}/api/patients`, { name: "Maria Silva", cpf: "12345678901" }, token);
      expect(created.status).toBe(201);
      expect(created.body.data.hash).toMatch(/^PAT_[A-HJ-NP-Z2-9]{8}$/);
      const list = await fetch(`${base}/api/patients`, { headers: { Authorization: `Bearer ${token}` } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { data: { name: string }[] }).data.map((row) => row.name)).toEqual(["Maria Silva"]);
    } finally {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
      await server;
    }

    const devPort = await freePort();
    let output = "";
    const dev = execa("npm", ["run", "dev", "--silent"], { cwd: api, env: { ...env, PORT: String(devPort), HOST: "127.0.0.1", LOG_LEVEL: "info" }, extendEnv: false, reject: false, all: true, detached: true });
    dev.all?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor200(`http://127.0.0.1:${devPort}/api/health`, 60_000);
      const before = output.split("listening").length;
      const changed = performance.now();
      await appendFile(join(api, "src/custom/patient/patient.policy.ts"), "\n// touched\n");
      while (output.split("listening").length === before) {
        if (performance.now() - changed > 30_000) throw new Error(`dev did not restart:\n${output}`);
        await new Promise((done) => setTimeout(done, 20));
      }
      timings.push(["npm run dev: restart after a change", performance.now() - changed]);
    } finally {
      if (dev.pid) process.kill(-dev.pid, "SIGTERM");
      await dev;
    }

    process.stdout.write(`first hour, step by step (ms):\n${timings.map(([label, ms]) => `  ${label.padEnd(40)} ${Math.round(ms)}`).join("\n")}\n`);
  }, 30 * 60_000);
});

async function post(url: string, body: object, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
