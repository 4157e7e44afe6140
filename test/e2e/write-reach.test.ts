import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { openReader, type DatabaseReader } from "../support/databases.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, run, startService, type Project, type Reply, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 30, point 1: the caller's reach is decided where the write happens. An admin reassigns a
 * doctor's appointment, or moves the doctor's account to another user, at the same moment as the
 * doctor writes to or deletes that appointment; the doctor's write must either come first (and the
 * admin's answer shows it) or be the 404 of a missing record, never land afterwards nor answer with
 * the other doctor's record. Two workers on SQLite (one process per core, as in production) and
 * PostgreSQL. `HASHAPI_RACE_ROUNDS` sets the rounds per race (200 by default).
 */
const rounds = Number(process.env.HASHAPI_RACE_ROUNDS ?? 200);

describe.each(databaseTargets)("access decided at the write on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let api: Request;
  let reader: DatabaseReader;
  let adminToken: string;
  const doctors: { user: string; token: string; record: string }[] = [];
  let patient: string;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      // Commit timestamps tell which of two racing transactions committed first.
      postgres = await startPostgres(["-c track_commit_timestamp=on"]);
      await postgres.createDatabase("reach");
      databaseUrl = postgres.url("reach");
    }
    project = await prepareProject({ name: `e2e-reach-${database}`, database, databaseUrl });
    service = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2" } });
    api = client(service.baseUrl);
    reader = await openReader(project.databaseUrl, project.dir, { readonly: true });
    adminToken = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
    for (const index of [1, 2]) {
      const email = `doctor${index}@example.com`;
      const user = (await run("npm", ["run", "user:create", "--silent", "--", "--name", `Doctor ${index}`, "--email", email, "--password", "a long password", "--role", "doctor"], project.dir, project.env)).trim();
      const token = (await api("POST", "/api/auth/login", { body: { email, password: "a long password" } })).body.data.access_token;
      const record = (await asAdmin("POST", "/api/doctors", { name: `Dr. ${index}`, crm: `CRM-REACH-${index}`, user })).body.data.hash;
      doctors.push({ user, token, record });
    }
    patient = (await asAdmin("POST", "/api/patients", { name: "Race Patient", cpf: "52998224725" })).body.data.hash;
  }, 300_000);

  afterAll(async () => {
    await reader?.close();
    await service?.stop();
    await project?.cleanup();
    await postgres?.destroy();
  });

  const asAdmin = (method: string, path: string, body?: unknown) => api(method, path, { token: adminToken, body });
  const appointmentOf = async (doctor: string): Promise<string> => {
    const created = await asAdmin("POST", "/api/appointments", { patient, doctor, scheduled_at: "2026-12-01T10:00:00Z" });
    expect(created.status, created.text).toBe(201);
    return created.body.data.hash;
  };
  /** What a failed round looks like in the assertion message. */
  const described = (round: number, replies: Reply[]) => `round ${round}: ${replies.map((reply) => `${reply.request} -> ${reply.status} ${reply.text.slice(0, 200)}`).join(" | ")}`;

  it(`an appointment reassigned while its doctor updates it: ${rounds} rounds, no late write, no answer with the other's record`, async () => {
    const [own, other] = doctors;
    const outcomes = { first: 0, refused: 0 };
    for (let round = 0; round < rounds; round += 1) {
      const hash = await appointmentOf(own!.record);
      const secret = `FOR-D2-ONLY-${round}`;
      const [moved, written] = await Promise.all([
        asAdmin("PATCH", `/api/appointments/${hash}`, { doctor: other!.record, notes: secret }),
        api("PATCH", `/api/appointments/${hash}`, { token: own!.token, body: { status: "completed" } }),
      ]);
      const context = described(round, [moved, written]);
      expect(moved.status, context).toBe(200);
      expect([200, 404], context).toContain(written.status);
      if (written.status === 200) {
        // Written while still the doctor's: before the reassignment, which then saw it.
        expect(written.body.data.doctor.hash, context).toBe(own!.record);
        expect(written.text, context).not.toContain(secret);
        expect(moved.body.data.status, context).toBe("completed");
        outcomes.first += 1;
      } else outcomes.refused += 1;
    }
    // Both orders happen: the race is real, not serialized by the test.
    expect(outcomes.first + outcomes.refused).toBe(rounds);
  });

  it(`an appointment reassigned while its doctor deletes it: ${rounds} rounds, no late delete`, async () => {
    const [own, other] = doctors;
    for (let round = 0; round < rounds; round += 1) {
      const hash = await appointmentOf(own!.record);
      const [moved, deleted] = await Promise.all([
        asAdmin("PATCH", `/api/appointments/${hash}`, { doctor: other!.record }),
        api("DELETE", `/api/appointments/${hash}`, { token: own!.token }),
      ]);
      const context = described(round, [moved, deleted]);
      expect([200, 404], context).toContain(moved.status);
      expect([200, 404], context).toContain(deleted.status);
      // One of them came first: the delete (then the reassignment finds nothing) or the reassignment
      // (then the appointment is no longer the doctor's to delete).
      expect(moved.status === 200 && deleted.status === 200, context).toBe(false);
      const left = await reader.rows(`SELECT "doctor_id" FROM "appointments" WHERE "hash" = $1`, [hash]);
      expect(left.length, context).toBe(deleted.status === 200 ? 0 : 1);
    }
  });

  it(`a doctor's account moved to another user while the doctor writes: ${rounds} rounds, no write lands after the move`, async () => {
    const [own, other] = doctors;
    const hash = await appointmentOf(own!.record);
    const statuses = ["scheduled", "completed", "cancelled"];
    // SQLite runs one write transaction at a time: rows a trigger appends number them in commit order.
    if (database === "sqlite") {
      const db = new Database(join(project.dir, project.databaseUrl.slice("file:".length)));
      db.exec(`CREATE TABLE IF NOT EXISTS "race_log" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "what" TEXT NOT NULL);
        CREATE TRIGGER IF NOT EXISTS "race_write" AFTER UPDATE ON "appointments" BEGIN INSERT INTO "race_log" ("what") VALUES ('write'); END;
        CREATE TRIGGER IF NOT EXISTS "race_move" AFTER UPDATE OF "user_id" ON "doctors" BEGIN INSERT INTO "race_log" ("what") VALUES ('move'); END;`);
      db.close();
    }
    let late = 0;
    for (let round = 0; round < rounds; round += 1) {
      expect((await asAdmin("PATCH", `/api/doctors/${own!.record}`, { user: own!.user })).status).toBe(200);
      const [moved, written] = await Promise.all([
        asAdmin("PATCH", `/api/doctors/${own!.record}`, { user: other!.user }),
        api("PATCH", `/api/appointments/${hash}`, { token: own!.token, body: { status: statuses[round % 3] } }),
      ]);
      const context = described(round, [moved, written]);
      expect(moved.status, context).toBe(200);
      expect([200, 404], context).toContain(written.status);
      if (written.status !== 200) continue;
      // Which committed last: PostgreSQL's commit timestamps; SQLite's log of the last two writes.
      const [order] = await reader.rows(
        database === "postgresql"
          ? `SELECT pg_xact_commit_timestamp(a.xmin) > pg_xact_commit_timestamp(d.xmin) AS "late" FROM "appointments" a, "doctors" d WHERE a."hash" = $1 AND d."hash" = $2`
          : `SELECT "what" = 'write' AS "late" FROM "race_log" ORDER BY "seq" DESC LIMIT 1`,
        [hash, own!.record].slice(0, database === "postgresql" ? 2 : 0),
      );
      if (order!.late === true || order!.late === 1) late += 1;
    }
    expect(late, `${late} of ${rounds} writes landed after the account moved`).toBe(0);
  });

  it("refuses a write to a record that left the caller's reach while the write waited for its lock", async () => {
    const [own, other] = doctors;
    const hash = await appointmentOf(own!.record);
    // Whatever the reassignment's timing, the doctor never gets another doctor's appointment back.
    const [moved, written, deleted] = await Promise.all([
      asAdmin("PATCH", `/api/appointments/${hash}`, { doctor: other!.record, notes: "not yours" }),
      api("PATCH", `/api/appointments/${hash}`, { token: own!.token, body: { notes: "mine" } }),
      api("DELETE", `/api/appointments/${hash}`, { token: own!.token }),
    ]);
    const context = described(0, [moved, written, deleted]);
    for (const reply of [written, deleted]) expect([200, 404], context).toContain(reply.status);
    if (written.status === 200) expect(written.body.data.doctor.hash, context).toBe(own!.record);
    const missing = await api("PATCH", "/api/appointments/APT_AAAAAAAA", { token: own!.token, body: { notes: "x" } });
    const after = await api("PATCH", `/api/appointments/${hash}`, { token: own!.token, body: { notes: "x" } });
    expect(after.status).toBe(404);
    expect(after.body).toEqual(missing.body);
  });
});
