import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, fuzzWebhookSecret, migrate, prepareProject, repo, run, startService, type Project, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 45: one gate for every exit. The example with an audited appointment and doctor, one
 * webhook per role (and one that hears seeds) and a handler, written to by each role; then the
 * specs change under the stored events — a visibleTo field renamed (appointment.notes →
 * clinical_notes), a field hidden (patient.phone), a field narrowed (medical_record.diagnosis to
 * admins), a field removed (medical_record.weight_kg) — and every exit is read again by every
 * role: each history, and the deliveries written before the change but sent after it. Each must
 * show exactly what a show of the record shows that reader under the specs as they are now.
 */

interface Received {
  hook: string;
  type: string;
  data: { hash: string; actor: unknown; changes: Record<string, unknown>; record: Record<string, unknown> | null };
}

/** One receiver for every webhook, by path; it answers `status.current` (503 keeps deliveries pending). */
async function startReceiver() {
  const received: Received[] = [];
  const status = { current: 503 };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (status.current < 300) received.push({ hook: String(req.url).slice(1), ...(JSON.parse(body) as Omit<Received, "hook">) });
      res.writeHead(status.current).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    received,
    status,
    env: {
      EXITS_ADMIN_URL: `${base}/as-admin`,
      EXITS_DOCTOR_URL: `${base}/as-doctor`,
      EXITS_RECEPTIONIST_URL: `${base}/as-receptionist`,
      EXITS_SEEDS_URL: `${base}/seeds`,
      EXITS_HOOK_SECRET: fuzzWebhookSecret,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A handler that records every event as the service itself reads it. */
const handlerSource = `import { appendFileSync } from "node:fs";
import type { EventHandlers } from "../lib/events/handlers.js";

export const handlers: EventHandlers = {
  "*": async (event, ctx) => {
    // Before the specs change the handler fails, so its deliveries are made after the change.
    if (process.env.EXITS_HANDLER_FAIL) throw new Error("not yet");
    const actor = event.actor ? await ctx.read(event.actor.hash) : null;
    appendFileSync(process.env.EXITS_HANDLER_LOG!, JSON.stringify({ type: event.type, hash: event.hash, changes: event.changes, record: event.record, actorEmail: actor?.email ?? null }) + "\\n");
  },
};
`;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 150));
  }
}

/** Every key of every `changes` in a list of events. */
const changedKeys = (entries: readonly { changes: Record<string, unknown> }[]) => [...new Set(entries.flatMap((entry) => Object.keys(entry.changes)))].sort();

describe.each(databaseTargets)("every exit through one gate, on $label", ({ database }) => {
  const handlerLog = join(repo, ".tmp", `exits-handler-${database}-${process.pid}.log`);
  let project: Project;
  let postgres: PostgresServer | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let service: RunningService;
  let api: Request;
  let env: Record<string, string>;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const login = async (email: string, password: string) => (await api("POST", "/api/auth/login", { body: { email, password } })).body.data.access_token as string;
  const as = (role: string) => (method: string, path: string, body?: unknown) => api(method, path, { ...(tokens[role] ? { token: tokens[role] } : {}), body });
  const history = async (role: string, path: string) => {
    const reply = await as(role)("GET", `${path}/history?per_page=100`);
    expect(reply.status, `${role} ${path}/history`).toBe(200);
    return reply.body.data as { event: string; actor: unknown; changes: Record<string, unknown> }[];
  };
  const handled = async () => (existsSync(handlerLog) ? (await readFile(handlerLog, "utf8")).split("\n").filter(Boolean).map((line) => JSON.parse(line) as Received["data"] & { type: string; actorEmail: string | null }) : []);

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("exits");
      databaseUrl = postgres.url("exits");
    }
    receiver = await startReceiver();
    project = await prepareProject({ name: `e2e-exits-${database}`, database, databaseUrl, extraSpecs: join(repo, "test/fixtures/exits") });
    await writeFile(join(project.dir, "src/custom/events.ts"), handlerSource);
    await run("npm", ["run", "build", "--silent"], project.dir, project.env);
    env = { ...project.env, ...receiver.env, EXITS_HANDLER_LOG: handlerLog, WEBHOOK_RETRY_BASE_MS: "100" };
    service = await startService({ cwd: project.dir, env: { ...env, EXITS_HANDLER_FAIL: "1" } });
    api = client(service.baseUrl);
    tokens.admin = await login(admin.email, admin.password);
    for (const [role, name] of [["doctor", "Dora"], ["receptionist", "Rita"]] as const) {
      const made = await as("admin")("POST", "/api/users", { name, email: `${name.toLowerCase()}@example.com`, password: "a long password", role });
      expect(made.status).toBe(201);
      ids[role] = made.body.data.hash;
      tokens[role] = await login(`${name.toLowerCase()}@example.com`, "a long password");
    }
    const specialty = (await as("admin")("GET", "/api/specialties")).body.data[0]?.hash ?? (await as("admin")("POST", "/api/specialties", { name: "Cardiology" })).body.data.hash;
    const doctor = await as("admin")("POST", "/api/doctors", { name: "Dr. Exit", crm: `CRM-${database}`, user: ids.doctor, specialties: [{ hash: specialty, since: "2024-01-31" }] });
    expect(doctor.status).toBe(201);
    ids.doctorRecord = doctor.body.data.hash;
    expect((await as("admin")("PUT", `/api/doctors/${ids.doctorRecord}/specialties/${specialty}`, { since: "2025-02-01" })).status).toBeLessThan(300);
    const patient = await as("admin")("POST", "/api/patients", { name: "Pat Exit", cpf: database === "sqlite" ? "12345678901" : "12345678902", phone: "+1 555 7777" });
    ids.patient = patient.body.data.hash;
    expect((await as("admin")("PATCH", `/api/patients/${ids.patient}`, { phone: "+1 555 8888" })).status).toBe(200);
    const appointment = await as("admin")("POST", "/api/appointments", { scheduled_at: "2026-12-01T10:00:00Z", patient: ids.patient, doctor: ids.doctorRecord, notes: "SECRETNOTE1" });
    expect(appointment.status).toBe(201);
    ids.appointment = appointment.body.data.hash;
    expect((await as("admin")("PATCH", `/api/appointments/${ids.appointment}`, { notes: "SECRETNOTE2" })).status).toBe(200);
    const record = await as("doctor")("POST", "/api/medical-records", { summary: "Checked", recorded_on: "2026-11-28", weight_kg: "70.50", diagnosis: "DIAGNOSIS1", patient: ids.patient, doctor: ids.doctorRecord });
    expect(record.status).toBe(201);
    ids.record = record.body.data.public_id;
    await run("npm", ["run", "db:seed", "--silent", "--", "--count", "2"], project.dir, env);
  }, 600_000);

  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await project?.cleanup();
    await postgres?.destroy();
  });

  it("before the change: history shows each role what its show shows", async () => {
    expect(changedKeys(await history("receptionist", `/api/appointments/${ids.appointment}`))).not.toContain("notes");
    expect(changedKeys(await history("doctor", `/api/appointments/${ids.appointment}`))).toContain("notes");
    expect(changedKeys(await history("admin", `/api/patients/${ids.patient}`))).toContain("phone");
    expect(changedKeys(await history("doctor", `/api/medical-records/${ids.record}`))).toEqual(expect.arrayContaining(["diagnosis", "weight_kg"]));
    // Anonymous readers of a public record's history learn that a user wrote, not who.
    const doctorHistory = await history("anonymous", `/api/doctors/${ids.doctorRecord}`);
    expect(doctorHistory.every((entry) => JSON.stringify(entry.actor) === JSON.stringify({ hash: null, name: null }))).toBe(true);
    // A link's pivot fields are in its events: attached with its date, then the date changed.
    const links = (await history("admin", `/api/doctors/${ids.doctorRecord}`)).filter((entry) => entry.event === "doctor.specialties.attached");
    expect(links.map((entry) => entry.changes["specialties.since"])).toEqual([["2024-01-31", "2025-02-01"], [null, "2024-01-31"]]);
    expect((await history("admin", `/api/doctors/${ids.doctorRecord}`)).every((entry) => entry.actor !== null && (entry.actor as { hash: string }).hash === project.adminHash)).toBe(true);
  });

  it("after the change: every history, every webhook and the handler show what each reader may see now", async () => {
    await service.stop();
    const specs = `${project.dir}-specs`;
    const edit = async (file: string, change: (text: string) => string) => writeFile(join(specs, file), change(await readFile(join(specs, file), "utf8")));
    // Appointments no longer nest their patient in every answer: doctors, who read appointments,
    // may no longer show patients below (an eagerLoad they could not see is a spec error).
    await edit("appointment.yaml", (text) => text.replace(/^ {2}notes: \{ type: text/m, "  clinical_notes: { renamedFrom: notes, type: text").replace("eagerLoad: [patient, doctor]", "eagerLoad: [doctor]"));
    // Patients hide phone, and doctors may no longer show them: deliveries already made for the
    // doctors' webhook are skipped, not sent.
    await edit("patient.yaml", (text) => `${text.replace("roles: { destroy: [admin], restore: [admin] }", "roles: { show: [admin, receptionist], destroy: [admin], restore: [admin] }")}serializer:\n  hidden: [phone]\n`);
    await edit("medical-record.yaml", (text) => text.replace("visibleTo: [admin, doctor], writableBy: [doctor]", "visibleTo: [admin], writableBy: [admin]").replace(/^ {2}weight_kg: .*\n/m, ""));
    await run(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", project.dir, "--accept-data-loss"], repo, {});
    await run("npm", ["run", "build", "--silent"], project.dir, project.env);
    await migrate(project.dir, project.env);
    receiver.status.current = 204;
    // Every lane due now, not at its retry's time (the receiver refused until here).
    await queryDatabase(project.databaseUrl, project.dir, `UPDATE "hashapi_lanes" SET "next_attempt_at" = '2000-01-01T00:00:00.000Z', "lease" = NULL`);
    service = await startService({ cwd: project.dir, env });
    api = client(service.baseUrl);

    // History: old events read through the specs as they are now.
    const appointmentPath = `/api/appointments/${ids.appointment}`;
    const renamed = (await history("admin", appointmentPath)).find((entry) => entry.event === "appointment.updated")!;
    expect(renamed.changes).toEqual({ clinical_notes: ["SECRETNOTE1", "SECRETNOTE2"] });
    expect(changedKeys(await history("doctor", appointmentPath))).toContain("clinical_notes");
    for (const role of ["admin", "doctor", "receptionist"]) expect(changedKeys(await history(role, appointmentPath)), role).not.toContain("notes");
    expect(changedKeys(await history("receptionist", appointmentPath))).not.toContain("clinical_notes");
    for (const role of ["admin", "receptionist"]) expect(changedKeys(await history(role, `/api/patients/${ids.patient}`)), role).not.toContain("phone");
    const seeded = (await as("admin")("GET", "/api/patients?per_page=100")).body.data.filter((row: { hash: string }) => row.hash !== ids.patient);
    for (const row of seeded) expect(changedKeys(await history("admin", `/api/patients/${row.hash}`))).not.toContain("phone");
    expect(changedKeys(await history("doctor", `/api/medical-records/${ids.record}`))).not.toEqual(expect.arrayContaining(["diagnosis"]));
    expect(changedKeys(await history("doctor", `/api/medical-records/${ids.record}`))).not.toContain("weight_kg");
    expect(changedKeys(await history("admin", `/api/medical-records/${ids.record}`))).toContain("diagnosis");
    expect(changedKeys(await history("admin", `/api/medical-records/${ids.record}`))).not.toContain("weight_kg");

    // The deliveries written before the change, sent after it.
    await until("every webhook's deliveries", async () => (await as("admin")("GET", "/api/webhooks/deliveries?status=pending&per_page=1")).body.meta.total === 0);
    const to = (hook: string) => receiver.received.filter((entry) => entry.hook === hook);
    const keysOf = (hook: string, prefix: string) => changedKeys(to(hook).filter((entry) => entry.type.startsWith(prefix)).map((entry) => entry.data));
    const recordKeysOf = (hook: string, prefix: string) => [...new Set(to(hook).filter((entry) => entry.type.startsWith(prefix) && entry.data.record).flatMap((entry) => Object.keys(entry.data.record!)))];
    // as-admin: everything, as admins read it now.
    expect(keysOf("as-admin", "appointment.")).toContain("clinical_notes");
    expect(keysOf("as-admin", "appointment.")).not.toContain("notes");
    expect(keysOf("as-admin", "patient.")).not.toContain("phone");
    expect(recordKeysOf("as-admin", "patient.")).not.toContain("phone");
    expect(keysOf("as-admin", "medical_record.")).toContain("diagnosis");
    expect(keysOf("as-admin", "medical_record.")).not.toContain("weight_kg");
    expect(keysOf("as-admin", "user.")).toContain("email");
    // as-receptionist: no medical record (403 to it), no user, no notes by either name.
    expect(to("as-receptionist").map((entry) => entry.type.split(".")[0])).not.toEqual(expect.arrayContaining(["medical_record"]));
    expect(to("as-receptionist").some((entry) => entry.type.startsWith("medical_record.") || entry.type.startsWith("user."))).toBe(false);
    expect(keysOf("as-receptionist", "appointment.")).not.toEqual(expect.arrayContaining(["clinical_notes"]));
    expect(keysOf("as-receptionist", "appointment.")).not.toContain("notes");
    expect(recordKeysOf("as-receptionist", "appointment.")).not.toContain("clinical_notes");
    expect(keysOf("as-receptionist", "patient.")).not.toContain("phone");
    // as-doctor: a doctor reaches only its own appointments and records, and a webhook owns none;
    // it may no longer show patients; it may show doctors.
    expect(to("as-doctor").some((entry) => /^(appointment|medical_record|user|patient)\./.test(entry.type))).toBe(false);
    expect(to("as-doctor").some((entry) => entry.type.startsWith("doctor."))).toBe(true);
    // Seeds are not traffic, but for the webhook that asks for them.
    const seededHashes = new Set(seeded.map((row: { hash: string }) => row.hash));
    for (const hook of ["as-admin", "as-receptionist", "as-doctor"]) expect(to(hook).some((entry) => seededHashes.has(entry.data.hash)), hook).toBe(false);
    expect(to("seeds").filter((entry) => seededHashes.has(entry.data.hash)).length).toBe(seededHashes.size);
    // The doctors' patient deliveries, made before the change, are skipped, not failed; the
    // receptionist's webhook never had any of medical records (its role may not show them).
    const deliveriesOf = async (hook: string, status: string) => Number((await queryDatabase(project.databaseUrl, project.dir, `SELECT COUNT(*) AS "count" FROM "hashapi_deliveries" WHERE "receiver" = '${hook}' AND "status" = '${status}'`))[0]!.count);
    expect(await deliveriesOf("as-doctor", "skipped")).toBeGreaterThan(0);
    expect(await deliveriesOf("as-doctor", "failed")).toBe(0);
    const receptionistRecords = await queryDatabase(project.databaseUrl, project.dir, `SELECT COUNT(*) AS "count" FROM "hashapi_deliveries" WHERE "receiver" = 'as-receptionist' AND "record_hash" = '${ids.record}'`);
    expect(Number(receptionistRecords[0]!.count)).toBe(0);

    // The handler reads as the service itself: every field the record outputs now, nothing removed or hidden.
    await until("the handler", async () => (await handled()).some((entry) => entry.type === "medical_record.created"));
    const events = await handled();
    expect(changedKeys(events.filter((entry) => entry.type.startsWith("appointment.")))).toContain("clinical_notes");
    expect(changedKeys(events.filter((entry) => entry.type.startsWith("medical_record.")))).toContain("diagnosis");
    expect(changedKeys(events.filter((entry) => entry.type.startsWith("medical_record.")))).not.toContain("weight_kg");
    expect(changedKeys(events.filter((entry) => entry.type.startsWith("patient.")))).not.toContain("phone");
    expect(events.find((entry) => entry.type === "appointment.created")!.actorEmail).toBe(admin.email);
    // A record gone by the time its handler runs is `record: null` (a hard delete here).
    expect((await as("admin")("DELETE", `/api/medical-records/${ids.record}`)).status).toBe(200);
    await until("the delete's handler", async () => (await handled()).some((entry) => entry.type === "medical_record.deleted"));
    expect((await handled()).find((entry) => entry.type === "medical_record.deleted")).toMatchObject({ hash: ids.record, record: null, changes: {} });
  }, 600_000);
});
