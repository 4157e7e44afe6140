import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, startService, waitFor200, type Project, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 35, first part: every committed write is an event in the outbox (hashapi_events), appended
 * in the write's own transaction, with its actor and what changed; a write refused inside its
 * transaction leaves none, and none is separated from its write when workers die mid-request. Over
 * HTTP, two workers, on SQLite and PostgreSQL. `HASHAPI_RACE_ROUNDS` sets the concurrent writes of the
 * races (40 by default).
 */
const rounds = Number(process.env.HASHAPI_RACE_ROUNDS ?? 40);
/** Rounds of writes with a worker killed by SIGKILL among them (HASHAPI_KILL_ROUNDS; hundreds for a long run). */
const killRounds = Number(process.env.HASHAPI_KILL_ROUNDS ?? 8);

type Event = { type: string; hash: string; actor: string | null; changes: Record<string, unknown[]> };

describe.each(databaseTargets)("the outbox on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let api: Request;
  let adminToken: string;
  let adminHash: string;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("events");
      databaseUrl = postgres.url("events");
    }
    project = await prepareProject({ name: `e2e-events-${database}`, database, databaseUrl });
    service = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2" } });
    api = client(service.baseUrl);
    const login = await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } });
    adminToken = login.body.data.access_token;
    adminHash = (await asAdmin("GET", "/api/auth/me")).body.hash;
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await project?.cleanup();
    await postgres?.destroy();
  });

  const asAdmin = (method: string, path: string, body?: unknown) => api(method, path, { token: adminToken, body });
  const p = (position: number) => (database === "sqlite" ? "?" : `$${position}`);
  /** The events of these records, oldest first, read past the service. */
  async function eventsOf(...hashes: string[]): Promise<Event[]> {
    const rows = await queryDatabase(
      project.databaseUrl,
      project.dir,
      `SELECT "type", "record_hash", "actor_hash", "changes" FROM "hashapi_events" WHERE "record_hash" IN (${hashes.map((_, index) => p(index + 1)).join(", ")}) ORDER BY "id"`,
      hashes,
    );
    return rows.map((row) => ({ type: String(row.type), hash: String(row.record_hash), actor: row.actor_hash === null ? null : String(row.actor_hash), changes: JSON.parse(String(row.changes)) as Event["changes"] }));
  }
  const created = async (path: string, body: unknown) => {
    const reply = await asAdmin("POST", path, body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data.hash as string;
  };

  it("records each kind of write with its actor and changes, the links of payloads and of link routes too", async () => {
    const [first, second, third] = [
      await created("/api/specialties", { name: `Events A ${database}` }),
      await created("/api/specialties", { name: `Events B ${database}` }),
      await created("/api/specialties", { name: `Events C ${database}` }),
    ];
    expect(await eventsOf(first!)).toEqual([{ type: "specialty.created", hash: first, actor: adminHash, changes: { name: [null, `Events A ${database}`] } }]);
    const doctor = await created("/api/doctors", { name: "Dr. Events", crm: `CRM-EV-${database}`, specialties: [{ hash: first, since: "2020-01-31" }, { hash: second }] });
    const made = await eventsOf(doctor);
    expect(made.map((event) => event.type)).toEqual(["doctor.created", "doctor.specialties.attached", "doctor.specialties.attached"]);
    expect(made[0]!.changes).toMatchObject({ name: [null, "Dr. Events"], crm: [null, `CRM-EV-${database}`] });
    expect(made.slice(1).map((event) => event.changes.specialties).sort()).toEqual([[null, first], [null, second]].sort());
    // A pivot's fields are in its link's events, as the link's routes output them.
    expect(made.slice(1).map((event) => event.changes["specialties.since"]).sort()).toEqual([[null, "2020-01-31"], [null, null]].sort());

    // A payload's link set: the link it drops and the one it adds, and the record's own update.
    expect((await asAdmin("PATCH", `/api/doctors/${doctor}`, { name: "Dr. Events II", specialties: [{ hash: second }, { hash: third }] })).status).toBe(200);
    expect((await eventsOf(doctor)).slice(3)).toEqual([
      { type: "doctor.updated", hash: doctor, actor: adminHash, changes: { name: ["Dr. Events", "Dr. Events II"] } },
      { type: "doctor.specialties.detached", hash: doctor, actor: adminHash, changes: { specialties: [first, null], "specialties.since": ["2020-01-31", null] } },
      { type: "doctor.specialties.attached", hash: doctor, actor: adminHash, changes: { specialties: [null, third], "specialties.since": [null, null] } },
    ]);
    // The link routes: linking again with a new pivot value is an event of that value alone;
    // unlinking what is not linked is a 404 and none.
    expect((await asAdmin("PUT", `/api/doctors/${doctor}/specialties/${first}`, {})).status).toBe(200);
    expect((await asAdmin("PUT", `/api/doctors/${doctor}/specialties/${first}`, { since: "2021-05-01" })).status).toBe(200);
    expect((await asAdmin("DELETE", `/api/doctors/${doctor}/specialties/${first}`)).status).toBe(200);
    expect((await asAdmin("DELETE", `/api/doctors/${doctor}/specialties/${first}`)).status).toBe(404);
    expect((await eventsOf(doctor)).slice(6).map((event) => [event.type, event.changes])).toEqual([
      ["doctor.specialties.attached", { specialties: [null, first], "specialties.since": [null, null] }],
      ["doctor.specialties.attached", { "specialties.since": [null, "2021-05-01"] }],
      ["doctor.specialties.detached", { specialties: [first, null], "specialties.since": ["2021-05-01", null] }],
    ]);

    // Delete and restore, and the history route over all of it.
    const patient = await created("/api/patients", { name: "Eve Events", cpf: database === "sqlite" ? "11144477735" : "22255588846" });
    expect((await asAdmin("PATCH", `/api/patients/${patient}`, { phone: "555-0101" })).status).toBe(200);
    expect((await asAdmin("DELETE", `/api/patients/${patient}`)).status).toBe(200);
    expect((await asAdmin("POST", `/api/patients/${patient}/restore`)).status).toBe(200);
    expect((await eventsOf(patient)).map((event) => [event.type, event.changes.phone ?? null])).toEqual([
      ["patient.created", null],
      ["patient.updated", [null, "555-0101"]],
      ["patient.deleted", null],
      ["patient.restored", null],
    ]);
    const history = await asAdmin("GET", `/api/patients/${patient}/history`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((entry: { event: string }) => entry.event)).toEqual(["patient.restored", "patient.deleted", "patient.updated", "patient.created"]);
    expect(history.body.data[0].actor).toEqual({ hash: adminHash, name: admin.name });
    expect(history.body.meta.total).toBe(4);
  });

  it("records a belongsTo changed as [the old hash, the new hash] and dates as they are output", async () => {
    const patient = await created("/api/patients", { name: "Bea Before", cpf: database === "sqlite" ? "77788899901" : "77788899912" });
    const [first, second] = [
      await created("/api/doctors", { name: "Dr. First", crm: `CRM-B1-${database}` }),
      await created("/api/doctors", { name: "Dr. Second", crm: `CRM-B2-${database}` }),
    ];
    const appointment = await created("/api/appointments", { patient, doctor: first, scheduled_at: "2031-02-03T10:00:00Z" });
    const moved = await asAdmin("PATCH", `/api/appointments/${appointment}`, { doctor: second, scheduled_at: "2031-02-04T11:30:00.000Z" });
    expect(moved.status).toBe(200);
    const [, updated] = await eventsOf(appointment);
    expect(updated).toEqual({
      type: "appointment.updated",
      hash: appointment,
      actor: adminHash,
      changes: { doctor: [first, second], scheduled_at: ["2031-02-03T10:00:00.000Z", "2031-02-04T11:30:00.000Z"] },
    });
  });

  it("leaves no event for a write refused inside its transaction", async () => {
    const patient = await created("/api/patients", { name: "Rita Refused", cpf: database === "sqlite" ? "33366699957" : "44477700068" });
    const doctor = await created("/api/doctors", { name: "Dr. Refused", crm: `CRM-RF-${database}` });
    await created("/api/appointments", { patient, doctor, scheduled_at: "2030-01-01T10:00:00Z" });
    // Appointments point at both (onDelete: restrict): each delete is a 409, decided in its transaction.
    expect((await asAdmin("DELETE", `/api/doctors/${doctor}`)).status).toBe(409);
    expect((await asAdmin("DELETE", `/api/patients/${patient}`)).status).toBe(409);
    expect((await eventsOf(doctor, patient)).map((event) => event.type)).toEqual(["patient.created", "doctor.created"]);
  });

  it(`keeps one event per committed write when ${rounds} creates race for one unique value`, async () => {
    const cpf = database === "sqlite" ? "55588811179" : "66699922280";
    const replies = await Promise.all(Array.from({ length: rounds }, (_, index) => asAdmin("POST", "/api/patients", { name: `Racer ${index}`, cpf })));
    const winners = replies.filter((reply) => reply.status === 201);
    expect(winners).toHaveLength(1);
    expect(replies.filter((reply) => reply.status !== 201).every((reply) => reply.status === 422)).toBe(true);
    const rows = await queryDatabase(project.databaseUrl, project.dir, `SELECT "record_hash" FROM "hashapi_events" WHERE "type" = 'patient.created' AND "changes" LIKE ${p(1)}`, [`%"cpf":[null,"${cpf}"]%`]);
    expect(rows.map((row) => row.record_hash)).toEqual([winners[0]!.body.data.hash]);
  });

  it(`never separates a write from its event while workers are killed mid-request: ${killRounds} rounds`, async () => {
    const made: string[] = [];
    for (let round = 0; round < killRounds; round += 1) {
      const burst = Array.from({ length: 20 }, (_, n) => {
        const index = round * 20 + n;
        const [method, path, body] =
          n % 2 === 0 || made.length === 0
            ? ["POST", "/api/patients", { name: `Killed ${index}`, cpf: String(70_000_000_000 + index) }]
            : ["PATCH", `/api/patients/${made[index % made.length]}`, { phone: `556-${index}` }];
        // A request on a worker that is killed gets no answer (a connection the cluster handed to
        // it as it died may even stay open: hence the timeout): what matters is what the database holds.
        return fetch(`${service.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(5_000) })
          .then(async (response) => ({ status: response.status, body: (await response.json()) as { data: { hash: string } } }))
          .catch(() => undefined);
      });
      await new Promise((done) => setTimeout(done, 5 + (round % 4) * 5));
      const workers = (await execa("pgrep", ["-P", String(service.process.pid)], { reject: false })).stdout.split("\n").filter(Boolean);
      if (workers.length > 0) process.kill(Number(workers[round % workers.length]), "SIGKILL");
      for (const reply of await Promise.all(burst)) if (reply?.status === 201) made.push(reply.body.data.hash as string);
      await waitFor200(`${service.baseUrl}/api/health`);
    }
    const query = (text: string) => queryDatabase(project.databaseUrl, project.dir, text);
    // Every record has its created event, and every created event its record.
    expect(await query(`SELECT "p"."hash" FROM "patients" AS "p" LEFT JOIN "hashapi_events" AS "e" ON "e"."record_hash" = "p"."hash" AND "e"."type" = 'patient.created' WHERE "e"."id" IS NULL`)).toEqual([]);
    expect(await query(`SELECT "e"."record_hash" FROM "hashapi_events" AS "e" LEFT JOIN "patients" AS "p" ON "p"."hash" = "e"."record_hash" WHERE "e"."type" = 'patient.created' AND "p"."id" IS NULL`)).toEqual([]);
    // A phone written is the after of the record's last update event.
    const phones = await query(`SELECT "hash", "phone" FROM "patients" WHERE "name" LIKE 'Killed %' AND "phone" IS NOT NULL`);
    for (const { hash, phone } of phones) {
      const [last] = (await eventsOf(String(hash))).filter((event) => event.type === "patient.updated").reverse();
      expect(last?.changes.phone?.[1], String(hash)).toBe(phone);
    }
  }, 240_000);

  it(`chains the changes of ${rounds} concurrent updates of one record: each before is the after of the one before`, async () => {
    const specialty = await created("/api/specialties", { name: `Chain 0 ${database}` });
    const replies = await Promise.all(Array.from({ length: rounds }, (_, index) => asAdmin("PATCH", `/api/specialties/${specialty}`, { name: `Chain ${index + 1} ${database}` })));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const updates = (await eventsOf(specialty)).filter((event) => event.type === "specialty.updated");
    expect(updates).toHaveLength(rounds);
    let before = `Chain 0 ${database}`;
    for (const update of updates) {
      expect(update.changes.name![0]).toBe(before);
      before = update.changes.name![1] as string;
    }
    expect((await asAdmin("GET", `/api/specialties/${specialty}`)).body.data.name).toBe(before);
  });
});
