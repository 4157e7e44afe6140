import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, run, startService, type Project, type Reply, type RunningService } from "../support/service.js";

/**
 * Request limits (`rateLimit` in hashapi.yaml and in a resource spec; docs/api-contract.md §9,
 * issue 36) on the example clinic with limits added: anonymous callers by address (TRUST_PROXY
 * believed), signed-in callers by user and role, a resource action's own limit on top; 429 with
 * Retry-After in the envelope. Counted across the workers of one instance (the supervisor, SQLite)
 * and across instances (the database, PostgreSQL).
 */
const limits = { windowSeconds: 60, anonymous: 5, signedIn: 8, roles: { admin: 12 } };
const clerk = { name: "Rita Reception", email: "rita@example.com", password: "correct horse battery" };
const curator = { name: "Cid Curator", email: "cid@example.com", password: "correct horse battery" };

describe.each(databaseTargets)("request limits on $label", ({ database }) => {
  const extra = join(repo, ".tmp", `rate-limit-specs-${database}-${process.pid}`);
  let postgres: PostgresServer | undefined;
  let project: Project;
  let service: RunningService;
  let serviceEnv: Record<string, string>;

  beforeAll(async () => {
    // The example's own files with limits added, as a user would add them.
    await mkdir(extra, { recursive: true });
    const projectFile = await readFile(join(repo, "specs/hashapi.yaml"), "utf8");
    await writeFile(join(extra, "hashapi.yaml"), `${projectFile}rateLimit: ${JSON.stringify(limits)}\n`);
    const specialty = await readFile(join(repo, "specs/specialty.yaml"), "utf8");
    await writeFile(join(extra, "specialty.yaml"), `${specialty}rateLimit: { store: 3 }\n`);
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("limits");
    }
    project = await prepareProject({ name: `e2e-limits-${database}`, database, extraSpecs: extra, ...(postgres ? { databaseUrl: postgres.url("limits") } : {}) });
    for (const [user, role] of [[clerk, "receptionist"], [curator, "admin"]] as const)
      await run("npm", ["run", "user:create", "--silent", "--", "--name", user.name, "--email", user.email, "--password", user.password, "--role", role], project.dir, project.env);
    serviceEnv = { ...project.env, WEB_CONCURRENCY: "2", TRUST_PROXY: "loopback" };
    service = await startService({ cwd: project.dir, env: serviceEnv });
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await postgres?.destroy();
    await project?.cleanup();
    await rm(extra, { recursive: true, force: true });
  });

  /** A fresh connection each time: the cluster spreads them over both workers. */
  const send = (base: string, method: string, path: string, options: { token?: string; from?: string; body?: unknown } = {}) =>
    client(base)(method, path, { ...(options.token ? { token: options.token } : {}), body: options.body, headers: { Connection: "close", ...(options.from ? { "X-Forwarded-For": options.from } : {}) } });

  async function login(email: string, password: string, from: string): Promise<string> {
    const reply = await send(service.baseUrl, "POST", "/api/auth/login", { body: { email, password }, from });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data.access_token as string;
  }

  function expectLimited(reply: Reply): void {
    expect(reply.status, reply.text).toBe(429);
    expect(reply.body).toEqual({ type: "error", status: 429, message: "Too many requests." });
    const retryAfter = Number(reply.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(limits.windowSeconds);
  }

  const statuses = async (count: number, request: () => Promise<Reply>) => {
    const seen: number[] = [];
    for (let index = 0; index < count; index += 1) seen.push((await request()).status);
    return seen;
  };

  it("limits anonymous callers by address: 5 answered, the 6th is 429; another address is counted apart; probes are never counted", async () => {
    const first = await statuses(5, () => send(service.baseUrl, "GET", "/api/specialties", { from: "203.0.113.10" }));
    expect(first).toEqual([200, 200, 200, 200, 200]);
    expectLimited(await send(service.baseUrl, "GET", "/api/specialties", { from: "203.0.113.10" }));
    expect((await send(service.baseUrl, "GET", "/api/specialties", { from: "203.0.113.11" })).status).toBe(200);
    expect(await statuses(10, () => send(service.baseUrl, "GET", "/api/health/ready", { from: "203.0.113.10" }))).toEqual(Array(10).fill(200));
  });

  it("counts requests with a bad token against their address: a flood of forged tokens meets the limit too", async () => {
    const forged = await statuses(5, () => send(service.baseUrl, "GET", "/api/patients", { token: "a.b.c", from: "203.0.113.20" }));
    expect(forged).toEqual([401, 401, 401, 401, 401]);
    expectLimited(await send(service.baseUrl, "GET", "/api/patients", { token: "a.b.c", from: "203.0.113.20" }));
  });

  it("limits signed-in users by user and role (receptionist 8, admin 12), whatever address they come from", async () => {
    const token = await login(clerk.email, clerk.password, "203.0.113.30");
    const seen = await statuses(8, () => send(service.baseUrl, "GET", "/api/patients", { token, from: `203.0.113.${31 + Math.floor(Math.random() * 50)}` }));
    expect(seen).toEqual(Array(8).fill(200));
    expectLimited(await send(service.baseUrl, "GET", "/api/patients", { token, from: "203.0.113.99" }));
    const adminToken = await login(admin.email, admin.password, "203.0.113.40");
    expect(await statuses(12, () => send(service.baseUrl, "GET", "/api/patients", { token: adminToken }))).toEqual(Array(12).fill(200));
    expectLimited(await send(service.baseUrl, "GET", "/api/patients", { token: adminToken }));
  });

  it("adds a resource action's own limit on top (specialties.store: 3), and says 429 in openapi.json", async () => {
    const token = await login(curator.email, curator.password, "203.0.113.50");
    const created = await statuses(3, () => send(service.baseUrl, "POST", "/api/specialties", { token, body: { name: `Specialty ${Math.random()}` } }));
    expect(created).toEqual([201, 201, 201]);
    expectLimited(await send(service.baseUrl, "POST", "/api/specialties", { token, body: { name: "One too many" } }));
    // The caller's other actions keep the caller's own limit (12 for an admin; 4 used).
    expect((await send(service.baseUrl, "GET", "/api/specialties", { token })).status).toBe(200);
    const openapi = JSON.parse(await readFile(join(project.dir, "openapi.json"), "utf8"));
    expect(openapi.paths["/api/specialties"].post.responses["429"]).toEqual({ $ref: "#/components/responses/TooManyRequests" });
    expect(openapi.paths["/api/health/ready"].get.responses["429"]).toBeUndefined();
  });

  it(database === "postgresql" ? "holds the counts across instances: a second instance refuses the receptionist the first one counted out" : "counts per instance on SQLite (one machine's service): a second instance starts its own counts", async () => {
    const second = await startService({ cwd: project.dir, env: serviceEnv });
    try {
      const reply = await send(second.baseUrl, "POST", "/api/auth/login", { body: { email: clerk.email, password: clerk.password }, from: "203.0.113.60" });
      const token = reply.body.data.access_token as string;
      const answer = await send(second.baseUrl, "GET", "/api/patients", { token });
      if (database === "postgresql") expectLimited(answer);
      else expect(answer.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
