import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdTransaction, queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, run, startService, type Project, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 22, roles (docs/decisions.md "Roles"): the example clinic's admin / doctor / receptionist,
 * over real HTTP against the built service, on SQLite and PostgreSQL. auth.roles answers 403 before
 * anything is read, `?with=` obeys the related resource's roles, and the role is read on every
 * request: a demotion, a role since removed from the specs and a deleted user all count at once.
 */
describe.each(databaseTargets)("roles on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let api: Request;
  const tokens: Record<string, string> = {};
  const users: Record<string, string> = {};
  /** The doctor record of the doctor's account, and another doctor's (without an account). */
  let ownDoctor: string;
  let otherDoctor: string;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("roles");
      databaseUrl = postgres.url("roles");
    }
    project = await prepareProject({ name: `e2e-roles-${database}`, database, databaseUrl });
    service = await startService({ cwd: project.dir, env: project.env });
    api = client(service.baseUrl);
    for (const role of ["doctor", "receptionist"]) {
      const email = `${role}@example.com`;
      const created = await run("npm", ["run", "user:create", "--silent", "--", "--name", role, "--email", email, "--password", "a long password", ...(role === "doctor" ? ["--role", role] : [])], project.dir, project.env);
      users[role] = created.trim();
      tokens[role] = (await api("POST", "/api/auth/login", { body: { email, password: "a long password" } })).body.data.access_token;
    }
    tokens.admin = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
    ownDoctor = (await api("POST", "/api/doctors", { token: tokens.admin, body: { name: "Dr. Own", crm: "CRM-OWN-1", user: users.doctor } })).body.data.hash;
    otherDoctor = (await api("POST", "/api/doctors", { token: tokens.admin, body: { name: "Dr. Other", crm: "CRM-OTHER-1" } })).body.data.hash;
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await project?.cleanup();
    await postgres?.destroy();
  });

  const forbidden = { type: "error", status: 403, message: "This action is unauthorized." };
  const sql = (statement: string, values: unknown[] = []) => queryDatabase(project.databaseUrl, project.dir, database === "postgresql" ? statement : statement.replace(/\$\d+/g, "?"), values);

  it("gives each user a role (the default one without --role) and says it in /api/auth/me", async () => {
    for (const [role, token] of Object.entries(tokens)) expect((await api("GET", "/api/auth/me", { token })).body.role).toBe(role);
  });

  it("answers 403 to the roles an action is not for, before reading the record or the payload", async () => {
    const patient = (await api("POST", "/api/patients", { token: tokens.receptionist, body: { name: "Ana Lima", cpf: "52998224725" } })).body.data.hash as string;
    const record = await api("POST", "/api/medical-records", { token: tokens.doctor, body: { patient, doctor: ownDoctor, summary: "Checkup", recorded_on: "2026-11-20" } });
    expect(record.status).toBe(201);
    const id = record.body.data.public_id as string;
    // A receptionist never reads medical records: list, show (of one that exists and one that does not), create, change, delete.
    for (const [method, path, body] of [
      ["GET", "/api/medical-records", undefined],
      ["GET", `/api/medical-records/${id}`, undefined],
      ["GET", "/api/medical-records/MRE_AAAAAAAA", undefined],
      ["POST", "/api/medical-records", { nonsense: true }],
      ["PATCH", `/api/medical-records/${id}`, { summary: "changed" }],
      ["DELETE", `/api/medical-records/${id}`, undefined],
    ] as const) {
      const reply = await api(method, path, { token: tokens.receptionist, body });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body).toEqual(forbidden);
    }
    // Nor by trying to delete the patient: medical records would refuse it (409), telling the
    // receptionist they exist; so the delete is the admins' only, refused before anything is read.
    const bare = (await api("POST", "/api/patients", { token: tokens.receptionist, body: { name: "No Records", cpf: "22233344405" } })).body.data.hash as string;
    for (const target of [patient, bare]) {
      const refused = await api("DELETE", `/api/patients/${target}`, { token: tokens.receptionist });
      expect(refused.status, target).toBe(403);
      expect(refused.body).toEqual(forbidden);
    }
    // Nor through a patient: ?with= obeys the related resource's show roles.
    expect((await api("GET", `/api/patients/${patient}?with=medical_records`, { token: tokens.receptionist })).status).toBe(403);
    expect((await api("GET", `/api/patients/${patient}?with=medical_records`, { token: tokens.doctor })).status).toBe(200);
    // A doctor may not delete (admin only); an admin may.
    expect((await api("DELETE", `/api/medical-records/${id}`, { token: tokens.doctor })).status).toBe(403);
    expect((await api("GET", `/api/medical-records/${id}`, { token: tokens.doctor })).body.data.summary).toBe("Checkup");
    expect((await api("DELETE", `/api/medical-records/${id}`, { token: tokens.admin })).status).toBe(200);
    // Doctors are the admins' to manage, and everyone's to read.
    expect((await api("POST", "/api/doctors", { token: tokens.doctor, body: { name: "Dr. X", crm: "CRM-1" } })).status).toBe(403);
    expect((await api("GET", "/api/doctors", { token: tokens.receptionist })).status).toBe(200);
  });

  it("reads the role on every request: a demotion, a role removed from the specs and a deleted user count at once", async () => {
    const list = () => api("GET", "/api/medical-records", { token: tokens.doctor });
    expect((await list()).status).toBe(200);
    await sql(`UPDATE "users" SET "role" = 'receptionist' WHERE "hash" = $1`, [users.doctor]);
    expect((await list()).status).toBe(403);
    await sql(`UPDATE "users" SET "role" = 'surgeon' WHERE "hash" = $1`, [users.doctor]);
    expect((await list()).status).toBe(403);
    // No role limits the list of patients: any signed-in user, whatever their role, may.
    expect((await api("GET", "/api/patients", { token: tokens.doctor })).status).toBe(200);
    await sql(`UPDATE "users" SET "role" = 'doctor' WHERE "hash" = $1`, [users.doctor]);
    expect((await list()).status).toBe(200);
    // A deleted user's token: 401 on the next request.
    const leaving = (await run("npm", ["run", "user:create", "--silent", "--", "--name", "Leaving", "--email", "leaving@example.com", "--password", "a long password", "--role", "doctor"], project.dir, project.env)).trim();
    const token = (await api("POST", "/api/auth/login", { body: { email: "leaving@example.com", password: "a long password" } })).body.data.access_token;
    expect((await api("GET", "/api/medical-records", { token })).status).toBe(200);
    await sql(`DELETE FROM "users" WHERE "hash" = $1`, [leaving]);
    expect((await api("GET", "/api/medical-records", { token })).status).toBe(401);
  });

  it("leaves out the fields a role does not see, everywhere, and refuses those it may not write", async () => {
    const patient = (await api("POST", "/api/patients", { token: tokens.admin, body: { name: "Bo Reis", cpf: "11144477735" } })).body.data.hash as string;
    const doctor = (await api("GET", "/api/doctors?per_page=1", { token: tokens.admin })).body.data[0]?.hash ?? (await api("POST", "/api/doctors", { token: tokens.admin, body: { name: "Dr. Y", crm: "CRM-2" } })).body.data.hash;
    const booking = { patient, doctor, scheduled_at: "2026-12-01T10:00:00.000Z" };
    const refused = await api("POST", "/api/appointments", { token: tokens.receptionist, body: { ...booking, notes: "fasting" } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ notes: ["The notes field is prohibited."] });
    const booked = await api("POST", "/api/appointments", { token: tokens.admin, body: { ...booking, notes: "fasting" } });
    expect(booked.status).toBe(201);
    const id = booked.body.data.hash as string;
    const asReceptionist = await api("GET", `/api/appointments/${id}`, { token: tokens.receptionist });
    expect(asReceptionist.status).toBe(200);
    expect("notes" in asReceptionist.body.data).toBe(false);
    expect((await api("GET", `/api/appointments/${id}`, { token: tokens.admin })).body.data.notes).toBe("fasting");
    // Nested through a patient, and in lists: still absent.
    const nested = await api("GET", `/api/patients/${patient}?with=appointments`, { token: tokens.receptionist });
    expect(nested.body.data.appointments.map((item: Record<string, unknown>) => "notes" in item)).toEqual([false]);
    const listed = await api("GET", `/api/appointments?patient=${patient}`, { token: tokens.receptionist });
    expect(listed.body.data.every((item: Record<string, unknown>) => !("notes" in item))).toBe(true);
    expect((await api("GET", "/api/appointments?sort=notes", { token: tokens.receptionist })).status).toBe(422);
  });

  it("gives a doctor only the records and appointments owned through their own doctor record", async () => {
    const patient = (await api("POST", "/api/patients", { token: tokens.admin, body: { name: "Owner Case", cpf: "39053344705" } })).body.data.hash as string;
    const record = (doctor: string, token = tokens.admin) => api("POST", "/api/medical-records", { token, body: { patient, doctor, summary: "Visit", recorded_on: "2026-11-21" } });
    // A doctor cannot write for another doctor, nor for none: the same 422 as an unknown doctor, and "required".
    const foreign = await record(otherDoctor, tokens.doctor);
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ doctor: ["The selected doctor is invalid."] });
    const orphan = await api("POST", "/api/medical-records", { token: tokens.doctor, body: { patient, summary: "x", recorded_on: "2026-11-21" } });
    expect(orphan.body.errors).toEqual({ doctor: ["The doctor field is required."] });
    const mine = (await record(ownDoctor, tokens.doctor)).body.data.public_id as string;
    const theirs = (await record(otherDoctor)).body.data.public_id as string;
    // Theirs is exactly a record that does not exist: status, body; in lists and totals it is not there.
    const asDoctor = (method: string, path: string, body?: unknown) => api(method, path, { token: tokens.doctor, body });
    const missing = await asDoctor("GET", "/api/medical-records/MRE_AAAAAAAA");
    // (Deleting is the admins' only: auth.roles answers a doctor's DELETE with 403 before any read.)
    for (const [method, body] of [["GET", undefined], ["PATCH", { summary: "mine now" }]] as const) {
      const reply = await asDoctor(method, `/api/medical-records/${theirs}`, body);
      expect(reply.status, method).toBe(404);
      expect(reply.body).toEqual(missing.body);
    }
    expect((await asDoctor("GET", `/api/medical-records/${mine}`)).status).toBe(200);
    const listed = await asDoctor("GET", "/api/medical-records?per_page=100");
    const ids = listed.body.data.map((row: { public_id: string }) => row.public_id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect((await asDoctor("GET", `/api/medical-records?doctor=${otherDoctor}`)).body.meta.total).toBe(0);
    // Nested through the patient: the doctor sees only their own records; the admin sees both.
    const nested = await asDoctor("GET", `/api/patients/${patient}?with=medical_records`);
    expect(nested.body.data.medical_records.map((row: { public_id: string }) => row.public_id)).toEqual([mine]);
    const all = await api("GET", `/api/patients/${patient}?with=medical_records`, { token: tokens.admin });
    expect(all.body.data.medical_records).toHaveLength(2);
    // Moving one's record to another doctor is refused like creating it.
    expect((await asDoctor("PATCH", `/api/medical-records/${mine}`, { doctor: otherDoctor })).status).toBe(422);
    // The admin bypasses ownership.
    expect((await api("GET", `/api/medical-records/${theirs}`, { token: tokens.admin })).status).toBe(200);
    // Doctors do not show their accounts, even to admins.
    expect((await api("GET", `/api/doctors/${ownDoctor}`, { token: tokens.admin })).body.data.user).toBeUndefined();
  });

  it("checks a parent's owner under the write's own lock: a doctor reassigned meanwhile is not the caller's", async () => {
    const patient = (await api("POST", "/api/patients", { token: tokens.admin, body: { name: "Race Case", cpf: "86288366757" } })).body.data.hash as string;
    const reassign = `UPDATE "doctors" SET "user_id" = (SELECT "id" FROM "users" WHERE "hash" = $1) WHERE "hash" = $2`;
    // The doctor record goes to the receptionist in a transaction still open when the doctor's
    // write arrives: the write must wait for it and then see that the doctor is no longer theirs.
    const held = await holdTransaction(project.databaseUrl, project.dir, [{ text: reassign, values: [users.receptionist, ownDoctor] }]);
    const pending = api("POST", "/api/medical-records", { token: tokens.doctor, body: { patient, doctor: ownDoctor, summary: "Raced", recorded_on: "2026-11-22" } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await held.commit();
    const reply = await pending;
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ doctor: ["The selected doctor is invalid."] });
    await sql(reassign, [users.doctor, ownDoctor]);
    expect((await api("POST", "/api/medical-records", { token: tokens.doctor, body: { patient, doctor: ownDoctor, summary: "Calm", recorded_on: "2026-11-22" } })).status).toBe(201);
  });

  it("manages users at /api/users and keeps one admin however many requests race (auth.users.manage)", async () => {
    const admins = async () => Number((await sql(`SELECT COUNT(*) AS "n" FROM "users" WHERE "role" = 'admin'`))[0]!.n);
    const manage = (token: string, method: string, path = "", body?: unknown) => api(method, `/api/users${path}`, { token, body });
    expect((await manage(tokens.receptionist!, "GET")).status).toBe(403);
    const listed = await manage(tokens.admin!, "GET", "?role=admin");
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toMatch(/password|scrypt/i);
    // A name trimmed to nothing is refused on update as on create (issue 31), and nothing is stored.
    const blank = await manage(tokens.admin!, "PATCH", `/${users.doctor}`, { name: "   " });
    expect(blank.status, blank.text).toBe(422);
    expect(blank.body.errors).toEqual({ name: ["The name field is required."] });
    expect((await manage(tokens.admin!, "GET", `/${users.doctor}`)).body.data.name).not.toBe("");
    // A user a doctor record points at cannot go (409), as any referenced record.
    expect((await manage(tokens.admin!, "DELETE", `/${users.doctor}`)).status).toBe(409);
    let base = tokens.admin!;
    let baseHash = listed.body.data[0].hash as string;
    expect(await admins()).toBe(1);
    for (let round = 0; round < 6; round += 1) {
      const email = `admin-${round}@example.com`;
      const second = await manage(base, "POST", "", { name: `Admin ${round}`, email, password: "a long password", role: "admin" });
      expect(second.status).toBe(201);
      const token = (await api("POST", "/api/auth/login", { body: { email, password: "a long password" } })).body.data.access_token as string;
      // Each admin removes the other at the same moment (deleting, or demoting on odd rounds): one may win, never both.
      const change = (caller: string, target: string) => (round % 2 === 0 ? manage(caller, "DELETE", `/${target}`) : manage(caller, "PATCH", `/${target}`, { role: "receptionist" }));
      const [first, other] = await Promise.all([change(base, second.body.data.hash), change(token, baseHash)]);
      expect([first.status, other.status].filter((status) => status === 200), `${first.status} ${other.status}`).toHaveLength(1);
      expect(await admins()).toBe(1);
      if (other.status === 200) [base, baseHash] = [token, second.body.data.hash];
    }
    tokens.admin = base;
  });

  it("describes the roles in openapi.json", async () => {
    const document = (await api("GET", "/api/openapi.json")).body;
    expect(document.paths["/api/medical-records"].get["x-roles"]).toEqual(["admin", "doctor"]);
    expect(document.paths["/api/medical-records/{hash}"].delete["x-roles"]).toEqual(["admin"]);
    expect(document.paths["/api/patients"].get["x-roles"]).toBeUndefined();
    expect(document.components.schemas.User.required).toContain("role");
  });
});
