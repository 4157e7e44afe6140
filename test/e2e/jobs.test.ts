import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, run, startService, type Project, type RunningService } from "../support/service.js";

/**
 * Issue 45: durable jobs and schedules on the outbox's machinery, on SQLite (one service, two
 * workers) and PostgreSQL (two services, two workers each, one database). A job enqueued with a
 * write exists exactly when the write commits; a handler's jobs exist once it succeeded; workers
 * killed with SIGKILL mid-run lose no job and never run one twice at the same time; a schedule's
 * tick is one job however many processes reach it; a job whose attempts are spent is a dead letter,
 * listed and retried by the most privileged role.
 */

/** Every run of every job, as lines of its own log: start and end, with the job's id and attempt (a file per job). */
const jobSource = (body: string) => `import { appendFileSync, existsSync } from "node:fs";
import type { JobHandler } from "../../lib/jobs/jobs.js";

const log = (line: object) => appendFileSync(process.env.JOBS_LOG!, JSON.stringify({ ...line, pid: process.pid, at: Date.now() }) + "\\n");

export const job: JobHandler = ${body};
`;
const jobFiles = {
  "src/custom/jobs/welcome.ts": jobSource(`async (payload, ctx) => {
  log({ run: "start", job: ctx.job.id, name: "welcome", attempt: ctx.job.attempt, payload });
  try {
    const patient = await ctx.read((payload as { patient: string }).patient);
    await new Promise((done) => setTimeout(done, 150));
    if (patient) ctx.jobs.enqueue("from-handler", { after: ctx.job.id });
    log({ run: "end", job: ctx.job.id, name: "welcome", read: patient?.name ?? null });
  } catch (error) {
    log({ run: "end", job: ctx.job.id, name: "welcome", error: String(error) });
    throw error;
  }
}`),
  "src/custom/jobs/flaky.ts": jobSource(`async (_payload, ctx) => {
  log({ run: "start", job: ctx.job.id, name: "flaky", attempt: ctx.job.attempt });
  if (existsSync(process.env.JOBS_LOG! + ".fail")) {
    log({ run: "end", job: ctx.job.id, name: "flaky", error: "still failing" });
    throw new Error("still failing");
  }
  log({ run: "end", job: ctx.job.id, name: "flaky" });
}`),
  "src/custom/jobs/from-handler.ts": jobSource(`async (payload, ctx) => {
  log({ run: "start", job: ctx.job.id, name: "from-handler", payload });
  log({ run: "end", job: ctx.job.id, name: "from-handler" });
}`),
  "src/custom/jobs/tick.ts": jobSource(`async (payload, ctx) => {
  log({ run: "start", job: ctx.job.id, name: "tick", payload });
  log({ run: "end", job: ctx.job.id, name: "tick" });
}`),
};

/** The patients' controller: a welcome job with each create, in its transaction. */
const controllerSource = `import type { Request } from "express";
import type { CommittingWrite } from "../../resource/controller.js";
import { PatientControllerBase } from "../../resources/patient/patient.controller.base.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

export class PatientController extends PatientControllerBase {
  protected override async onWrite(_req: Request, write: CommittingWrite<PatientRow>): Promise<void> {
    if (write.action !== "create") return;
    await write.jobs.enqueue("welcome", { patient: write.record.hash });
    if (write.record.name === "Rolled back") throw new Error("refused after its job was enqueued");
    if (write.record.name === "Flaky") await write.jobs.enqueue("flaky", null, { key: "flaky-once" });
  }
}
`;

/** A handler that enqueues a job with its success: it fails once first. */
const handlersSource = `import { existsSync, writeFileSync } from "node:fs";
import type { EventHandlers } from "../lib/events/handlers.js";

export const handlers: EventHandlers = {
  "patient.created": async (event, ctx) => {
    if (event.record?.name !== "Handled") return;
    ctx.jobs.enqueue("from-handler", { handled: event.hash });
    const tried = process.env.JOBS_LOG + ".handler";
    if (!existsSync(tried)) {
      writeFileSync(tried, "");
      throw new Error("the first run fails: its job is not enqueued");
    }
  },
};
`;

interface Run {
  run: "start" | "end";
  job: string;
  name: string;
  attempt?: number;
  payload?: unknown;
  read?: unknown;
  error?: string;
  pid: number;
  at: number;
}

/** SIGKILL, unless the process ended between listing and killing (a worker the supervisor was replacing). */
function killIfRunning(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 150));
  }
}

describe.each(databaseTargets)("jobs and schedules on $label", ({ database }) => {
  const jobsLog = join(repo, ".tmp", `jobs-${database}-${process.pid}.log`);
  let project: Project;
  let postgres: PostgresServer | undefined;
  const services: RunningService[] = [];
  let token: string;

  const api = (index = 0) => client(services[index % services.length]!.baseUrl);
  const asAdmin = (method: string, path: string, body?: unknown, index = 0) => api(index)(method, path, { token, body });
  const runs = async () => (existsSync(jobsLog) ? (await readFile(jobsLog, "utf8")).split("\n").filter(Boolean).map((line) => JSON.parse(line) as Run) : []);
  const jobRows = (where = "1 = 1") => queryDatabase(project.databaseUrl, project.dir, `SELECT "hash", "name", "status", "attempts", "key", "payload" FROM "hashapi_jobs" WHERE ${where} ORDER BY "id"`);
  const cpf = (n: number) => String(30_000_000_000 + n * 7_919 + (database === "sqlite" ? 0 : 1)).slice(0, 11);

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("jobs");
      databaseUrl = postgres.url("jobs");
    }
    await rm(jobsLog, { force: true });
    await rm(`${jobsLog}.handler`, { force: true });
    project = await prepareProject({
      name: `e2e-jobs-${database}`,
      database,
      databaseUrl,
      extraSpecs: join(repo, "test/fixtures/jobs"),
      customFiles: { ...jobFiles, "src/custom/patient/patient.controller.ts": controllerSource, "src/custom/events.ts": handlersSource },
    });
    const env = { ...project.env, WEB_CONCURRENCY: "2", JOBS_LOG: jobsLog, WEBHOOK_RETRY_BASE_MS: "200" };
    services.push(await startService({ cwd: project.dir, env }));
    if (database === "postgresql") services.push(await startService({ cwd: project.dir, env }));
    token = (await api()("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
  }, 300_000);

  afterAll(async () => {
    for (const service of services) await service.stop();
    await project?.cleanup();
    await postgres?.destroy();
  });

  it("enqueues a job with its write or not at all, and runs it as the service reads the record", async () => {
    const made = await asAdmin("POST", "/api/patients", { name: "Welcome Ada", cpf: cpf(1) });
    expect(made.status).toBe(201);
    const refused = await asAdmin("POST", "/api/patients", { name: "Rolled back", cpf: cpf(2) });
    expect(refused.status).toBe(500);
    expect((await asAdmin("GET", `/api/patients?filter[name]=Rolled%20back`)).body.data).toEqual([]);
    await until("the welcome job", async () => (await runs()).some((entry) => entry.run === "end" && entry.name === "welcome" && entry.read === "Welcome Ada"));
    const welcomes = await jobRows(`"name" = 'welcome'`);
    // The rolled back write's job never existed; the committed one's ran once and is done.
    expect(welcomes.map((row) => JSON.parse(String(row.payload)))).toEqual([{ patient: made.body.data.hash }]);
    await until("the welcome job done", async () => (await jobRows(`"name" = 'welcome'`))[0]!.status === "done");
    // What a job enqueues is written with its success: one from-handler job after it.
    await until("the job's own job", async () => (await runs()).some((entry) => entry.name === "from-handler" && JSON.stringify(entry.payload) === JSON.stringify({ after: String(welcomes[0]!.hash) })));
  }, 120_000);

  it("writes a handler's jobs only with its success", async () => {
    const made = await asAdmin("POST", "/api/patients", { name: "Handled", cpf: cpf(3) });
    const hash = made.body.data.hash as string;
    await until("the handler's job", async () => (await runs()).some((entry) => entry.name === "from-handler" && JSON.stringify(entry.payload) === JSON.stringify({ handled: hash })), 60_000);
    // The first run threw (its job was dropped), the second succeeded: one job. On SQLite the worker
    // may run it before the group commit that wrote it is visible to another connection: wait for it.
    const handled = async () => (await jobRows(`"name" = 'from-handler'`)).filter((row) => String(row.payload).includes(hash));
    await until("the handler's job row", async () => (await handled()).length > 0);
    expect(await handled()).toHaveLength(1);
  }, 120_000);

  it("keeps a job whose attempts are spent as a dead letter, listed and retried by the first role only", async () => {
    await writeFile(`${jobsLog}.fail`, "");
    expect((await asAdmin("POST", "/api/patients", { name: "Flaky", cpf: cpf(4) })).status).toBe(201);
    await until("the flaky job to fail for good", async () => (await jobRows(`"name" = 'flaky'`))[0]?.status === "failed", 60_000);
    const [flaky] = await jobRows(`"name" = 'flaky'`);
    expect(flaky).toMatchObject({ attempts: 3, key: "flaky-once" });
    const listed = await asAdmin("GET", "/api/jobs?status=failed&name=flaky");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: flaky!.hash, status: "failed", attempts: 3, last_error: "still failing", key: "flaky-once" })]);
    const receptionist = (await api()("POST", "/api/users", { token, body: { name: "Rita", email: `rita-jobs-${database}@example.com`, password: "a long password", role: "receptionist" } })).status;
    expect(receptionist).toBe(201);
    const ritaToken = (await api()("POST", "/api/auth/login", { body: { email: `rita-jobs-${database}@example.com`, password: "a long password" } })).body.data.access_token as string;
    expect((await api()("GET", "/api/jobs", { token: ritaToken })).status).toBe(403);
    expect((await api()("GET", "/api/jobs?status=lost")).status).toBe(401);
    expect((await asAdmin("GET", "/api/jobs?status=lost")).status).toBe(422);
    expect((await asAdmin("POST", "/api/jobs/JOB_AAAAAAAA/retry")).status).toBe(404);
    await rm(`${jobsLog}.fail`);
    const retried = await asAdmin("POST", `/api/jobs/${flaky!.hash}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: flaky!.hash, status: "pending" });
    await until("the retried job", async () => (await jobRows(`"name" = 'flaky'`))[0]!.status === "done");
    // The same key again is no second job.
    expect((await asAdmin("POST", "/api/patients", { name: "Flaky", cpf: cpf(5) })).status).toBe(201);
    expect(await jobRows(`"name" = 'flaky'`)).toHaveLength(1);
  }, 120_000);

  it("runs each schedule's tick once across every process, and loses no job to kill -9, never running one twice at once", async () => {
    const made = await Promise.all(Array.from({ length: 40 }, (_, n) => asAdmin("POST", "/api/patients", { name: `Killed ${n}`, cpf: cpf(100 + n) }, n)));
    expect(made.every((reply) => reply.status === 201)).toBe(true);
    // Every worker of every service, killed three times while the jobs run: their supervisors start others.
    for (let round = 0; round < 3; round += 1) {
      await new Promise((done) => setTimeout(done, 400));
      for (const service of services) {
        const workers = (await execa("pgrep", ["-P", String(service.process.pid)], { reject: false })).stdout.split("\n").filter(Boolean);
        // Two workers, each with its background thread (a thread, never a process of its own).
        if (round === 0) expect(workers).toHaveLength(2);
        for (const pid of workers) killIfRunning(Number(pid));
      }
    }
    const hashes = made.map((reply) => reply.body.data.hash as string);
    // A job's lease (its timeout and 10 s) runs out; another worker runs it again.
    await until("every welcome job done", async () => {
      const rows = await jobRows(`"name" = 'welcome'`);
      const done = rows.filter((row) => row.status === "done").map((row) => (JSON.parse(String(row.payload)) as { patient: string }).patient);
      return hashes.every((hash) => done.includes(hash));
    }, 120_000);
    expect((await jobRows(`"name" = 'welcome'`)).filter((row) => hashes.includes((JSON.parse(String(row.payload)) as { patient: string }).patient))).toHaveLength(hashes.length);
    // Never two runs of one job at once: each start follows the end of the run before it, or its
    // worker was killed (no end: the next run starts once the lease ran out).
    const byJob = new Map<string, Run[]>();
    for (const entry of await runs()) byJob.set(entry.job, [...(byJob.get(entry.job) ?? []), entry]);
    const failures = (await runs()).filter((entry) => entry.name === "welcome" && entry.error !== undefined);
    expect(failures.map((entry) => entry.error)).toEqual([]);
    for (const [job, entries] of byJob) {
      let open: Run | undefined;
      for (const entry of entries) {
        if (entry.run === "start") {
          if (open) expect(entry.at - open.at, `${job}: a second run started while one ran`).toBeGreaterThanOrEqual(10_000);
          open = entry;
        } else open = undefined;
      }
    }
    // The schedule: one job per tick, however many processes reached it, each run at most once.
    const ticks = await jobRows(`"name" = 'tick'`);
    expect(ticks.length).toBeGreaterThan(3);
    expect(new Set(ticks.map((row) => row.key)).size).toBe(ticks.length);
    expect(ticks.every((row) => String(row.key).startsWith("schedule:every-second:"))).toBe(true);
    // Each tick ran (again only after a kill: at least once), with the schedule's payload.
    const tickRuns = (await runs()).filter((entry) => entry.name === "tick" && entry.run === "start");
    const ran = new Set(tickRuns.map((entry) => entry.job));
    expect(ticks.filter((row) => row.status === "done").every((row) => ran.has(String(row.hash)))).toBe(true);
    expect(tickRuns.every((entry) => JSON.stringify(entry.payload) === JSON.stringify({ from: "schedule" }))).toBe(true);
  }, 240_000);
});
