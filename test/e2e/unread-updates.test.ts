import pg from "pg";
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, run, startService, type Project, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 47, item 7: an update that nothing decides on before its write (the project's policy and
 * beforeUpdate leave the record alone, no scope, no lock rule) reads nothing first; one statement
 * locks, reads and writes the record with its event (runtime resource/controller.ts
 * updatedUnread). It must answer exactly as the update that reads first: a missing, trashed or
 * foreign record's 404 before a payload's 422, a taken value's 422, the record's own value kept;
 * a policy that looks at the record still gets it; and an update racing a delete either lands
 * before it or is the 404 of a missing record, never after it. On SQLite and PostgreSQL.
 */
const lockedName = "Locked Specialty";
const policy = `import type { CurrentUser } from "../../auth/auth.service.js";
import { ResourcePolicy } from "../../resource/policy.js";
import type { SpecialtyRow } from "../../resources/specialty/specialty.repository.js";

/** Refuses updates of one record: a policy that decides on the record it is given. */
export class SpecialtyPolicy extends ResourcePolicy<SpecialtyRow> {
  override update(_user: CurrentUser | undefined, record: SpecialtyRow): boolean {
    return record.name !== ${JSON.stringify(lockedName)};
  }
}
`;

/** Receptionists reach only patients without a phone: a scope the write decides under its lock. */
const patientPolicy = `import type { CurrentUser } from "../../auth/auth.service.js";
import type { RowScope } from "../../lib/table.js";
import { ResourcePolicy } from "../../resource/policy.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

export class PatientPolicy extends ResourcePolicy<PatientRow> {
  override scope(user: CurrentUser | undefined): RowScope | undefined {
    return user?.role === "receptionist" ? { where: { phone: null } } : undefined;
  }
}
`;

const rounds = Number(process.env.HASHAPI_RACE_ROUNDS ?? 200);
/** Pairs raced at once. */
const batch = 10;

describe.each(databaseTargets)("updates that read nothing first, on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let api: Request;
  let token: string;
  /** A record's events, oldest first, as `<type> <actor name>`. */
  let eventLog: (hash: string) => Promise<string[]>;
  const events = async (hash: string) => (await eventLog(hash)).map((line) => line.split(" ")[0]!);
  let closeReader: () => Promise<void> = async () => {};
  let pgReader: pg.Client | undefined;
  let n = 0;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      // pg_stat_statements counts what each update ran (the last test).
      postgres = await startPostgres(["-c shared_preload_libraries=pg_stat_statements"]);
      await postgres.createDatabase("unread");
      databaseUrl = postgres.url("unread");
    }
    project = await prepareProject({ name: `e2e-unread-${database}`, database, databaseUrl, customFiles: { "src/custom/specialty/specialty.policy.ts": policy, "src/custom/patient/patient.policy.ts": patientPolicy } });
    service = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2" } });
    api = client(service.baseUrl);
    token = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
    for (const role of ["doctor", "receptionist"]) {
      const email = `${role}@example.com`;
      await run("npm", ["run", "user:create", "--silent", "--", "--name", role, "--email", email, "--password", "a long password", "--role", role], project.dir, project.env);
      tokens[role] = (await api("POST", "/api/auth/login", { body: { email, password: "a long password" } })).body.data.access_token;
    }
    const byRecord = `SELECT "type", "actor_name" FROM "hashapi_events" WHERE "record_hash" = $1 ORDER BY "id"`;
    if (database === "postgresql") {
      const reader = (pgReader = new pg.Client({ connectionString: project.databaseUrl }));
      await reader.connect();
      await reader.query("CREATE EXTENSION pg_stat_statements");
      eventLog = async (hash) => (await reader.query(byRecord, [hash])).rows.map((row) => `${row.type} ${row.actor_name}`);
      closeReader = () => reader.end();
    } else {
      const reader = new Database(join(project.dir, project.databaseUrl.slice("file:".length)), { readonly: true });
      eventLog = async (hash) => (reader.prepare(byRecord.replace("$1", "?")).all(hash) as { type: string; actor_name: string }[]).map((row) => `${row.type} ${row.actor_name}`);
      closeReader = async () => void reader.close();
    }
  }, 300_000);

  afterAll(async () => {
    await closeReader();
    await service?.stop();
    await project?.cleanup();
    await postgres?.destroy();
  });

  const call = (method: string, path: string, body?: unknown) => api(method, path, { token, body });
  const cpf = () => `${String(90_000_000_000 + (n += 1) * 7919 + (database === "sqlite" ? 0 : 1)).slice(0, 11)}`;
  const newPatient = async () => (await call("POST", "/api/patients", { cpf: cpf(), name: `Unread ${n}` })).body.data as { hash: string; cpf: string; name: string };

  it("writes what was sent, and records its event", async () => {
    const patient = await newPatient();
    const updated = await call("PUT", `/api/patients/${patient.hash}`, { name: "Renamed", phone: "+55 21 5555-0000" });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ hash: patient.hash, name: "Renamed", phone: "+55 21 5555-0000", cpf: patient.cpf });
    const history = await call("GET", `/api/patients/${patient.hash}/history`);
    expect(history.body.data[0]).toMatchObject({ event: "patient.updated", changes: { name: [patient.name, "Renamed"], phone: [null, "+55 21 5555-0000"] } });
  });

  it("answers a missing, trashed or foreign record's 404 before its payload's 422", async () => {
    const trashed = await newPatient();
    expect((await call("DELETE", `/api/patients/${trashed.hash}`)).status).toBe(200);
    for (const hash of ["PAT_23456789", trashed.hash, "SPC_23456789", "not-a-hash"]) {
      expect((await call("PUT", `/api/patients/${hash}`, { name: "Valid" })).status, hash).toBe(404);
      expect((await call("PATCH", `/api/patients/${hash}`, { name: 7, cpf: "short" })).status, hash).toBe(404);
    }
    expect(await events(trashed.hash)).toEqual(["patient.created", "patient.deleted"]);
  });

  it("answers a taken value's 422 with every problem, and keeps the record's own value", async () => {
    const [first, second] = [await newPatient(), await newPatient()];
    const taken = await call("PUT", `/api/patients/${second.hash}`, { cpf: first.cpf });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ cpf: ["The cpf has already been taken."] });
    const both = await call("PUT", `/api/patients/${second.hash}`, { cpf: first.cpf, name: 12 });
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.errors).sort()).toEqual(["cpf", "name"]);
    const own = await call("PUT", `/api/patients/${second.hash}`, { cpf: second.cpf, name: "Same cpf" });
    expect(own.status).toBe(200);
    expect(await events(second.hash)).toEqual(["patient.created", "patient.updated"]);
  });

  it("decides a scope under the write's lock: out of reach is the 404 of a missing record", async () => {
    const asReceptionist = (path: string, body: unknown) => api("PUT", path, { token: tokens.receptionist, body });
    const reached = await newPatient();
    const phoned = await newPatient();
    expect((await call("PUT", `/api/patients/${phoned.hash}`, { phone: "+55 21 1111-1111" })).status).toBe(200);
    expect((await asReceptionist(`/api/patients/${phoned.hash}`, { name: "Out of reach" })).status).toBe(404);
    expect((await asReceptionist(`/api/patients/${phoned.hash}`, { name: 5 })).status).toBe(404);
    const written = await asReceptionist(`/api/patients/${reached.hash}`, { name: "Within reach" });
    expect(written.status).toBe(200);
    expect(written.body.data.name).toBe("Within reach");
    expect(await events(phoned.hash)).toEqual(["patient.created", "patient.updated"]);
  });

  it("answers a missing record's 404 before what its owner rule or the payload's plan refuses", async () => {
    // A doctor's appointments are theirs (owner through doctor.user): a payload leaving the doctor out is refused, after the 404.
    const missing = await api("PUT", "/api/appointments/APT_23456789", { token: tokens.doctor, body: { doctor: null } });
    expect(missing.status).toBe(404);
  });

  it("still gives a project's policy the record it decides on", async () => {
    const locked = (await call("POST", "/api/specialties", { name: lockedName })).body.data.hash as string;
    const open = (await call("POST", "/api/specialties", { name: `Open ${database}` })).body.data.hash as string;
    expect((await call("PUT", `/api/specialties/${locked}`, { name: "Unlocked" })).status).toBe(403);
    expect((await call("PUT", `/api/specialties/${open}`, { name: `Opened ${database}` })).status).toBe(200);
    expect((await call("GET", `/api/specialties/${locked}`)).body.data.name).toBe(lockedName);
  });

  /** `rounds` races, `batch` at a time: each prepared by `setup`, then its two requests at once. */
  async function race<T>(setup: () => Promise<T>, pair: (record: T, round: number) => Promise<void>): Promise<void> {
    for (let start = 0; start < rounds; start += batch) {
      const records = await Promise.all(Array.from({ length: Math.min(batch, rounds - start) }, setup));
      await Promise.all(records.map((record, k) => pair(record, start + k)));
    }
  }

  it(`lands an update racing a delete before it, or answers 404: ${rounds} pairs`, async () => {
    await race(newPatient, async (patient, round) => {
      const [updated, deleted] = await Promise.all([
        call("PUT", `/api/patients/${patient.hash}`, { name: `Raced ${round}` }),
        call("DELETE", `/api/patients/${patient.hash}`),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(updated.status);
      const expected = updated.status === 200 ? ["patient.created", "patient.updated", "patient.deleted"] : ["patient.created", "patient.deleted"];
      expect(await events(patient.hash), `round ${round}`).toEqual(expected);
    });
  }, 180_000);

  it(`decides a scope at the write while the record leaves it: ${rounds} pairs`, async () => {
    // The receptionist reaches patients without a phone; the admin gives one at the same moment.
    // Her update lands before the admin's (and is then in the log first) or is a 404, never after.
    await race(newPatient, async (patient, round) => {
      const [hers, moved] = await Promise.all([
        api("PUT", `/api/patients/${patient.hash}`, { token: tokens.receptionist, body: { name: `Reached ${round}` } }),
        call("PUT", `/api/patients/${patient.hash}`, { phone: `+55 21 ${String(round).padStart(4, "0")}-0000` }),
      ]);
      expect(moved.status).toBe(200);
      expect([200, 404]).toContain(hers.status);
      const log = await eventLog(patient.hash);
      const expected = hers.status === 200 ? ["patient.updated receptionist", `patient.updated ${admin.name}`] : [`patient.updated ${admin.name}`];
      expect(log.slice(1), `round ${round}`).toEqual(expected);
    });
  }, 180_000);

  it.runIf(database === "postgresql")("runs one statement an update of a default policy, and a read first where the policy decides", async () => {
    const patients = [await newPatient(), await newPatient()];
    const specialty = (await call("POST", "/api/specialties", { name: `Counted ${database}` })).body.data.hash as string;
    const calls = async (pattern: string) =>
      Number((await pgReader!.query(`SELECT COALESCE(SUM("calls"), 0) AS "calls" FROM pg_stat_statements WHERE "query" LIKE $1`, [pattern])).rows[0].calls);
    await pgReader!.query("SELECT pg_stat_statements_reset()");
    for (const [k, patient] of patients.entries()) expect((await call("PATCH", `/api/patients/${patient.hash}`, { phone: `+55 11 0000-000${k}` })).status).toBe(200);
    for (const k of [1, 2]) expect((await call("PATCH", `/api/specialties/${specialty}`, { name: `Counted ${database} ${k}` })).status).toBe(200);
    // Patients: the write alone, which finds the record by its hash. Specialties: the read, then the write.
    expect(await calls(`%FROM "patients" WHERE "patients"."hash"%`)).toBe(0);
    expect(await calls(`WITH "before" AS (SELECT % FROM "patients" WHERE "hash" = %`)).toBe(2);
    expect(await calls(`%FROM "specialties" WHERE "specialties"."hash"%`)).toBe(2);
  });
});
