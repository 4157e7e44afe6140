import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, run, startService, type Project, type RunningService } from "../support/service.js";

/**
 * Read replicas (DATABASE_REPLICA_URLS, docs/api-contract.md §9, issue 36) against a real streaming
 * replica the test starts (`pg_basebackup -R` from its own primary). With the replica's replay
 * paused, what a GET reads shows where it read: another caller still reads the replica (the record
 * is not there yet), the writer reads their own write (the replica lacks their last event, so the
 * primary answers). A replica that goes away is skipped: every read still answers, none is a 5xx.
 */
const clerk = { name: "Rita Reception", email: "rita@example.com", password: "correct horse battery" };

describe.skipIf(!postgresBinDir() && !process.env.CI)("read replicas on PostgreSQL", () => {
  let primary: PostgresServer;
  let replica: PostgresServer;
  let project: Project;
  let service: RunningService;
  let replayControl: pg.Client;

  beforeAll(async () => {
    primary = await startPostgres();
    await primary.createDatabase("clinic");
    project = await prepareProject({ name: "e2e-replicas", database: "postgresql", databaseUrl: primary.url("clinic") });
    await run("npm", ["run", "user:create", "--silent", "--", "--name", clerk.name, "--email", clerk.email, "--password", clerk.password, "--role", "receptionist"], project.dir, project.env);
    replica = await primary.replicate();
    replayControl = new pg.Client({ connectionString: replica.url("clinic") });
    await replayControl.connect();
    service = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2", DATABASE_REPLICA_URLS: replica.url("clinic"), LOG_LEVEL: "info" } });
  }, 300_000);

  afterAll(async () => {
    await replayControl?.end().catch(() => undefined);
    await service?.stop();
    await replica?.destroy();
    await primary?.destroy();
    await project?.cleanup();
  });

  const call = (method: string, path: string, token?: string, body?: unknown) => client(service.baseUrl)(method, path, { ...(token ? { token } : {}), body, headers: { Connection: "close" } });
  const login = async (email: string, password: string) => (await call("POST", "/api/auth/login", undefined, { email, password })).body.data.access_token as string;

  /** Waits until the replica has replayed everything the primary has written so far. */
  async function caughtUp(): Promise<void> {
    const direct = new pg.Client({ connectionString: primary.url("clinic") });
    await direct.connect();
    const { rows } = await direct.query("SELECT pg_current_wal_lsn()::text AS lsn");
    await direct.end();
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const replayed = await replayControl.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done", [rows[0].lsn]);
      if (replayed.rows[0].done) return;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error("the replica did not catch up in 10 s");
  }

  it("sends other callers' reads to the replica, and a writer's reads to wherever their last write is", async () => {
    const adminToken = await login(admin.email, admin.password);
    const clerkToken = await login(clerk.email, clerk.password);
    await caughtUp();
    await replayControl.query("SELECT pg_wal_replay_pause()");
    try {
      const created = await call("POST", "/api/patients", adminToken, { name: "Written while the replica waits", cpf: "98765432100" });
      expect(created.status, created.text).toBe(201);
      const hash = created.body.data.hash as string;
      // Every worker, on fresh connections: the writer reads their own write, every time.
      for (let index = 0; index < 6; index += 1) {
        const own = await call("GET", `/api/patients/${hash}`, adminToken);
        expect(own.status, own.text).toBe(200);
      }
      const ownList = await call("GET", "/api/patients?per_page=100", adminToken);
      expect(ownList.body.data.map((patient: { hash: string }) => patient.hash)).toContain(hash);
      // Another caller reads the replica, which has not replayed the write yet.
      const other = await call("GET", `/api/patients/${hash}`, clerkToken);
      expect(other.status, "the clerk's read went to the paused replica").toBe(404);
    } finally {
      await replayControl.query("SELECT pg_wal_replay_resume()");
    }
    await caughtUp();
    const list = await call("GET", "/api/patients?per_page=100", clerkToken);
    expect(list.status).toBe(200);
    expect(list.body.data.some((patient: { name: string }) => patient.name === "Written while the replica waits")).toBe(true);
  });

  it("skips a replica that goes away (no 5xx, no wrong answer) and uses it again once it is back", async () => {
    const clerkToken = await login(clerk.email, clerk.password);
    const before = await call("GET", "/api/patients?per_page=5", clerkToken);
    expect(before.status).toBe(200);
    await replayControl.end();
    await replica.stop("immediate");
    try {
      for (let index = 0; index < 20; index += 1) {
        const reply = await call("GET", "/api/patients?per_page=5", clerkToken);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.meta.total).toBe(before.body.meta.total);
      }
      expect(service.output()).toMatch(/read replica does not answer: reads go to the primary until it does/);
    } finally {
      await replica.start();
      replayControl = new pg.Client({ connectionString: replica.url("clinic") });
      await replayControl.connect();
    }
    const deadline = Date.now() + 15_000;
    while (!/read replica answers again/.test(service.output()) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));
    expect(service.output()).toMatch(/read replica answers again/);
    expect((await call("GET", "/api/patients?per_page=5", clerkToken)).status).toBe(200);
  });

  it("refuses replica URLs that are not PostgreSQL's, naming the setting", async () => {
    const failure = await startService({ cwd: project.dir, env: { ...project.env, DATABASE_REPLICA_URLS: "file:./replica.db" } }).then(
      () => new Error("started"),
      (error: Error) => error,
    );
    expect(failure.message).toMatch(/DATABASE_REPLICA_URLS \(from the environment\) must be a PostgreSQL URL/);
  });
});
