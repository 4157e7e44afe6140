import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  client,
  craftToken,
  decodeClaims,
  externalProject,
  jwtSecret,
  migrate,
  prepareProject,
  rawHttp,
  scanReply,
  startContractProxy,
  startService,
  type Project,
  type Proxy,
  type Reply,
  type RequestOptions,
  type RunningService,
} from "../support/service.js";
import { dropTables } from "../support/databases.js";
import { hasPgBouncer, startPgBouncer, type PgBouncer } from "../support/pgbouncer.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * The API contract (docs/api-contract.md), point by point, over real HTTP against the
 * service that `hashapi generate specs/` emits, running as a real process. HASHAPI_E2E_PROJECT=<dir>
 * tests an existing project instead (built and migrated on a fresh database, never generated).
 * HASHAPI_E2E_TARGETS=sqlite,postgresql,prism picks targets (default: every one available).
 */

const hash = (prefix: string) => new RegExp(`^${prefix}_[A-HJ-NP-Z2-9]{8}$`);
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const TTL = 3600; // specs/hashapi.yaml auth.ttl
const REFRESH_TTL = 1209600; // specs/hashapi.yaml auth.refreshTtl
const wanted = process.env.HASHAPI_E2E_TARGETS?.split(",").map((name) => name.trim());
const targets = [
  { label: "SQLite", id: "sqlite", database: "sqlite", proxied: false },
  // PostgreSQL needs a project generated for it: not with HASHAPI_E2E_PROJECT.
  ...(!externalProject && (postgresBinDir() || process.env.CI) ? [{ label: "PostgreSQL", id: "postgresql", database: "postgresql", proxied: false }] : []),
  // Once more through PgBouncer in transaction mode (issue 36): DATABASE_URL the pooler, DIRECT_DATABASE_URL the server.
  ...(!externalProject && ((postgresBinDir() && hasPgBouncer()) || process.env.CI) ? [{ label: "PostgreSQL through PgBouncer (transaction mode)", id: "pgbouncer", database: "postgresql", proxied: false }] : []),
  // Once more through Stoplight Prism: every real response is checked against the project's openapi.json.
  ...(!externalProject || existsSync(join(externalProject, "openapi.json"))
    ? [{ label: "SQLite through the Prism contract proxy", id: "prism", database: "sqlite", proxied: true }]
    : []),
].filter((target) => !wanted || wanted.includes(target.id)) as { label: string; id: string; database: "sqlite" | "postgresql"; proxied: boolean }[];
const pooledTarget = "pgbouncer";

/** Output keys per resource: the spec's fields and relations, the identifier, timestamps; nothing else. */
const OUTPUT = {
  patient: { required: ["hash", "name", "cpf", "phone", "deleted_at"], allowed: ["created_at", "updated_at", "appointments", "medical_records"] },
  doctor: { required: ["hash", "name", "crm", "specialty"], allowed: ["created_at", "updated_at", "appointments"] },
  appointment: { required: ["hash", "scheduled_at", "status", "notes", "patient", "doctor"], allowed: ["created_at", "updated_at"] },
  medicalRecord: { required: ["public_id", "summary", "recorded_on", "weight_kg", "diagnosis", "patient", "doctor"], allowed: ["created_at", "updated_at"] },
};
function expectOutputKeys(record: Record<string, unknown>, shape: { required: string[]; allowed: string[] }): void {
  const keys = Object.keys(record);
  expect(keys.filter((key) => !shape.required.includes(key) && !shape.allowed.includes(key)), "keys the serializer does not name").toEqual([]);
  expect(shape.required.filter((key) => !keys.includes(key)), "missing keys").toEqual([]);
}
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("the harness's own checks", () => {
  const reply = (body: unknown, status = 200, request = "GET /x", sent?: string): Reply => ({ status, headers: new Headers(), body, text: JSON.stringify(body), request, sent });
  it("the deep scan finds ids, foreign keys and column names, and lets public_id and echoed names pass", () => {
    expect(scanReply(reply({ type: "success", status: 200, data: [{ hash: "PAT_AAAAAAAA", doctor: { id: 3 } }] }))).toHaveLength(1);
    expect(scanReply(reply({ data: { patient_id: 1, public_id: "MRE_AAAAAAAA" } }))).toHaveLength(1);
    expect(scanReply(reply({ type: "error", status: 500, message: "Foreign key constraint failed on the field: `patientId`" }, 500))).toHaveLength(1);
    expect(scanReply(reply({ type: "error", status: 404, message: "No Patient found with id 12" }, 404))).toHaveLength(1);
    expect(scanReply(reply({ type: "error", status: 422, message: "x", errors: { doctor: ["Doctor 12 is invalid."] } }, 422))).toHaveLength(1);
    expect(scanReply(reply({ type: "error", status: 422, message: "x", errors: { id: ["The id field is prohibited."] } }, 422))).toEqual([]);
    expect(scanReply(reply({ type: "error", status: 422, message: "x", errors: { patient_id: ["The patient_id field is prohibited."] } }, 422, "POST /x", '{"patient_id":1}'))).toEqual([]);
    expect(scanReply(reply({ type: "success", status: 200, data: { public_id: "MRE_AAAAAAAA", name: "Patient 12" } }))).toEqual([]);
  });
  it("crafted tokens verify like real ones", () => {
    const token = craftToken({ alg: "HS256", typ: "JWT" }, { sub: "USR_AAAAAAAA" });
    const [head, body, signature] = token.split(".");
    expect(decodeClaims(token)).toEqual({ sub: "USR_AAAAAAAA" });
    expect(signature).toBe(createHmac("sha256", jwtSecret).update(`${head}.${body}`).digest("base64url"));
  });
});

describe.each(targets)("api-contract.md on $label", ({ id, database, proxied }) => {
  let proxy: Proxy | undefined;
  let postgres: PostgresServer | undefined;
  let bouncer: PgBouncer | undefined;
  let project: Project;
  let serviceEnv: Record<string, string> = {};
  let unmigratedUrl = `file:./data/not-migrated-${process.pid}.db`;
  let service: RunningService | undefined;
  let request: ReturnType<typeof client>;
  let token: string;
  let counter = 0;
  const replies: Reply[] = [];

  /** Every request of the suite goes through here, so that the last tests can scan every reply. */
  async function call(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const reply = await request(method, path, options);
    replies.push(reply);
    return reply;
  }
  /** Straight to the service, past the proxy (a proxy cannot forward what it cannot parse). */
  async function direct(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const reply = await client(service!.baseUrl)(method, path, options);
    replies.push(reply);
    return reply;
  }
  async function raw(head: string, body = ""): Promise<Reply> {
    const reply = await rawHttp(service!.baseUrl, head, body);
    replies.push(reply);
    return reply;
  }

  async function login(email = admin.email, password = admin.password): Promise<Reply> {
    return call("POST", "/api/auth/login", { body: { email, password } });
  }

  // Unique 11-digit CPFs for this run (the prefix keeps targets and runs apart in a shared database).
  const base = 10_000_000_000 + (Date.now() % 1_000_000) * 10_000;
  const cpf = () => String(base + (counter += 1));
  const tag = Date.now().toString(36); // 8 characters: a crm is at most 20
  async function createPatient(extra: object = {}): Promise<string> {
    const reply = await call("POST", "/api/patients", { token, body: { name: `Patient ${counter}`, cpf: cpf(), ...extra } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.hash;
  }
  async function createDoctor(extra: object = {}): Promise<string> {
    const reply = await call("POST", "/api/doctors", { token, body: { name: "Dr. House", crm: `C${tag}-${(counter += 1)}`, ...extra } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.hash;
  }
  async function createAppointment(patient: string, doctor: string): Promise<Reply> {
    return call("POST", "/api/appointments", { token, body: { patient, doctor, scheduled_at: "2026-12-01T10:00:00.000Z" } });
  }
  async function total(path = "/api/patients"): Promise<number> {
    const reply = await call("GET", `${path}?per_page=1`, { token });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.meta.total;
  }

  beforeAll(async () => {
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("clinic");
      await postgres.createDatabase("unmigrated");
      unmigratedUrl = postgres.url("unmigrated");
      project = await prepareProject({ name: `e2e-${id}`, database: "postgresql", databaseUrl: postgres.url("clinic") });
    } else {
      project = await prepareProject({ name: proxied ? "e2e-prism" : "e2e-sqlite" });
    }
    serviceEnv = project.env;
    if (id === pooledTarget) {
      bouncer = await startPgBouncer(postgres!);
      serviceEnv = { ...project.env, DATABASE_URL: bouncer.url("clinic"), DIRECT_DATABASE_URL: postgres!.url("clinic") };
    }
    await connect();
    const reply = await login();
    expect(reply.status, reply.text).toBe(200);
    token = reply.body.data.access_token;
  }, 300_000);

  /** Points the test client at the service, or at a Prism proxy in front of it. */
  async function connect(): Promise<void> {
    service ??= await startService({ cwd: project.dir, env: serviceEnv });
    await proxy?.stop();
    proxy = proxied ? await startContractProxy(project.dir, service.baseUrl) : undefined;
    request = client(proxy?.baseUrl ?? service.baseUrl);
  }

  afterAll(async () => {
    await proxy?.stop();
    await service?.stop();
    await bouncer?.stop();
    await postgres?.destroy();
    if (project) {
      if (database === "sqlite") await rm(join(project.dir, unmigratedUrl.replace(/^file:/, "")), { force: true });
      await project.cleanup();
    }
  });

  describe("§1 Envelopes", () => {
    it("wraps a record (201 on create), a message, a list and an error; status equals the HTTP status", async () => {
      const created = await call("POST", "/api/patients", { token, body: { name: "Envelope", cpf: cpf() } });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body)).toEqual(["type", "status", "data"]);
      expect(created.body).toMatchObject({ type: "success", status: 201, data: { name: "Envelope" } });
      expect(created.headers.get("content-type")).toBe("application/json; charset=utf-8");

      const shown = await call("GET", `/api/patients/${created.body.data.hash}`, { token });
      expect(Object.keys(shown.body)).toEqual(["type", "status", "data"]);
      expect(shown.body).toMatchObject({ type: "success", status: 200, data: { hash: created.body.data.hash } });

      const list = await call("GET", "/api/patients", { token });
      expect(Object.keys(list.body)).toEqual(["type", "status", "data", "links", "meta"]);
      expect(list.body).toMatchObject({ type: "success", status: 200 });
      expect(Array.isArray(list.body.data)).toBe(true);

      const deleted = await call("DELETE", `/api/patients/${created.body.data.hash}`, { token });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ type: "success", status: 200, message: "Resource deleted." });

      const error = await call("GET", "/api/patients/PAT_AAAAAAAA", { token });
      expect(error.status).toBe(404);
      expect(error.body).toEqual({ type: "error", status: 404, message: "Resource not found." });
      expect(error.headers.get("content-type")).toBe("application/json; charset=utf-8");

      const invalid = await call("POST", "/api/patients", { token, body: {} });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toEqual({
        type: "error",
        status: 422,
        message: "The given data was invalid.",
        errors: { name: ["The name field is required."], cpf: ["The cpf field is required."] },
      });
    });

    it("returns /api/auth/me bare: exactly {hash, name, email, role}", async () => {
      const me = await call("GET", "/api/auth/me", { token });
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ hash: expect.stringMatching(hash("USR")), name: admin.name, email: admin.email, role: "admin" });
      if (project.adminHash) expect(me.body.hash).toBe(project.adminHash);
    });
  });

  describe("§2 Public identifiers", () => {
    it("gives every resource hashes with its prefix (derived, multi-word and explicit); MedicalRecord says public_id", async () => {
      const patient = await createPatient();
      const doctor = await createDoctor();
      const appointment = await createAppointment(patient, doctor);
      const record = await call("POST", "/api/medical-records", { token, body: { patient, summary: "Checkup", recorded_on: "2026-11-02", weight_kg: 72.5 } });
      expect(patient).toMatch(hash("PAT"));
      expect(doctor).toMatch(hash("DOC"));
      expect(appointment.status, appointment.text).toBe(201);
      expect(appointment.body.data.hash).toMatch(hash("APT"));
      expect(record.status, record.text).toBe(201);
      expect(record.body.data.public_id).toMatch(hash("MRE"));
      expect(record.body.data).not.toHaveProperty("hash");
      const shown = await call("GET", `/api/medical-records/${record.body.data.public_id}`, { token });
      expect(shown.status).toBe(200);
      expect(shown.body.data.public_id).toBe(record.body.data.public_id);
      expect(shown.body.data).not.toHaveProperty("hash");
    });

    it("rejects a client-supplied hash or id with 422, on create and on update", async () => {
      const both = await call("POST", "/api/patients", { token, body: { name: "X", cpf: cpf(), hash: "PAT_AAAAAAAA", id: 5 } });
      expect(both.status).toBe(422);
      expect(both.body.errors).toEqual({ hash: ["The hash field is prohibited."], id: ["The id field is prohibited."] });
      for (const body of [{ hash: "PAT_AAAAAAAA" }, { id: 1 }]) {
        const alone = await call("POST", "/api/patients", { token, body: { name: "X", cpf: cpf(), ...body } });
        expect(alone.status, JSON.stringify(body)).toBe(422);
        expect(Object.keys(alone.body.errors)).toEqual(Object.keys(body));
      }
      const patient = await createPatient();
      const update = await call("PATCH", `/api/patients/${patient}`, { token, body: { hash: "PAT_AAAAAAAA" } });
      expect(update.status).toBe(422);
      expect(Object.keys(update.body.errors)).toEqual(["hash"]);
      expect((await call("GET", `/api/patients/${patient}`, { token })).status).toBe(200);
      const record = await call("POST", "/api/medical-records", { token, body: { patient, summary: "x", recorded_on: "2026-11-02", public_id: "MRE_AAAAAAAA" } });
      expect(record.status).toBe(422);
    });

    it("answers 404 for another prefix's well-formed hash, a numeric id and a malformed hash, on every action", async () => {
      const doctor = await createDoctor();
      const patient = await createPatient();
      const paths = [`/api/patients/${doctor}`, `/api/patients/${doctor.replace("DOC_", "PAT_")}`, "/api/patients/1", "/api/patients/0001", "/api/patients/PAT_aaaa"];
      for (const path of paths) {
        for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
          const reply = await call(method, path, { token, ...(method.startsWith("P") ? { body: { name: "x" } } : {}) });
          expect(reply.status, `${method} ${path}`).toBe(404);
          expect(reply.body, `${method} ${path}`).toEqual({ type: "error", status: 404, message: "Resource not found." });
        }
      }
      expect((await call("POST", "/api/patients/1/restore", { token })).status).toBe(404);
      expect((await call("GET", `/api/doctors/${patient}`)).status).toBe(404);
      expect((await call("GET", `/api/doctors/${patient}`, { token })).status).toBe(404);
      expect((await call("GET", "/api/doctors/1", { token })).status).toBe(404);
    });
  });

  describe("§3 Authentication", () => {
    it("logs in with the token shape and no-store; two logins in the same second differ, logging out one leaves the other", async () => {
      const [first, second] = await Promise.all([login(), login()]);
      for (const reply of [first, second]) {
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ type: "success", status: 200, data: { access_token: expect.any(String), token_type: "Bearer", expires_in: TTL } });
        expect(reply.headers.get("cache-control")).toBe("no-store");
      }
      const a = first.body.data.access_token as string;
      const b = second.body.data.access_token as string;
      expect(a).not.toBe(b);
      const claims = decodeClaims(a);
      expect(claims).toMatchObject({ sub: expect.stringMatching(hash("USR")), jti: expect.any(String), iat: expect.any(Number), exp: expect.any(Number), iss: expect.any(String) });
      expect(["string", "object"]).toContain(typeof claims.aud);
      expect((claims.exp as number) - (claims.iat as number)).toBe(TTL);
      expect(JSON.parse(Buffer.from(a.split(".")[0]!, "base64url").toString()).alg).toBe("HS256");
      expect(decodeClaims(b).jti).not.toBe(claims.jti);

      const logout = await call("POST", "/api/auth/logout", { token: a });
      expect(logout.status).toBe(200);
      expect(logout.body).toEqual({ type: "success", status: 200, message: "Successfully logged out." });
      expect((await call("GET", "/api/auth/me", { token: a })).status).toBe(401);
      expect((await call("POST", "/api/auth/logout", { token: a })).status).toBe(401);
      expect((await call("GET", "/api/patients", { token: a })).status).toBe(401);
      expect((await call("GET", "/api/auth/me", { token: b })).status).toBe(200);
    });

    it("answers 401 Unauthenticated with WWW-Authenticate when the token is missing or not a bearer token", async () => {
      for (const [path, method] of [["/api/auth/me", "GET"], ["/api/auth/refresh", "POST"], ["/api/auth/logout", "POST"], ["/api/patients", "GET"]] as const) {
        const reply = await call(method, path);
        expect(reply.status, path).toBe(401);
        expect(reply.body, path).toEqual({ type: "error", status: 401, message: "Unauthenticated." });
        expect(reply.headers.get("www-authenticate"), path).toBe("Bearer");
      }
      for (const authorization of [`Basic ${Buffer.from("ada@example.com:x").toString("base64")}`, "Bearer", "Bearer not.a.jwt", `Token ${token}`]) {
        const reply = await call("GET", "/api/auth/me", { headers: { Authorization: authorization } });
        expect(reply.status, authorization).toBe(401);
        expect(reply.headers.get("www-authenticate"), authorization).toBe("Bearer");
      }
    });

    it("answers 422 for missing or invalid fields and the same 401 for a wrong password and an unknown e-mail", async () => {
      const empty = await call("POST", "/api/auth/login", { body: {} });
      expect(empty.status).toBe(422);
      expect(Object.keys(empty.body.errors).sort()).toEqual(["email", "password"]);
      const noPassword = await call("POST", "/api/auth/login", { body: { email: admin.email } });
      expect(noPassword.status).toBe(422);
      expect(Object.keys(noPassword.body.errors)).toEqual(["password"]);
      const wrongType = await call("POST", "/api/auth/login", { body: { email: 5, password: admin.password } });
      expect(wrongType.status).toBe(422);
      expect(Object.keys(wrongType.body.errors)).toEqual(["email"]);
      const wrongPassword = await login(admin.email, "wrong password");
      const unknownEmail = await login(`nobody-${base}@example.com`, "wrong password");
      for (const reply of [wrongPassword, unknownEmail]) {
        expect(reply.status).toBe(401);
        expect(reply.body).toEqual({ type: "error", status: 401, message: "Invalid credentials." });
      }
      expect((await login()).status).toBe(200);
    });

    it("throttles repeated failures with 429 Too many attempts and Retry-After, per e-mail", async () => {
      const email = `throttled-${base}@example.com`;
      let first429 = -1;
      for (let attempt = 0; attempt < 12 && first429 < 0; attempt += 1) {
        const reply = await login(email, "nope");
        if (reply.status === 429) first429 = attempt;
        else expect(reply.status).toBe(401);
      }
      expect(first429, "no 429 after 12 failures").toBeGreaterThan(0);
      const blocked = await login(email, "nope");
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({ type: "error", status: 429, message: "Too many attempts." });
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another e-mail is not throttled.
      expect((await login()).status).toBe(200);
    });

    it("refuses forged, misdirected or stale tokens with 401 Unauthenticated and WWW-Authenticate: Bearer", async () => {
      const claims = decodeClaims(token);
      const now = Math.floor(Date.now() / 1000);
      const valid = { ...claims, jti: `forged-${base}`, iat: now, exp: now + 600 };
      const hs256 = { alg: "HS256", typ: "JWT" };
      const { exp: _exp, ...withoutExp } = valid;
      const forged = {
        "alg none": craftToken({ alg: "none", typ: "JWT" }, valid, null),
        "alg none with a signature": craftToken({ alg: "none", typ: "JWT" }, valid),
        "HS384 with the same secret": craftToken({ alg: "HS384", typ: "JWT" }, valid, jwtSecret, "sha384"),
        "HS512 with the same secret": craftToken({ alg: "HS512", typ: "JWT" }, valid, jwtSecret, "sha512"),
        "wrong signature": craftToken(hs256, valid, "another-secret-another-secret-another-secret"),
        "wrong issuer": craftToken(hs256, { ...valid, iss: "someone-else" }),
        "wrong audience": craftToken(hs256, { ...valid, aud: "someone-else" }),
        "missing exp": craftToken(hs256, withoutExp),
        "past exp": craftToken(hs256, { ...valid, exp: now - 10 }),
        "future nbf": craftToken(hs256, { ...valid, nbf: now + 600 }),
        "unknown (deleted) user": craftToken(hs256, { ...valid, sub: "USR_AAAAAAAA" }),
        "tampered payload": `${token.split(".")[0]}.${Buffer.from(JSON.stringify({ ...claims, sub: "USR_BBBBBBBB" })).toString("base64url")}.${token.split(".")[2]}`,
      };
      // The control: the same crafting with the right key and claims is accepted, so each refusal is for its one change.
      const control = await call("GET", "/api/auth/me", { token: craftToken(hs256, valid) });
      expect(control.status, control.text).toBe(200);
      for (const [name, forgedToken] of Object.entries(forged)) {
        const reply = await call("GET", "/api/auth/me", { token: forgedToken });
        expect(reply.status, name).toBe(401);
        expect(reply.body, name).toEqual({ type: "error", status: 401, message: "Unauthenticated." });
        expect(reply.headers.get("www-authenticate"), name).toBe("Bearer");
      }
    });

    it("accepts tokens only in the Authorization header, never in the query string", async () => {
      for (const path of [`/api/auth/me?token=${token}`, `/api/auth/me?access_token=${token}`, `/api/patients?access_token=${token}`, `/api/patients?token=${token}`]) {
        expect((await call("GET", path)).status, path.split("?")[0]).toBe(401);
      }
    });

    it("refreshes to a new token and revokes the presented one; an expired token within the refresh window refreshes too", async () => {
      const fresh = (await login()).body.data.access_token as string;
      const refreshed = await call("POST", "/api/auth/refresh", { token: fresh });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body).toEqual({ type: "success", status: 200, data: { access_token: expect.any(String), token_type: "Bearer", expires_in: TTL } });
      expect(refreshed.headers.get("cache-control")).toBe("no-store");
      const renewedToken = refreshed.body.data.access_token as string;
      expect(renewedToken).not.toBe(fresh);
      expect((await call("GET", "/api/auth/me", { token: renewedToken })).status).toBe(200);
      expect((await call("GET", "/api/auth/me", { token: fresh })).status).toBe(401);
      expect((await call("POST", "/api/auth/refresh", { token: fresh })).status).toBe(401);

      // An expired token made like a real one: same secret, iss, aud, sub and claims, exp in the past.
      // Every time claim that equals iat (iat itself, and whatever claim carries the first login) moves with it.
      const claims = decodeClaims(fresh);
      const issuedAt = (at: number) =>
        Object.fromEntries(Object.entries(claims).map(([key, value]) => [key, typeof value === "number" && value === claims.iat && key !== "exp" ? at : value]));
      const now = Math.floor(Date.now() / 1000);
      const hs256 = { alg: "HS256", typ: "JWT" };
      const expired = craftToken(hs256, { ...issuedAt(now - 7200), jti: `expired-in-window-${base}`, exp: now - 3600 });
      expect((await call("GET", "/api/auth/me", { token: expired })).status).toBe(401);
      const renewed = await call("POST", "/api/auth/refresh", { token: expired });
      expect(renewed.status, renewed.text).toBe(200);
      expect((await call("GET", "/api/auth/me", { token: renewed.body.data.access_token })).status).toBe(200);
      expect((await call("POST", "/api/auth/refresh", { token: expired })).status, "an expired token refreshes once").toBe(401);

      // Outside the window: first login longer ago than refreshTtl.
      const old = now - REFRESH_TTL - 7200;
      const outside = craftToken(hs256, { ...issuedAt(old), jti: `outside-window-${base}`, exp: old + TTL });
      expect((await call("POST", "/api/auth/refresh", { token: outside })).status).toBe(401);
      // Forgeries are not refreshable either.
      expect((await call("POST", "/api/auth/refresh", { token: craftToken(hs256, { ...claims, jti: `x-${base}` }, "another-secret-another-secret-another-secret") })).status).toBe(401);
    });

    it("refuses to start in production without a JWT_SECRET of at least 32 bytes", async () => {
      for (const secret of ["", "short-secret", "x".repeat(31)]) {
        const failure = await startService({ cwd: project.dir, env: { ...serviceEnv, JWT_SECRET: secret } }).then(
          async (started) => {
            await started.stop();
            return new Error(`started with JWT_SECRET=${JSON.stringify(secret)}`);
          },
          (error: Error) => error,
        );
        expect(failure.message, JSON.stringify(secret)).toMatch(/service exited early:[\s\S]*JWT_SECRET/);
      }
    });

    it("refuses to start on an unreachable database with a one-line message, not a stack trace", async () => {
      const unreachable = database === "postgresql" ? "postgresql://hashapi@127.0.0.1:1/none" : "file:./package.json/none.db" /* under a file: not creatable, even by root */;
      const failure = await startService({ cwd: project.dir, env: { ...serviceEnv, DATABASE_URL: unreachable, DIRECT_DATABASE_URL: "", WEB_CONCURRENCY: "1" } }).then(
        async (started) => {
          await started.stop();
          return new Error(`started and answered /api/health on ${unreachable}`);
        },
        (error: Error) => error,
      );
      // One line that names the setting to fix (the generated project says "Cannot open the database at DATABASE_URL: …").
      expect(failure.message).toMatch(/^service exited early:\n[^\n]*DATABASE_URL[^\n]*\n?$/);
    });

    it("requires a token on resource routes unless the spec lists the action under auth.public", async () => {
      const doctor = await createDoctor();
      const patient = await createPatient();
      const publicIndex = await call("GET", "/api/doctors");
      expect(publicIndex.status).toBe(200);
      expect(publicIndex.body.type).toBe("success");
      const publicShow = await call("GET", `/api/doctors/${doctor}`);
      expect(publicShow.status).toBe(200);
      expect(publicShow.body.data.hash).toBe(doctor);
      const closed: [string, string, object?][] = [
        ["POST", "/api/doctors", { name: "X", crm: "1" }],
        ["PATCH", `/api/doctors/${doctor}`, { name: "X" }],
        ["PUT", `/api/doctors/${doctor}`, { name: "X" }],
        ["DELETE", `/api/doctors/${doctor}`],
        ["GET", "/api/patients"],
        ["GET", `/api/patients/${patient}`],
        ["POST", "/api/patients", { name: "X", cpf: cpf() }],
        ["DELETE", `/api/patients/${patient}`],
        ["POST", `/api/patients/${patient}/restore`],
        ["GET", "/api/appointments"],
        ["GET", "/api/medical-records"],
      ];
      for (const [method, path, body] of closed) {
        const reply = await call(method, path, body ? { body } : {});
        expect(reply.status, `${method} ${path}`).toBe(401);
        expect(reply.headers.get("www-authenticate")).toBe("Bearer");
      }
      expect((await call("GET", `/api/doctors/${doctor}`, { token })).body.data.name).toBe("Dr. House");
      expect((await call("GET", `/api/patients/${patient}`, { token })).status).toBe(200);
    });
  });

  describe("§4 Resource endpoints", () => {
    it("lists, creates, shows, replaces, patches, deletes and restores a patient", async () => {
      const before = await total();
      const created = await call("POST", "/api/patients", { token, body: { name: "Crud", cpf: cpf(), phone: "555" } });
      expect(created.status).toBe(201);
      expectOutputKeys(created.body.data, OUTPUT.patient);
      expect(created.body.data).toMatchObject({ name: "Crud", phone: "555", deleted_at: null });
      const patient = created.body.data.hash as string;
      expect(await total()).toBe(before + 1);
      const shown = await call("GET", `/api/patients/${patient}`, { token });
      expect(shown.body.data).toEqual(created.body.data);
      const put = await call("PUT", `/api/patients/${patient}`, { token, body: { name: "Crud Put" } });
      expect(put.status).toBe(200);
      expect(put.body.data).toMatchObject({ hash: patient, name: "Crud Put", cpf: created.body.data.cpf, phone: "555" });
      const patch = await call("PATCH", `/api/patients/${patient}`, { token, body: { phone: "777" } });
      expect(patch.status).toBe(200);
      expect(patch.body.data).toMatchObject({ hash: patient, name: "Crud Put", phone: "777" });
      const deleted = await call("DELETE", `/api/patients/${patient}`, { token });
      expect(deleted.body).toEqual({ type: "success", status: 200, message: "Resource deleted." });
      expect(await total()).toBe(before);
      const restored = await call("POST", `/api/patients/${patient}/restore`, { token });
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ type: "success", status: 200, data: { hash: patient, name: "Crud Put", phone: "777", deleted_at: null } });
      expect(await total()).toBe(before + 1);
    });

    it("paginates with exact links (absolute, real host) and meta; validates page and per_page", async () => {
      const marker = `Page${base}`;
      const created: string[] = [];
      for (let index = 0; index < 17; index += 1) created.push(await createPatient({ name: marker }));
      const page = await call("GET", `/api/patients?name=${marker}&per_page=5&page=2`, { token });
      expect(page.status).toBe(200);
      expect(page.body.data.map((row: { hash: string }) => row.hash)).toEqual(created.slice(5, 10));
      // Behind the Prism proxy the service sees the proxy's forwarded Host; directly, its own.
      const origin = proxied ? proxy!.baseUrl : service!.baseUrl;
      const path = `${proxied ? new URL(page.body.meta.path).origin : origin}/api/patients`;
      expect(page.body.meta).toEqual({ current_page: 2, from: 6, last_page: 4, path, per_page: 5, to: 10, total: 17 });
      expect(page.body.links).toEqual({
        first: `${path}?name=${marker}&per_page=5&page=1`,
        last: `${path}?name=${marker}&per_page=5&page=4`,
        prev: `${path}?name=${marker}&per_page=5&page=1`,
        next: `${path}?name=${marker}&per_page=5&page=3`,
      });
      const first = await call("GET", `/api/patients?name=${marker}&per_page=5`, { token });
      expect(first.body.meta).toMatchObject({ current_page: 1, from: 1, to: 5 });
      expect(first.body.links.prev).toBeNull();
      const last = await call("GET", `/api/patients?name=${marker}&per_page=5&page=4`, { token });
      expect(last.body.data).toHaveLength(2);
      expect(last.body.meta).toMatchObject({ current_page: 4, from: 16, to: 17, last_page: 4 });
      expect(last.body.links.next).toBeNull();
      const beyond = await call("GET", `/api/patients?name=${marker}&per_page=5&page=9`, { token });
      expect(beyond.status).toBe(200);
      expect(beyond.body.data).toEqual([]);
      // Following next keeps the page size and walks every record exactly once, in creation order.
      const walked: string[] = [];
      let next: string | null = `/api/patients?name=${marker}&per_page=5`;
      while (next) {
        const reply: Reply = await call("GET", next.replace(/^https?:\/\/[^/]+/, ""), { token });
        walked.push(...reply.body.data.map((row: { hash: string }) => row.hash));
        next = reply.body.links.next;
      }
      expect(walked).toEqual(created);
      const defaults = await call("GET", `/api/patients?name=${marker}`, { token });
      expect(defaults.body.meta).toMatchObject({ per_page: 15, last_page: 2, total: 17 });
      for (const query of ["per_page=0", "per_page=101", "per_page=abc", "per_page=1.5", "per_page=-1", "page=0", "page=-1", "page=abc", "per_page=1&per_page=2", "page=1&page=2"]) {
        const reply = await call("GET", `/api/patients?${query}`, { token });
        expect(reply.status, query).toBe(422);
        expect(reply.body.message, query).toBe("The given data was invalid.");
      }
      expect((await call("GET", "/api/patients?per_page=100", { token })).status).toBe(200);
      expect((await call("GET", "/api/patients?per_page=1", { token })).status).toBe(200);
    });

    it("orders by created_at then id by default and by ?sort=name,-created_at; an unknown sort field is a 422", async () => {
      const group = `s${base}`.slice(0, 20);
      const made: { name: string; hash: string }[] = [];
      for (const name of ["Bravo", "Alpha", "Charlie", "Alpha"]) {
        made.push({ name, hash: await createPatient({ name, phone: group }) });
        await sleep(15);
      }
      const natural = await call("GET", `/api/patients?phone=${group}`, { token });
      expect(natural.body.data.map((row: { hash: string }) => row.hash)).toEqual(made.map((row) => row.hash));
      const sorted = await call("GET", `/api/patients?phone=${group}&sort=name,-created_at`, { token });
      expect(sorted.status).toBe(200);
      expect(sorted.body.data.map((row: { hash: string }) => row.hash)).toEqual([made[3]!.hash, made[1]!.hash, made[0]!.hash, made[2]!.hash]);
      const descending = await call("GET", `/api/patients?phone=${group}&sort=-name,created_at`, { token });
      expect(descending.body.data.map((row: { hash: string }) => row.hash)).toEqual([made[2]!.hash, made[0]!.hash, made[1]!.hash, made[3]!.hash]);
      for (const query of ["sort=password", "sort=id", "sort=name,nickname", "sort=-", "sort=name&sort=cpf"]) {
        const reply = await call("GET", `/api/patients?${query}`, { token });
        expect(reply.status, query).toBe(422);
        expect(reply.body.errors, query).toHaveProperty("sort");
      }
    });

    it("filters by exact match on a scalar field and a belongsTo hash; an unknown filter field is a 422", async () => {
      const wanted = cpf();
      const patient = await createPatient({ cpf: wanted });
      await createPatient();
      const byCpf = await call("GET", `/api/patients?cpf=${wanted}`, { token });
      expect(byCpf.status).toBe(200);
      expect(byCpf.body.data.map((row: { hash: string }) => row.hash)).toEqual([patient]);
      expect(byCpf.body.meta.total).toBe(1);
      expect((await call("GET", `/api/patients?cpf=${wanted.slice(0, 10)}`, { token })).body.data).toEqual([]);

      const doctor = await createDoctor();
      const other = await createDoctor();
      const mine = await createAppointment(patient, doctor);
      await createAppointment(patient, other);
      const byDoctor = await call("GET", `/api/appointments?doctor=${doctor}`, { token });
      expect(byDoctor.status).toBe(200);
      expect(byDoctor.body.data.map((row: { hash: string }) => row.hash)).toEqual([mine.body.data.hash]);
      const both = await call("GET", `/api/appointments?doctor=${other}&patient=${patient}`, { token });
      expect(both.body.meta.total).toBe(1);
      expect((await call("GET", `/api/appointments?doctor=DOC_AAAAAAAA`, { token })).body.data).toEqual([]);
      for (const query of ["nickname=x", "password=x", "id=1", "doctor_id=1", "patients=x", "name[ne]=x"]) {
        const reply = await call("GET", `/api/patients?${query}`, { token });
        expect(reply.status, query).toBe(422);
      }
      expect((await call("GET", "/api/appointments?doctor_id=1", { token })).status).toBe(422);
    });

    it("filters by operators, searches any alphabet and pages by cursor, as openapi.json describes each parameter", async () => {
      // Operators (§8): contains folds case in every alphabet; ranges and `in` on an appointment.
      const silvia = await createPatient({ name: `Sílvia ${tag}` });
      const other = await createPatient({ name: `Other ${tag}` });
      const named = (reply: Reply) => reply.body.data.map((row: { hash: string }) => row.hash);
      const contains = await call("GET", `/api/patients?filter[name][contains]=${encodeURIComponent(`SÍLVIA ${tag.toUpperCase()}`)}`, { token });
      expect(contains.status, contains.text).toBe(200);
      expect(named(contains)).toEqual([silvia]);
      const searched = await call("GET", `/api/patients?search=${encodeURIComponent(`${tag} sílv`)}`, { token });
      expect(named(searched)).toEqual([silvia]);
      const doctor = await createDoctor();
      const early = await call("POST", "/api/appointments", { token, body: { patient: silvia, doctor, scheduled_at: "2026-12-01T09:00:00.000Z" } });
      const late = await call("POST", "/api/appointments", { token, body: { patient: silvia, doctor, scheduled_at: "2026-12-08T09:00:00.000Z", status: "cancelled" } });
      expect([early.status, late.status]).toEqual([201, 201]);
      const week = await call("GET", `/api/appointments?doctor=${doctor}&filter[scheduled_at][gte]=2026-12-01T00:00:00Z&filter[scheduled_at][lt]=2026-12-08T00:00:00Z`, { token });
      expect(named(week)).toEqual([early.body.data.hash]);
      const between = await call("GET", `/api/appointments?doctor=${doctor}&filter[scheduled_at][between]=2026-12-01T00:00:00Z,2026-12-31T00:00:00Z&filter[status][in]=scheduled,completed`, { token });
      expect(named(between)).toEqual([early.body.data.hash]);
      for (const query of ["filter[status][contains]=sch", "filter[status][in]=lost", "filter[scheduled_at][gte]=soon", "filter[name][gt]=a", "search=x"]) {
        const reply = await call("GET", `/api/appointments?${query}`, { token });
        expect(reply.status, query).toBe(422);
      }
      // Cursors (§4): two pages forwards, one back; no total; a tampered cursor is a 422.
      const path = `/api/patients?filter[name][contains]=${tag}&per_page=1`;
      const first = await call("GET", `${path}&cursor=`, { token });
      expect(first.status, first.text).toBe(200);
      expect(Object.keys(first.body.meta).sort()).toEqual(["next_cursor", "path", "per_page", "prev_cursor"]);
      expect(first.body.meta.prev_cursor).toBeNull();
      const relative = (link: string) => new URL(link).pathname + new URL(link).search;
      const second = await call("GET", relative(first.body.links.next), { token });
      expect([...named(first), ...named(second)]).toEqual([silvia, other]);
      expect(second.body.links.next).toBeNull();
      expect(named(await call("GET", relative(second.body.links.prev), { token }))).toEqual([silvia]);
      const cursor: string = first.body.meta.next_cursor;
      const tampered = `${cursor.slice(0, -2)}${cursor.endsWith("AA") ? "BB" : "AA"}`;
      expect((await call("GET", `${path}&cursor=${tampered}`, { token })).status).toBe(422);
    });

    it("links many-to-many records with pivot data: payload arrays, the relation routes from both sides, ?with= and ?filter[relation]=", async () => {
      const specialty = async (name: string) => {
        const reply = await call("POST", "/api/specialties", { token, body: { name: `${name} ${tag}` } });
        expect(reply.status, reply.text).toBe(201);
        return reply.body.data.hash as string;
      };
      const [cardio, neuro] = [await specialty("Cardio"), await specialty("Neuro")];
      const doctor = await createDoctor({ specialties: [{ hash: cardio, since: "2024-01-31" }] });
      const routes = `/api/doctors/${doctor}/specialties`;
      const listed = await call("GET", routes, { token });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data.map((row: { hash: string; pivot: unknown }) => [row.hash, row.pivot])).toEqual([[cardio, { since: "2024-01-31" }]]);
      const attached = await call("PUT", `${routes}/${neuro}`, { token, body: { since: null } });
      expect(attached.status, attached.text).toBe(200);
      expect(attached.body.data).toMatchObject({ hash: neuro, pivot: { since: null } });
      const nested = await call("GET", `/api/doctors/${doctor}?with=specialties`, { token });
      expect(nested.body.data.specialties.map((row: { hash: string }) => row.hash).sort()).toEqual([cardio, neuro].sort());
      const inverse = await call("GET", `/api/specialties/${neuro}/doctors`, { token });
      expect(inverse.body.data.map((row: { hash: string }) => row.hash)).toEqual([doctor]);
      const filtered = await call("GET", `/api/doctors?filter[specialties]=${neuro}`, { token });
      expect(filtered.body.data.map((row: { hash: string }) => row.hash)).toEqual([doctor]);
      const detached = await call("DELETE", `${routes}/${neuro}`, { token });
      expect([detached.status, detached.body.message]).toEqual([200, "Resource detached."]);
      expect((await call("DELETE", `${routes}/${neuro}`, { token })).status).toBe(404);
      expect((await call("PUT", `${routes}/SPC_AAAAAAAA`, { token })).status).toBe(404);
      // A relation with pivot fields takes objects; a repeated hash is named where it repeats.
      const repeated = await call("PUT", `/api/doctors/${doctor}`, { token, body: { specialties: [{ hash: cardio }, { hash: cardio }] } });
      expect([repeated.status, repeated.body.errors]).toEqual([422, { "specialties.1": ["The specialties.1 field has a duplicate value."] }]);
    });

    it("loads ?with= relations (medical records nest the patient); an unknown relation is a 422", async () => {
      const patient = await createPatient({ name: `With${base}` });
      const record = await call("POST", "/api/medical-records", { token, body: { patient, summary: "With", recorded_on: "2026-11-03" } });
      expect(record.status, record.text).toBe(201);
      const list = await call("GET", `/api/medical-records?patient=${patient}&with=patient`, { token });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0].patient).toMatchObject({ hash: patient, name: `With${base}` });
      const plain = await call("GET", `/api/medical-records?patient=${patient}`, { token });
      expect(plain.body.data[0].patient).toBe(patient);
      const shown = await call("GET", `/api/medical-records/${record.body.data.public_id}?with=patient`, { token });
      expect(shown.body.data.patient).toMatchObject({ hash: patient });
      for (const query of ["with=doctors", "with=patient,nothing", "with=password", "with=patient&with=patient"]) {
        const reply = await call("GET", `/api/medical-records?${query}`, { token });
        expect(reply.status, query).toBe(422);
      }
      expect((await call("GET", "/api/patients?with=doctors", { token })).status).toBe(422);
    });

    it("soft-deletes: absent from lists, 404 on show/update/delete, ?with_trashed=true lists it with deleted_at, restore brings it back", async () => {
      const patient = await createPatient({ name: `Trash${base}` });
      expect((await call("DELETE", `/api/patients/${patient}`, { token })).status).toBe(200);
      expect((await call("GET", `/api/patients/${patient}`, { token })).status).toBe(404);
      expect((await call("PATCH", `/api/patients/${patient}`, { token, body: { name: "x" } })).status).toBe(404);
      expect((await call("PUT", `/api/patients/${patient}`, { token, body: { name: "x" } })).status).toBe(404);
      expect((await call("DELETE", `/api/patients/${patient}`, { token })).status).toBe(404);
      const live = await call("GET", `/api/patients?name=Trash${base}`, { token });
      expect(live.body.data).toEqual([]);
      expect(live.body.meta.total).toBe(0);
      const trashed = await call("GET", `/api/patients?name=Trash${base}&with_trashed=true`, { token });
      expect(trashed.status).toBe(200);
      expect(trashed.body.data).toHaveLength(1);
      expect(trashed.body.data[0]).toMatchObject({ hash: patient, name: `Trash${base}`, deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/) });
      for (const value of ["yes", "maybe"]) expect((await call("GET", `/api/patients?with_trashed=${value}`, { token })).status, value).toBe(422);

      const restored = await call("POST", `/api/patients/${patient}/restore`, { token });
      expect(restored.status).toBe(200);
      expect(restored.body.data).toMatchObject({ hash: patient, deleted_at: null });
      expect((await call("GET", `/api/patients/${patient}`, { token })).status).toBe(200);
      expect((await call("GET", `/api/patients?name=Trash${base}`, { token })).body.data.map((row: { hash: string }) => row.hash)).toEqual([patient]);
      const again = await call("POST", `/api/patients/${patient}/restore`, { token });
      expect(again.status, "restore of a live record").toBe(404);
      expect(again.body).toEqual({ type: "error", status: 404, message: "Resource not found." });
      // A resource without softDelete has no restore and is really removed.
      const doctor = await createDoctor();
      expect((await call("POST", `/api/doctors/${doctor}/restore`, { token })).status).toBe(404);
      expect((await call("DELETE", `/api/doctors/${doctor}`, { token })).status).toBe(200);
      expect((await call("GET", `/api/doctors/${doctor}`, { token })).status).toBe(404);
    });

    it("updates only the sent fields with PUT and PATCH, validating by the update rules", async () => {
      const patient = await createPatient({ phone: "111" });
      const before = (await call("GET", `/api/patients/${patient}`, { token })).body.data;
      const patched = await call("PATCH", `/api/patients/${patient}`, { token, body: { name: "Renamed" } });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ hash: patient, name: "Renamed", cpf: before.cpf, phone: "111" });
      const put = await call("PUT", `/api/patients/${patient}`, { token, body: { phone: null } });
      expect(put.status).toBe(200);
      expect(put.body.data).toMatchObject({ hash: patient, name: "Renamed", cpf: before.cpf, phone: null });
      for (const bad of ["123", "1234567890a", "123456789012"]) {
        const invalid = await call("PATCH", `/api/patients/${patient}`, { token, body: { cpf: bad } });
        expect(invalid.status, bad).toBe(422);
        expect(invalid.body.errors, bad).toEqual({ cpf: ["The cpf field must be 11 digits."] });
      }
      const tooLong = await call("PATCH", `/api/patients/${patient}`, { token, body: { name: "x".repeat(121) } });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.errors).toEqual({ name: ["The name field must not be greater than 120 characters."] });
      const wrongType = await call("PATCH", `/api/patients/${patient}`, { token, body: { name: 5 } });
      expect(wrongType.status).toBe(422);
      expect(Object.keys(wrongType.body.errors)).toEqual(["name"]);
      const after = (await call("GET", `/api/patients/${patient}`, { token })).body.data;
      expect(after).toMatchObject({ name: "Renamed", cpf: before.cpf, phone: null });
      const createInvalid = await call("POST", "/api/patients", { token, body: { name: "X", cpf: "12345" } });
      expect(createInvalid.body.errors).toEqual({ cpf: ["The cpf field must be 11 digits."] });
    });

    it("refuses an unknown payload key with 422, on create and on update", async () => {
      const unknown = await call("POST", "/api/patients", { token, body: { name: "X", cpf: cpf(), nickname: "x" } });
      expect(unknown.status).toBe(422);
      expect(Object.keys(unknown.body.errors)).toEqual(["nickname"]);
      const patient = await createPatient();
      const update = await call("PATCH", `/api/patients/${patient}`, { token, body: { deleted_at: null, created_at: "2020-01-01T00:00:00Z" } });
      expect(update.status).toBe(422);
      expect(Object.keys(update.body.errors).sort()).toEqual(["created_at", "deleted_at"]);
      expect((await call("POST", "/api/doctors", { token, body: { name: "X", crm: `C${tag}-x`, patient_id: 1 } })).status).toBe(422);
      for (const body of [[], "text", 5, null]) {
        const reply = await call("POST", "/api/patients", { token, body });
        expect([400, 422], JSON.stringify(body)).toContain(reply.status);
      }
    });

    it("answers wrongly typed values of unique fields with 422, never 500 (objects and arrays are never looked up)", async () => {
      for (const value of [{}, [1], { $gt: "" }, true, 12345678901]) {
        const reply = await call("POST", "/api/patients", { token, body: { name: 1, cpf: value } });
        expect(reply.status, `${JSON.stringify(value)}: ${reply.text}`).toBe(422);
        expect(Object.keys(reply.body.errors).sort()).toEqual(["cpf", "name"]);
      }
      const patient = await createPatient();
      const update = await call("PATCH", `/api/patients/${patient}`, { token, body: { cpf: [cpf()] } });
      expect(update.status, update.text).toBe(422);
    });

    it("reports unique violations as 422 'has already been taken' on create and on update of another record; its own value is fine", async () => {
      const taken = cpf();
      const owner = await createPatient({ cpf: taken });
      const duplicate = await call("POST", "/api/patients", { token, body: { name: "Twin", cpf: taken } });
      expect(duplicate.status).toBe(422);
      expect(duplicate.body).toEqual({ type: "error", status: 422, message: "The given data was invalid.", errors: { cpf: ["The cpf has already been taken."] } });
      const other = await createPatient();
      const update = await call("PATCH", `/api/patients/${other}`, { token, body: { cpf: taken } });
      expect(update.status).toBe(422);
      expect(update.body.errors).toEqual({ cpf: ["The cpf has already been taken."] });
      const own = await call("PATCH", `/api/patients/${owner}`, { token, body: { cpf: taken, name: "Owner" } });
      expect(own.status, own.text).toBe(200);
      expect(own.body.data).toMatchObject({ cpf: taken, name: "Owner" });
      expect((await call("PUT", `/api/patients/${owner}`, { token, body: { cpf: taken } })).status).toBe(200);
      // A soft-deleted record keeps its unique value.
      await call("DELETE", `/api/patients/${owner}`, { token });
      expect((await call("POST", "/api/patients", { token, body: { name: "Twin", cpf: taken } })).status).toBe(422);
      const crm = `C${tag}-u`;
      await createDoctor({ crm });
      const doctor = await call("POST", "/api/doctors", { token, body: { name: "Twin", crm } });
      expect(doctor.body.errors).toEqual({ crm: ["The crm has already been taken."] });
    });

    it("writes belongsTo by hash and refuses unknown, other-prefix or soft-deleted targets on the relation's key", async () => {
      const doctor = await createDoctor();
      const patient = await createPatient();
      const unknownDoctor = await createAppointment(patient, "DOC_AAAAAAAA");
      expect(unknownDoctor.status).toBe(422);
      expect(unknownDoctor.body.errors).toEqual({ doctor: ["The selected doctor is invalid."] });
      const unknownPatient = await createAppointment("PAT_AAAAAAAA", doctor);
      expect(unknownPatient.status).toBe(422);
      expect(unknownPatient.body.errors).toEqual({ patient: ["The selected patient is invalid."] });
      expect((await createAppointment(doctor, doctor)).body.errors).toEqual({ patient: ["The selected patient is invalid."] });
      const numeric = await call("POST", "/api/appointments", { token, body: { patient: 1, doctor, scheduled_at: "2026-12-01T10:00:00.000Z" } });
      expect(numeric.status).toBe(422);
      expect(Object.keys(numeric.body.errors)).toEqual(["patient"]);
      const gone = await createPatient();
      await call("DELETE", `/api/patients/${gone}`, { token });
      const deleted = await createAppointment(gone, doctor);
      expect(deleted.status).toBe(422);
      expect(deleted.body.errors).toEqual({ patient: ["The selected patient is invalid."] });
      const missing = await call("POST", "/api/appointments", { token, body: { scheduled_at: "2026-12-01T10:00:00.000Z" } });
      expect(missing.status).toBe(422);
      expect(Object.keys(missing.body.errors).sort()).toEqual(["doctor", "patient"]);
      // Every problem at once: a field its rules refuse, unknown records of both relations.
      const everything = await call("POST", "/api/appointments", { token, body: { patient: "PAT_AAAAAAAA", doctor: "DOC_AAAAAAAA", scheduled_at: "not a date", status: "lost" } });
      expect(everything.status).toBe(422);
      expect(Object.keys(everything.body.errors).sort()).toEqual(["doctor", "patient", "scheduled_at", "status"]);
      expect(everything.body.errors.doctor).toEqual(["The selected doctor is invalid."]);
      // Valid by its own rules, with a value already taken, an unknown user and an unknown
      // specialty (a belongsToMany): one 422 too.
      const crm = (await call("GET", `/api/doctors/${doctor}`, { token })).body.data.crm as string;
      const taken = await call("POST", "/api/doctors", { token, body: { name: "Dr. Twice", crm, user: "USR_AAAAAAAA", specialties: [{ hash: "SPC_AAAAAAAA" }] } });
      expect(taken.status).toBe(422);
      expect(Object.keys(taken.body.errors).sort()).toEqual(["crm", "specialties.0", "user"]);
      // Refused by its rules too: the database's problems are added to the rules'.
      const ruled = await call("POST", "/api/doctors", { token, body: { name: "x".repeat(121), crm, user: "USR_AAAAAAAA", specialties: [{ hash: "SPC_AAAAAAAA" }] } });
      expect(Object.keys(ruled.body.errors).sort()).toEqual(["crm", "name", "specialties.0", "user"]);
      const moved = await createAppointment(patient, doctor);
      const other = await createDoctor();
      const changed = await call("PATCH", `/api/appointments/${moved.body.data.hash}`, { token, body: { doctor: other } });
      expect(changed.status).toBe(200);
      expect(changed.body.data.doctor).toMatchObject({ hash: other });
      expect(changed.body.data.patient).toMatchObject({ hash: patient });
      const badChange = await call("PATCH", `/api/appointments/${moved.body.data.hash}`, { token, body: { doctor: "DOC_AAAAAAAA" } });
      expect(badChange.body.errors).toEqual({ doctor: ["The selected doctor is invalid."] });
    });

    it("refuses to delete a referenced record with 409", async () => {
      const patient = await createPatient();
      const doctor = await createDoctor();
      expect((await createAppointment(patient, doctor)).status).toBe(201);
      const reply = await call("DELETE", `/api/doctors/${doctor}`, { token });
      expect(reply.status).toBe(409);
      // Naming the relation that holds it (a resource's name, never a record).
      expect(reply.body).toEqual({ type: "error", status: 409, message: "Resource is referenced by other records: an appointment still points at this doctor." });
      expect((await call("GET", `/api/doctors/${doctor}`, { token })).status).toBe(200);
    });

    it("nests eager-loaded relations, outputs decimals as strings, dates as YYYY-MM-DD and applies enum defaults", async () => {
      const patient = await createPatient({ name: `Eager${base}` });
      const doctor = await createDoctor();
      const doctorShown = await call("GET", `/api/doctors/${doctor}`);
      expectOutputKeys(doctorShown.body.data, OUTPUT.doctor);
      expect(doctorShown.body.data.specialty).toBe("general");
      const created = await createAppointment(patient, doctor);
      expect(created.status).toBe(201);
      expectOutputKeys(created.body.data, OUTPUT.appointment);
      expect(created.body.data).toMatchObject({ status: "scheduled", notes: null, scheduled_at: expect.stringMatching(/^2026-12-01T10:00:00(\.000)?Z$/) });
      expect(created.body.data.patient).toMatchObject({ hash: patient, name: `Eager${base}` });
      expect(created.body.data.doctor).toMatchObject({ hash: doctor, name: "Dr. House", specialty: "general" });
      const listed = await call("GET", `/api/appointments?patient=${patient}`, { token });
      expect(listed.body.data[0].patient).toMatchObject({ hash: patient });
      expect(listed.body.data[0].doctor).toMatchObject({ hash: doctor });
      const shown = await call("GET", `/api/appointments/${created.body.data.hash}`, { token });
      expect(shown.body.data.doctor.hash).toBe(doctor);
      expect((await call("POST", "/api/appointments", { token, body: { patient, doctor, scheduled_at: "2026-12-01T10:00:00.000Z", status: "postponed" } })).status).toBe(422);
      expect((await call("POST", "/api/doctors", { token, body: { name: "X", crm: `C${tag}-e`, specialty: "surgery" } })).status).toBe(422);
      expect((await call("POST", "/api/appointments", { token, body: { patient, doctor, scheduled_at: "tomorrow" } })).status).toBe(422);

      const record = await call("POST", "/api/medical-records", { token, body: { patient, summary: "Flu", recorded_on: "2026-11-03", weight_kg: 72.5 } });
      expect(record.status, record.text).toBe(201);
      expectOutputKeys(record.body.data, OUTPUT.medicalRecord);
      expect(record.body.data).toMatchObject({ patient, recorded_on: "2026-11-03", weight_kg: "72.50", summary: "Flu" });
      const fromString = await call("POST", "/api/medical-records", { token, body: { patient, summary: "x", recorded_on: "2026-11-04", weight_kg: "80.1" } });
      expect(fromString.body.data.weight_kg).toBe("80.10");
      const none = await call("POST", "/api/medical-records", { token, body: { patient, summary: "x", recorded_on: "2026-11-04" } });
      expect(none.body.data.weight_kg).toBeNull();
      const shownRecord = await call("GET", `/api/medical-records/${record.body.data.public_id}`, { token });
      expect(shownRecord.body.data).toMatchObject({ patient, recorded_on: "2026-11-03", weight_kg: "72.50" });
      expect((await call("POST", "/api/medical-records", { token, body: { patient, summary: "x", recorded_on: "03/11/2026" } })).status).toBe(422);
    });
  });

  describe("§5 Errors", () => {
    it("answers body problems in the envelope: 400 malformed JSON, 413 over 100 kB, 415 not JSON", async () => {
      const malformed = await direct("POST", "/api/patients", { token, raw: '{"name": "x",', headers: { "Content-Type": "application/json" } });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ type: "error", status: 400, message: "Malformed JSON body." });
      const patient = await createPatient();
      const malformedPatch = await direct("PATCH", `/api/patients/${patient}`, { token, raw: "{'name': 'x'}", headers: { "Content-Type": "application/json" } });
      expect(malformedPatch.body).toEqual({ type: "error", status: 400, message: "Malformed JSON body." });
      const large = await direct("POST", "/api/patients", { token, raw: JSON.stringify({ name: "x".repeat(120 * 1024) }), headers: { "Content-Type": "application/json" } });
      expect(large.status).toBe(413);
      expect(large.body).toEqual({ type: "error", status: 413, message: "Payload too large." });
      const small = await direct("POST", "/api/patients", { token, raw: JSON.stringify({ name: "x".repeat(90 * 1024), cpf: cpf() }), headers: { "Content-Type": "application/json" } });
      expect(small.status, "a body under the limit reaches validation").toBe(422);
      const text = await direct("POST", "/api/patients", { token, raw: "name=x", headers: { "Content-Type": "text/plain" } });
      expect(text.status).toBe(415);
      expect(text.body).toEqual({ type: "error", status: 415, message: "Unsupported media type." });
      const form = await direct("PUT", `/api/patients/${patient}`, { token, raw: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      expect(form.body).toEqual({ type: "error", status: 415, message: "Unsupported media type." });
      const jsonText = await direct("PATCH", `/api/patients/${patient}`, { token, raw: '{"name":"x"}', headers: { "Content-Type": "text/plain" } });
      expect(jsonText.status).toBe(415);
      // No Content-Type at all (fetch always sends one with a string body).
      const bare = await raw(`POST /api/patients HTTP/1.1\nAuthorization: Bearer ${token}\nContent-Length: 12`, '{"name":"x"}');
      expect(bare.status).toBe(415);
      expect(bare.body).toEqual({ type: "error", status: 415, message: "Unsupported media type." });
      const unchanged = await call("GET", `/api/patients/${patient}`, { token });
      expect(unchanged.body.data.name).not.toBe("x");
      const charset = await direct("POST", "/api/patients", { token, raw: JSON.stringify({ name: "Charset", cpf: cpf() }), headers: { "Content-Type": "application/json; charset=utf-8" } });
      expect(charset.status).toBe(201);
    });

    it("answers unknown routes with 404 and wrong methods on known paths with 405 and Allow", async () => {
      for (const path of ["/api/nothing-here", "/api/patients/PAT_AAAAAAAA/nothing", "/elsewhere", "/api", "/api/auth"]) {
        const reply = await call("GET", path, { token });
        expect(reply.status, path).toBe(404);
        expect(reply.body, path).toEqual({ type: "error", status: 404, message: "Resource not found." });
      }
      const collection = await call("DELETE", "/api/patients", { token });
      expect(collection.status).toBe(405);
      expect(collection.body).toEqual({ type: "error", status: 405, message: "Method not allowed." });
      const allowCollection = (collection.headers.get("allow") ?? "").split(/,\s*/);
      expect(allowCollection).toEqual(expect.arrayContaining(["GET", "POST"]));
      expect(allowCollection).not.toContain("DELETE");
      const patient = await createPatient();
      const item = await call("POST", `/api/patients/${patient}`, { token, body: {} });
      expect(item.status).toBe(405);
      expect(item.body).toEqual({ type: "error", status: 405, message: "Method not allowed." });
      const allowItem = (item.headers.get("allow") ?? "").split(/,\s*/);
      expect(allowItem).toEqual(expect.arrayContaining(["GET", "PUT", "PATCH", "DELETE"]));
      expect(allowItem).not.toContain("POST");
      const login = await call("GET", "/api/auth/login");
      expect(login.status).toBe(405);
      expect(login.headers.get("allow")).toContain("POST");
      expect((await call("DELETE", "/api/auth/me", { token })).status).toBe(405);
    });

    it("refuses prototype pollution (__proto__, constructor.prototype) and never applies it", async () => {
      const patient = await createPatient();
      const attempts: [string, string, string][] = [
        ["POST", "/api/patients", `{"name":"P","cpf":"${cpf()}","__proto__":{"polluted":true}}`],
        ["POST", "/api/patients", `{"name":"P","cpf":"${cpf()}","constructor":{"prototype":{"polluted":true}}}`],
        ["PATCH", `/api/patients/${patient}`, '{"__proto__":{"polluted":true,"name":"Polluted"}}'],
        ["PATCH", `/api/patients/${patient}`, '{"constructor":{"prototype":{"polluted":true}}}'],
        ["POST", "/api/auth/login", `{"email":"pollute-${base}@example.com","password":"x","__proto__":{"polluted":true}}`],
      ];
      for (const [method, path, body] of attempts) {
        const reply = await call(method, path, { token, raw: body, headers: { "Content-Type": "application/json" } });
        // Refused (422) or stripped (2xx, and then nothing of it may show up): never applied.
        expect([200, 201, 401, 422], `${method} ${body}`).toContain(reply.status);
        expect(reply.text, `${method} ${body}`).not.toContain("polluted");
        expect(reply.text, `${method} ${body}`).not.toContain("Polluted");
      }
      const after = await call("GET", `/api/patients?per_page=100&sort=-created_at`, { token });
      expect(after.status).toBe(200);
      expect(after.text).not.toContain("polluted");
      expect(after.text).not.toContain("Polluted");
      const shown = await call("GET", `/api/patients/${patient}`, { token });
      expect(shown.text).not.toContain("olluted");
      // The service's own objects were not polluted: a fresh empty body still fails validation normally.
      const empty = await call("POST", "/api/patients", { token, body: {} });
      expect(Object.keys(empty.body.errors).sort()).toEqual(["cpf", "name"]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("answers repeated query parameters with 422, never 500", async () => {
      for (const query of ["sort=name&sort=cpf", "per_page=1&per_page=2", "name=a&name=b", "with=appointments&with=appointments", "with_trashed=true&with_trashed=true", "name[]=a", "name[x]=a"]) {
        const reply = await raw(`GET /api/patients?${query} HTTP/1.1\nAuthorization: Bearer ${token}`);
        expect(reply.status, query).toBe(422);
        expect(reply.body, query).toMatchObject({ type: "error", status: 422, message: "The given data was invalid." });
      }
      const doctors = await raw(`GET /api/appointments?doctor=DOC_AAAAAAAA&doctor=DOC_BBBBBBBB HTTP/1.1\nAuthorization: Bearer ${token}`);
      expect(doctors.status).toBe(422);
    });

    it("started by a person (not NODE_ENV=production), refuses a database that lacks its migrations: exit 1, one line naming them and the command", async () => {
      const refused = await startService({ cwd: project.dir, env: { ...serviceEnv, NODE_ENV: "development", DATABASE_URL: unmigratedUrl, DIRECT_DATABASE_URL: "" } }).then(
        () => new Error("started on an unmigrated database"),
        (error: Error) => error,
      );
      expect(refused.message).toMatch(/service exited early/);
      expect(refused.message).toMatch(/lacks 1 migration \(0001_init\): run `npm run db:migrate`, then start again\./);
      expect(refused.message).not.toMatch(/\bat \S+ \(/);
    });

    it("in production waits for its migrations (a rolling deploy): live 200, ready 503 naming them, other requests 503, ready once they are applied", async () => {
      const env = { ...serviceEnv, DATABASE_URL: unmigratedUrl, DIRECT_DATABASE_URL: "", LOG_LEVEL: "info" };
      const waiting = await startService({ cwd: project.dir, env, startedWhen: "/api/health/live" });
      try {
        const call = client(waiting.baseUrl);
        const ready = await call("GET", "/api/health/ready");
        expect(ready.status).toBe(503);
        expect(ready.body.message).toBe("The service is not ready: the database lacks 0001_init.");
        expect(ready.headers.get("retry-after")).toBe("5");
        for (const path of ["/api/patients", "/api/auth/me", "/api/openapi.json"]) {
          const refused = await call("GET", path, { token });
          expect(refused.status, path).toBe(503);
          expect(refused.body, path).toEqual({ type: "error", status: 503, message: "The service is not ready." });
          expect(refused.headers.get("retry-after"), path).toBe("5");
        }
        expect(waiting.output()).toMatch(/"pending":\["0001_init"\].*waiting for `npm run db:migrate`/);
        // The migration job of the deploy ends: the same process turns ready, and serves.
        await migrate(project.dir, env);
        // Each worker looks for itself (every second): ready once all of them answer so.
        const deadline = Date.now() + 15_000;
        const answers = async () => [...(await Promise.all([1, 2, 3, 4].map(() => call("GET", "/api/health/ready"))))].map((reply) => reply.status);
        while (!(await answers()).every((status) => status === 200)) {
          expect(Date.now(), waiting.output()).toBeLessThan(deadline);
          await sleep(200);
        }
        // The token is of another database's user: the app itself answers now, not the gate.
        for (let attempt = 0; attempt < 4; attempt += 1) expect((await call("GET", "/api/patients", { token })).status).toBe(401);
        expect(waiting.output()).toMatch(/"msg":"the database holds every migration: ready"/);
      } finally {
        await waiting.stop();
      }
      expect(waiting.process.exitCode).toBe(0);
    });

    it("answers 503 'not ready', never a 500, when the database lacks tables this build reads, logged with a request id (a second instance on a database whose tables went missing)", async () => {
      await migrate(project.dir, { ...serviceEnv, DATABASE_URL: unmigratedUrl, DIRECT_DATABASE_URL: "" });
      await dropTables(unmigratedUrl, project.dir, ["revoked_tokens", "doctors"]);
      const broken = await startService({ cwd: project.dir, env: { ...serviceEnv, DATABASE_URL: unmigratedUrl, DIRECT_DATABASE_URL: "", LOG_LEVEL: "error" } });
      try {
        const brokenToken = craftToken({ alg: "HS256", typ: "JWT" }, { ...decodeClaims(token), jti: `broken-db-${base}` });
        for (const [method, path] of [["GET", "/api/auth/me"], ["GET", "/api/doctors"]] as const) {
          const reply = await client(broken.baseUrl)(method, path, { token: brokenToken });
          replies.push(reply);
          expect(reply.status, path).toBe(503);
          expect(reply.body, path).toEqual({ type: "error", status: 503, message: "The service is not ready." });
          expect(reply.headers.get("retry-after")).toBe("5");
          expect(reply.text).not.toMatch(/prisma|sqlite|postgres|select|stack|\bat /i);
          const requestId = reply.headers.get("x-request-id");
          expect(requestId, "a request id to find the log line").toBeTruthy();
          await sleep(300);
          expect(broken.output()).toContain(requestId!);
        }
      } finally {
        await broken.stop();
      }
    });

    it("sends no X-Powered-By, even on errors the framework produces", async () => {
      for (const reply of [
        await call("GET", "/api/health"),
        await direct("POST", "/api/patients", { token, raw: "{", headers: { "Content-Type": "application/json" } }),
        await call("GET", "/nowhere"),
        await call("PATCH", "/api/patients", { token, body: {} }),
      ]) {
        expect(reply.headers.get("x-powered-by"), reply.request).toBeNull();
      }
    });
  });

  describe("the API's own description", () => {
    it.runIf(!externalProject || existsSync(join(externalProject, "openapi.json")))("serves openapi.json as generated, and a reference page with no external assets", async () => {
      const served = await call("GET", "/api/openapi.json");
      expect(served.status).toBe(200);
      expect(served.body).toEqual(JSON.parse(await readFile(join(project.dir, "openapi.json"), "utf8")));
      const page = await request("GET", "/api/docs/");
      expect(page.status).toBe(200);
      expect(page.text).toContain("<html");
      expect(page.text).not.toMatch(/(src|href)="https?:\/\//);
      const script = page.text.match(/src="(\.\/swagger-ui-bundle\.js)"/)?.[1];
      expect(script).toBeDefined();
      expect((await request("GET", "/api/docs/swagger-ui-bundle.js")).status).toBe(200);
    });
  });

  describe("§6 Customization (the generation gap)", () => {
    // src/custom/medical-record/: MedicalRecordController.update asks the policy first; the policy
    // refuses to change a record whose stored summary contains "[LOCKED]".
    it("MedicalRecordController asks its policy before the inherited update: 403 when denied, 200 otherwise", async () => {
      const patient = await createPatient();
      const open = await call("POST", "/api/medical-records", { token, body: { patient, summary: "Open", recorded_on: "2026-11-04" } });
      const locked = await call("POST", "/api/medical-records", { token, body: { patient, summary: "[LOCKED] Final", recorded_on: "2026-11-04" } });
      expect(open.status, open.text).toBe(201);
      expect(locked.status, locked.text).toBe(201);
      const allowed = await call("PATCH", `/api/medical-records/${open.body.data.public_id}`, { token, body: { summary: "Amended" } });
      expect(allowed.status).toBe(200);
      expect(allowed.body.data).toMatchObject({ public_id: open.body.data.public_id, summary: "Amended" });
      for (const method of ["PATCH", "PUT"]) {
        const denied = await call(method, `/api/medical-records/${locked.body.data.public_id}`, { token, body: { summary: "Amended" } });
        expect(denied.status, method).toBe(403);
        expect(denied.body, method).toEqual({ type: "error", status: 403, message: "This action is unauthorized." });
      }
      // The policy runs before the payload is validated (order of checks: 401 → 404 → 403 → 422).
      const deniedInvalid = await call("PATCH", `/api/medical-records/${locked.body.data.public_id}`, { token, body: { summary: 5 } });
      expect(deniedInvalid.status).toBe(403);
      const unknown = await call("PATCH", "/api/medical-records/MRE_AAAAAAAA", { token, body: { summary: "x" } });
      expect(unknown.status).toBe(404);
      const still = await call("GET", `/api/medical-records/${locked.body.data.public_id}`, { token });
      expect(still.body.data.summary).toBe("[LOCKED] Final");
      // Only update is customized: the rest keeps the generated behaviour.
      expect((await call("GET", `/api/medical-records/${locked.body.data.public_id}`, { token })).status).toBe(200);
    });
  });

  describe("Concurrency, instances and restarts", () => {
    it("answers GET /api/health 200 without a token", async () => {
      const reply = await call("GET", "/api/health");
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    });

    it("gives 100 concurrent creates 100 distinct hashes and 100 rows", async () => {
      const before = await total();
      const marker = `Burst${base}`;
      const burst = await Promise.all(Array.from({ length: 100 }, () => call("POST", "/api/patients", { token, body: { name: marker, cpf: cpf() } })));
      expect(burst.filter((reply) => reply.status !== 201).map((reply) => `${reply.status} ${reply.text}`)).toEqual([]);
      const hashes = burst.map((reply) => reply.body.data.hash as string);
      expect(new Set(hashes).size).toBe(100);
      for (const value of hashes) expect(value).toMatch(hash("PAT"));
      expect(await total()).toBe(before + 100);
      expect((await call("GET", `/api/patients?name=${marker}`, { token })).body.meta.total).toBe(100);
      // 800 symbols drawn from 32: every symbol shows up, none is grossly over-represented.
      const counts = new Map<string, number>();
      for (const value of hashes) for (const symbol of value.slice(4)) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
      expect([...ALPHABET].filter((symbol) => !counts.has(symbol))).toEqual([]);
      expect(Math.max(...counts.values())).toBeLessThan(75);
    });

    it("lets exactly one of 50 concurrent creates with the same unique value win; the others get 422", async () => {
      const same = cpf();
      const race = await Promise.all(Array.from({ length: 50 }, () => call("POST", "/api/patients", { token, body: { name: "Race", cpf: same } })));
      const statuses = race.map((reply) => reply.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 422)).toHaveLength(49);
      for (const reply of race.filter((candidate) => candidate.status === 422)) expect(reply.body.errors).toEqual({ cpf: ["The cpf has already been taken."] });
      expect((await call("GET", `/api/patients?cpf=${same}`, { token })).body.meta.total).toBe(1);
    });

    it("honours on a second instance (same database) a logout made on the first", async () => {
      const second = await startService({ cwd: project.dir, env: serviceEnv });
      try {
        const session = (await login()).body.data.access_token as string;
        const other = client(second.baseUrl);
        expect((await other("GET", "/api/auth/me", { token: session })).status).toBe(200);
        expect((await call("POST", "/api/auth/logout", { token: session })).status).toBe(200);
        const after = await other("GET", "/api/auth/me", { token: session });
        replies.push(after);
        expect(after.status).toBe(401);
        // And the other way round, with refresh.
        const next = (await login()).body.data.access_token as string;
        expect((await other("POST", "/api/auth/refresh", { token: next })).status).toBe(200);
        expect((await call("GET", "/api/auth/me", { token: next })).status).toBe(401);
      } finally {
        await second.stop();
      }
    });

    it("stops gracefully on SIGTERM (exit 0, not the forced exit 1) and keeps data and revocations across the restart", async () => {
      const patient = await createPatient();
      const session = (await login()).body.data.access_token as string;
      expect((await call("POST", "/api/auth/logout", { token: session })).status).toBe(200);
      // A request in flight when the signal arrives is still answered.
      const inFlight = direct("GET", "/api/patients?per_page=100", { token });
      await sleep(5);
      const stopped = await service!.stop("SIGTERM");
      // Exit 0 is the graceful path: the forced one (requests still open after 10 s) exits 1. No clock
      // decides this test (issue 20).
      expect(stopped.exitCode, service!.output()).toBe(0);
      expect((await inFlight.catch(() => undefined))?.status ?? 200).toBe(200);
      service = undefined;
      await connect();
      expect((await call("GET", `/api/patients/${patient}`, { token })).status).toBe(200);
      expect((await call("GET", "/api/auth/me", { token: session })).status).toBe(401);
      expect((await call("GET", "/api/auth/me", { token })).status).toBe(200);
    });
  });

  describe("Scale-out and crash safety", () => {
    it("serves from one instance what another created, and spreads 200 concurrent creates over both", async () => {
      const second = await startService({ cwd: project.dir, env: serviceEnv });
      try {
        const other = client(second.baseUrl);
        const created = await createPatient();
        expect((await other("GET", `/api/patients/${created}`, { token })).status).toBe(200);
        const marker = `Spread${base}`;
        const spread = await Promise.all(
          Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? call : other)("POST", "/api/patients", { token, body: { name: marker, cpf: cpf() } })),
        );
        expect(spread.filter((reply) => reply.status !== 201).map((reply) => reply.text)).toEqual([]);
        expect(new Set(spread.map((reply) => reply.body.data.hash)).size).toBe(200);
        expect((await other("GET", `/api/patients?name=${marker}`, { token })).body.meta.total).toBe(200);
      } finally {
        await second.stop();
      }
    }, 120_000);

    /** Creates patients continuously until `until` resolves; returns what was sent and what was answered 201. */
    async function createContinuously(baseUrl: string, marker: string, until: Promise<unknown>) {
      const post = client(baseUrl);
      const sent: string[] = [];
      const confirmed: { hash: string; cpf: string }[] = [];
      const failures: number[] = [];
      let done = false;
      void until.then(() => (done = true));
      const worker = async () => {
        while (!done) {
          const value = cpf();
          sent.push(value);
          const reply = await post("POST", "/api/patients", { token, body: { name: marker, cpf: value } }).catch(() => undefined);
          if (reply?.status === 201) confirmed.push({ hash: reply.body.data.hash, cpf: value });
          else if (reply) failures.push(reply.status);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      return { sent, confirmed, failures };
    }

    async function expectDurable(marker: string, sent: string[], confirmed: { hash: string; cpf: string }[]) {
      expect(confirmed.length).toBeGreaterThan(10);
      for (const record of confirmed) {
        const reply = await call("GET", `/api/patients/${record.hash}`, { token });
        expect(reply.status, record.hash).toBe(200);
        expect(reply.body.data).toMatchObject({ name: marker, cpf: record.cpf });
      }
      const stored = (await call("GET", `/api/patients?name=${marker}&per_page=100&page=1`, { token })).body.meta.total;
      // Requests in flight at the crash may or may not have committed; none may exist twice.
      expect(stored).toBeGreaterThanOrEqual(confirmed.length);
      expect(stored).toBeLessThanOrEqual(sent.length);
      const pages = Math.ceil(stored / 100);
      const rows: { cpf: string }[] = [];
      for (let page = 1; page <= pages; page += 1) {
        rows.push(...(await call("GET", `/api/patients?name=${marker}&per_page=100&page=${page}`, { token })).body.data);
      }
      expect(new Set(rows.map((row) => row.cpf)).size).toBe(rows.length);
      expect(rows.every((row) => sent.includes(row.cpf))).toBe(true);
    }

    it("keeps every answered create after the service is killed with SIGKILL mid-load", async () => {
      const victim = await startService({ cwd: project.dir, env: { ...serviceEnv, WEB_CONCURRENCY: "1" } });
      const marker = `Crash${base}`;
      const killed = sleep(1500).then(() => victim.stop("SIGKILL"));
      const { sent, confirmed } = await createContinuously(victim.baseUrl, marker, killed);
      await killed;
      await expectDurable(marker, sent, confirmed);
    }, 120_000);

    it.runIf(database === "postgresql")("keeps every answered create when PostgreSQL stops with -m immediate mid-load, and reconnects", async () => {
      const marker = `PgCrash${base}`;
      const crashed = sleep(1500).then(() => postgres!.stop("immediate"));
      const { sent, confirmed, failures } = await createContinuously(service!.baseUrl, marker, crashed);
      await crashed;
      // While the database is away the service mostly says so (503 "not ready"); what it answered is
      // kept for the message of a failure below (test/integration/pgbouncer.test.ts pins the errors).
      void failures;
      await postgres!.start();
      // The pool drops the broken connections and opens new ones: the same process serves again.
      let recovered = 0;
      for (let attempt = 0; attempt < 50 && recovered !== 200; attempt += 1) {
        recovered = (await call("GET", "/api/patients?per_page=1", { token })).status;
        if (recovered !== 200) await sleep(200);
      }
      expect(recovered).toBe(200);
      await expectDurable(marker, sent, confirmed);
      expect((await call("POST", "/api/patients", { token, body: { name: "After", cpf: cpf() } })).status).toBe(201);
    }, 120_000);
  });

  describe("Every response (§1, §2, §5)", () => {
    it("had status equal to the HTTP status, and every error was the JSON envelope", () => {
      expect(replies.length).toBeGreaterThan(300);
      const json = replies.filter((reply) => reply.body && typeof reply.body === "object" && !Array.isArray(reply.body) && "status" in reply.body);
      expect(json.filter((reply) => reply.body.status !== reply.status).map((reply) => `${reply.request}: HTTP ${reply.status}, body ${reply.body.status}`)).toEqual([]);
      const badErrors = replies
        .filter((reply) => reply.status >= 400)
        .filter((reply) => {
          const body = reply.body;
          if (!body || body.type !== "error" || body.status !== reply.status || typeof body.message !== "string") return true;
          if (!/^application\/json/.test(reply.headers.get("content-type") ?? "")) return true;
          const keys = Object.keys(body);
          return keys.some((key) => !["type", "status", "message", "errors"].includes(key)) || ("errors" in body) !== (reply.status === 422);
        })
        .map((reply) => `${reply.request} → ${reply.status}: ${reply.text.slice(0, 200)}`);
      expect(badErrors).toEqual([]);
    });

    it("had no internal id, foreign key or column name in any body or error message, and no X-Powered-By", () => {
      expect(replies.flatMap(scanReply)).toEqual([]);
      expect(replies.filter((reply) => reply.headers.get("x-powered-by") !== null).map((reply) => reply.request)).toEqual([]);
    });

    it.runIf(proxied)("agreed with openapi.json: no response violated it, no accepted request violated it", () => {
      const violations = replies.flatMap((reply) => {
        const header = reply.headers.get("sl-violations");
        const found = header ? (JSON.parse(header) as { location: string[]; message: string }[]) : [];
        return found
          .filter((violation) => violation.location[0] === "response" || reply.status < 300)
          .map((violation) => `${reply.request} → ${reply.status} ${violation.location.join(".")}: ${violation.message}`);
      });
      expect(replies.filter((reply) => reply.headers.has("sl-violations")).length).toBeGreaterThan(0);
      expect(violations).toEqual([]);
    });
  });
});
