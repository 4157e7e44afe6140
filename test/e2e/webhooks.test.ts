import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import { execa } from "execa";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, startService, type Project, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 35: webhooks per the Standard Webhooks specification, from the outbox, against a receiver
 * this test runs on 127.0.0.1 and told how to misbehave per record: fail the first attempts, time
 * out once, refuse until told otherwise, or hold every request open. Two workers per service (and,
 * on PostgreSQL, two services on one database); a worker killed with SIGKILL mid-delivery. Every
 * signature is checked by the `standardwebhooks` package, an implementation that is not ours.
 * `HASHAPI_WEBHOOK_WRITES` sets the writes of the burst (60 by default).
 */
const writes = Number(process.env.HASHAPI_WEBHOOK_WRITES ?? 60);
const secret = `whsec_${randomBytes(32).toString("base64")}`;

type Received = { id: string; headers: Record<string, string>; body: string; answered: number | "held" };
type Behaviour = (message: { hash: string; type: string; attempt: number; name: unknown }) => number | "hang" | "hold";

/** A receiver of webhooks: what it got, and how it answers (`behave`), changeable while it runs. */
async function startReceiver(): Promise<{ url: string; received: Received[]; behave: { current: Behaviour }; release(): void; close(): Promise<void> }> {
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const behave: { current: Behaviour } = { current: () => 204 };
  const held: (() => void)[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      const { type, data } = JSON.parse(body) as { type: string; data: { hash: string; record: { name?: unknown } | null } };
      const answer = behave.current({ hash: data.hash, type, attempt, name: data.record?.name });
      const entry: Received = { id, headers: Object.fromEntries(Object.entries(req.headers).map(([key, value]) => [key, String(value)])), body, answered: typeof answer === "number" ? answer : "held" };
      received.push(entry);
      if (answer === "hang") return void setTimeout(() => res.writeHead(204).end(), 3_000);
      if (answer === "hold") return void held.push(() => res.writeHead(204).end());
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/crm`,
    received,
    behave,
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** A handler that records what it got, and fails the first run for records named "Handler flaky". */
const handlersSource = `import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import type { EventHandlers } from "../lib/events/handlers.js";

export const handlers: EventHandlers = {
  "patient.created": async (event) => {
    const log = process.env.HANDLER_LOG!;
    const tried = \`\${log}.\${event.hash}\`;
    if (event.record?.name === "Handler flaky" && !existsSync(tried)) {
      writeFileSync(tried, "");
      throw new Error("the first run fails");
    }
    appendFileSync(log, JSON.stringify({ type: event.type, hash: event.hash, actor: event.actor, name: event.record?.name }) + "\\n");
  },
};
`;

/** An afterCreate hook that records the record, and throws for one name: the answer must not change. */
const hookedController = `import { appendFileSync } from "node:fs";
import type { Request } from "express";
import { PatientControllerBase } from "../../resources/patient/patient.controller.base.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

export class PatientController extends PatientControllerBase {
  protected override afterCreate(_req: Request, record: PatientRow): void {
    appendFileSync(process.env.HOOK_LOG!, record.hash + "\\n");
    if (record.name === "Hook throws") throw new Error("after the answer");
  }
}
`;

describe.each(databaseTargets)("webhooks on $label", ({ database }) => {
  const handlerLog = join(repo, ".tmp", `handlers-${database}-${process.pid}.log`);
  const hookLog = join(repo, ".tmp", `hooks-${database}-${process.pid}.log`);
  let project: Project;
  let postgres: PostgresServer | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const services: RunningService[] = [];
  let api: Request;
  let token: string;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("webhooks");
      databaseUrl = postgres.url("webhooks");
    }
    receiver = await startReceiver();
    project = await prepareProject({ name: `e2e-webhooks-${database}`, database, databaseUrl, extraSpecs: join(repo, "test/fixtures/webhooks") });
    // The project's own code: a handler of src/custom/events.ts and an afterCreate hook, built in.
    await writeFile(join(project.dir, "src/custom/events.ts"), handlersSource);
    await writeFile(join(project.dir, "src/custom/patient/patient.controller.ts"), hookedController);
    await execa("npm", ["run", "build", "--silent"], { cwd: project.dir });
    const env = { ...project.env, WEB_CONCURRENCY: "2", CRM_WEBHOOK_URL: receiver.url, CRM_WEBHOOK_SECRET: secret, WEBHOOK_TIMEOUT_MS: "500", WEBHOOK_RETRY_BASE_MS: "100", HANDLER_LOG: handlerLog, HOOK_LOG: hookLog };
    services.push(await startService({ cwd: project.dir, env }));
    // Two instances on one PostgreSQL: each delivery still goes out once (SKIP LOCKED leases).
    if (database === "postgresql") services.push(await startService({ cwd: project.dir, env }));
    api = client(services[0]!.baseUrl);
    token = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
  }, 300_000);

  afterAll(async () => {
    for (const service of services) await service.stop();
    await receiver?.close();
    await project?.cleanup();
    await postgres?.destroy();
  });

  const as = (index: number) => (method: string, path: string, body?: unknown) => client(services[index % services.length]!.baseUrl)(method, path, { token, body });
  const asAdmin = as(0);
  const p = (position: number) => (database === "sqlite" ? "?" : `$${position}`);
  const cpf = (n: number) => String(10_000_000_000 + n * 7_919 + (database === "sqlite" ? 0 : 1)).slice(0, 11);
  const pending = async () => (await asAdmin("GET", "/api/webhooks/deliveries?status=pending&per_page=1")).body.meta.total as number;
  /** The deliveries to one receiver (the webhook, or a handler: `on <pattern>`), by event, read past the service. */
  const deliveries = (to = "crm") =>
    queryDatabase(project.databaseUrl, project.dir, `SELECT "d"."hash", "d"."event_id", "d"."record_hash", "d"."status", "d"."attempts", "d"."last_status" FROM "hashapi_deliveries" AS "d" WHERE "d"."receiver" = ${p(1)} ORDER BY "d"."event_id"`, [to]);

  it(`delivers every committed write's event, signed, in order per record, and none of a refused write: ${writes} writes`, async () => {
    receiver.behave.current = () => 204;
    const made = await Promise.all(Array.from({ length: writes / 2 }, (_, n) => as(n)("POST", "/api/patients", { name: `Hook ${n}`, cpf: cpf(n) })));
    expect(made.every((reply) => reply.status === 201)).toBe(true);
    const hashes = made.map((reply) => reply.body.data.hash as string);
    const [updates, refused] = await Promise.all([
      Promise.all(hashes.map((hash, n) => as(n + 1)("PATCH", `/api/patients/${hash}`, { phone: `555-${n}` }))),
      // Refused in their transaction (the cpf is taken): no event, so nothing to deliver.
      Promise.all([0, 1, 2].map((n) => asAdmin("POST", "/api/patients", { name: "Taken", cpf: cpf(n) }))),
    ]);
    expect(updates.every((reply) => reply.status === 200)).toBe(true);
    expect(refused.every((reply) => reply.status === 422)).toBe(true);
    // Each of these records' events delivered, counted by their own rows: events commit out of id
    // order under concurrent writes, so a count of every delivery (earlier tests' too) or of the
    // pending ones could be reached while an early event is not yet fanned out.
    const delivered = async () => (await deliveries()).filter((row) => hashes.includes(String(row.record_hash)) && row.status === "delivered").length;
    await until("every delivery", async () => (await delivered()) >= writes && (await pending()) === 0);

    const events = await queryDatabase(project.databaseUrl, project.dir, `SELECT "id", "type", "record_hash" FROM "hashapi_events" WHERE "record_hash" IN (${hashes.map((_, index) => p(index + 1)).join(", ")}) ORDER BY "id"`, hashes);
    expect(events).toHaveLength(writes);
    const rows = await deliveries();
    const byEvent = new Map(rows.map((row) => [Number(row.event_id), row]));
    const verifier = new Webhook(secret);
    const firstReceipt = new Map<string, number>();
    for (const [index, entry] of receiver.received.entries()) {
      verifier.verify(entry.body, entry.headers);
      if (entry.answered === 204 && !firstReceipt.has(entry.id)) firstReceipt.set(entry.id, index);
    }
    for (const event of events) {
      const delivery = byEvent.get(Number(event.id));
      expect(delivery, `the delivery of event ${String(event.id)}`).toMatchObject({ status: "delivered", last_status: 204 });
      expect(firstReceipt.has(String(delivery!.hash)), `event ${String(event.id)} received`).toBe(true);
    }
    // In order per record: each record's created reached the receiver before its updated.
    for (const hash of hashes) {
      const [created, updated] = events.filter((event) => event.record_hash === hash).map((event) => firstReceipt.get(String(byEvent.get(Number(event.id))!.hash))!);
      expect(created, hash).toBeLessThan(updated!);
    }
    // What a receiver reads: the event, and the record as the webhook's role (receptionist) reads it.
    const sample = JSON.parse(receiver.received.find((entry) => entry.body.includes(`"patient.updated"`))!.body) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(sample).toMatchObject({ type: "patient.updated", data: { actor: { hash: project.adminHash, name: admin.name }, changes: { phone: [null, expect.stringMatching(/^555-/)] } } });
    expect(Object.keys(sample.data).sort()).toEqual(["actor", "changes", "hash", "record"]);
    expect((sample.data.record as Record<string, unknown>).hash).toBe(sample.data.hash);
    const duplicates = [...new Set(receiver.received.map((entry) => entry.id))].filter((id) => receiver.received.filter((entry) => entry.id === id && entry.answered === 204).length > 1);
    console.log(`webhooks on ${database}: ${events.length} events, ${receiver.received.length} requests, ${duplicates.length} delivered twice`);
    // At least once: a message is received twice only when an attempt was retried (its answer came
    // after WEBHOOK_TIMEOUT_MS, 500 ms here, on a loaded machine), never otherwise.
    const attemptsOf = new Map(rows.map((row) => [String(row.hash), Number(row.attempts)]));
    for (const id of duplicates) expect(attemptsOf.get(id), `${id} received twice`).toBeGreaterThan(1);
  }, 180_000);

  it("retries with growing delays through failures and a timeout, fails for good after retryHours, and retries on request", async () => {
    // Told by the record's name, before it exists: its first delivery is attempted at once.
    const misbehaves = (name: unknown, type: string) => name === "Flaky" && type === "patient.created";
    receiver.behave.current = ({ name, type, attempt }) => (name === "Refused" ? 410 : !misbehaves(name, type) ? 204 : attempt <= 2 ? 500 : attempt === 3 ? "hang" : 204);
    const flaky = (await asAdmin("POST", "/api/patients", { name: "Flaky", cpf: cpf(900) })).body.data.hash as string;
    const refused = (await asAdmin("POST", "/api/patients", { name: "Refused", cpf: cpf(901) })).body.data.hash as string;
    // Events written after the flaky one's record was made, before it is delivered, wait behind it.
    expect((await asAdmin("PATCH", `/api/patients/${flaky}`, { phone: "555-0001" })).status).toBe(200);
    await until("the flaky record's deliveries", async () => (await deliveries()).filter((row) => row.record_hash === flaky && row.status === "delivered").length === 2);
    const [created, updated] = (await deliveries()).filter((row) => row.record_hash === flaky);
    expect(created).toMatchObject({ attempts: 4, last_status: 204 });
    expect(updated).toMatchObject({ attempts: 1 });
    const flakyIds = new Set([created!.hash, updated!.hash].map(String));
    // Two 500s, a timeout (answered too late), then the created and, only then, the updated.
    expect(receiver.received.filter((entry) => flakyIds.has(entry.id)).map((entry) => entry.answered)).toEqual([500, 500, "held", 204, 204]);
    // The refused one: failed once its retry time (0.002 hours, 7.2 s, here) is spent, listed as such.
    await until("the refused delivery to fail", async () => (await asAdmin("GET", "/api/webhooks/deliveries?status=failed")).body.data.some((row: { record: string }) => row.record === refused), 60_000);
    const failed = (await asAdmin("GET", "/api/webhooks/deliveries?status=failed&webhook=crm")).body.data.find((row: { record: string }) => row.record === refused);
    expect(failed).toMatchObject({ webhook: "crm", event: "patient.created", status: "failed", last_status: 410, last_error: "answered 410", next_attempt_at: null });
    receiver.behave.current = () => 204;
    const retried = await asAdmin("POST", `/api/webhooks/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: failed.id, status: "pending" });
    await until("the retried delivery", async () => (await asAdmin("GET", "/api/webhooks/deliveries?status=delivered&per_page=100")).body.data.some((row: { id: string }) => row.id === failed.id));
    // Only the most privileged role; an unknown delivery is a 404, a bad filter a 422.
    expect((await asAdmin("POST", "/api/webhooks/deliveries/DLV_AAAAAAAA/retry")).status).toBe(404);
    expect((await asAdmin("GET", "/api/webhooks/deliveries?status=lost")).status).toBe(422);
  }, 120_000);

  it("never makes a request wait for a receiver: writes answer while every delivery is held open", async () => {
    receiver.behave.current = () => "hold";
    const replies = await Promise.all(Array.from({ length: 20 }, (_, n) => as(n)("POST", "/api/patients", { name: `Held ${n}`, cpf: cpf(1_000 + n) })));
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 201));
    await until("a held delivery", async () => receiver.received.some((entry) => entry.answered === "held"));
    receiver.behave.current = () => 204;
    receiver.release();
    await until("the held deliveries", async () => (await pending()) === 0);
  }, 120_000);

  it("runs src/custom/events.ts handlers after commit, retried when they throw, and after* hooks after the answer", async () => {
    receiver.behave.current = () => 204;
    const made = [
      await asAdmin("POST", "/api/patients", { name: "Handled", cpf: cpf(3_000) }),
      await asAdmin("POST", "/api/patients", { name: "Handler flaky", cpf: cpf(3_001) }),
      await asAdmin("POST", "/api/patients", { name: "Hook throws", cpf: cpf(3_002) }),
    ];
    // A hook that throws does not change the answer: it came before the hook ran.
    expect(made.map((reply) => reply.status)).toEqual([201, 201, 201]);
    const refused = await asAdmin("POST", "/api/patients", { name: "Refused write", cpf: cpf(3_000) });
    expect(refused.status).toBe(422);
    const hashes = made.map((reply) => reply.body.data.hash as string);
    const handled = async () => (existsSync(handlerLog) ? (await readFile(handlerLog, "utf8")).split("\n").filter(Boolean).map((line) => JSON.parse(line) as { hash: string; name: string; actor: unknown }) : []);
    await until("the handlers", async () => (await handled()).filter((entry) => hashes.includes(entry.hash)).length === 3);
    const entries = (await handled()).filter((entry) => hashes.includes(entry.hash));
    expect(entries.map((entry) => entry.name).sort()).toEqual(["Handled", "Handler flaky", "Hook throws"]);
    expect(entries[0]!.actor).toEqual({ hash: project.adminHash, name: admin.name });
    // The flaky one ran twice: failed (retried), then done; the refused write ran nothing.
    const flaky = (await deliveries("on patient.created")).find((row) => row.record_hash === hashes[1]);
    expect(flaky).toMatchObject({ status: "delivered", attempts: 2 });
    expect((await handled()).some((entry) => entry.name === "Refused write")).toBe(false);
    // Hooks ran once per answered create, in the process that answered it; never for the refused one.
    const hooked = (await readFile(hookLog, "utf8")).split("\n").filter(Boolean);
    for (const hash of hashes) expect(hooked.filter((line) => line === hash)).toHaveLength(1);
  }, 120_000);

  it("delivers again what a worker killed mid-delivery was delivering (at least once)", async () => {
    receiver.behave.current = () => "hold";
    const hash = (await asAdmin("POST", "/api/patients", { name: "Killed mid-delivery", cpf: cpf(2_000) })).body.data.hash as string;
    await until("the delivery to be under way", async () => receiver.received.some((entry) => entry.answered === "held" && entry.body.includes(hash)));
    // Every worker of every service, with SIGKILL: their supervisors start others.
    for (const service of services) {
      const workers = (await execa("pgrep", ["-P", String(service.process.pid)], { reject: false })).stdout.split("\n").filter(Boolean);
      expect(workers.length).toBeGreaterThan(0);
      for (const pid of workers) process.kill(Number(pid), "SIGKILL");
    }
    receiver.behave.current = () => 204;
    // Its lease (WEBHOOK_TIMEOUT_MS + 10 s) runs out, and a new worker attempts it again.
    await until("the delivery after the kill", async () => (await deliveries()).some((row) => row.record_hash === hash && row.status === "delivered"), 60_000);
    const id = String((await deliveries()).find((row) => row.record_hash === hash)!.hash);
    const attempts = receiver.received.filter((entry) => entry.id === id);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts.map((entry) => entry.headers["webhook-id"]))).toEqual(new Set([id]));
    receiver.release();
  }, 120_000);
});
