import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  client,
  craftToken,
  decodeClaims,
  jwtSecret,
  leakedKeys,
  prepareProject,
  startService,
  type Reply,
  type RunningService,
  startContractProxy,
  type Proxy,
} from "../support/service.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * The API contract (../shared/docs/api-contract.md), point by point, over real HTTP against the
 * service that `hashapi generate specs/` emits, running as a real process on SQLite.
 */

const hash = (prefix: string) => new RegExp(`^${prefix}_[A-HJ-NP-Z2-9]{8}$`);
const targets = [
  { label: "SQLite", database: "sqlite", proxied: false },
  ...(postgresBinDir() || process.env.CI ? [{ label: "PostgreSQL", database: "postgresql", proxied: false }] : []),
  // Once more through Stoplight Prism: every real response is checked against openapi.json.
  { label: "SQLite through the Prism contract proxy", database: "sqlite", proxied: true },
] as const;

describe.each(targets)("api-contract.md on $label", ({ database, proxied }) => {
let proxy: Proxy | undefined;
let postgres: PostgresServer | undefined;
let serviceEnv: Record<string, string> = {};
let unmigratedUrl = "file:./data/not-migrated.db";
let project: string;
let service: RunningService | undefined;
let request: ReturnType<typeof client>;
let token: string;
let counter = 0;
const replies: Reply[] = [];

async function call(method: string, path: string, options: Parameters<ReturnType<typeof client>>[2] = {}): Promise<Reply> {
  const reply = await request(method, path, options);
  replies.push(reply);
  return reply;
}

async function login(email = admin.email, password = admin.password): Promise<Reply> {
  return call("POST", "/api/auth/login", { body: { email, password } });
}

const cpf = () => String(10_000_000_000 + (counter += 1) * 7919);
async function createPatient(extra: object = {}): Promise<string> {
  const reply = await call("POST", "/api/patients", { token, body: { name: `Patient ${counter}`, cpf: cpf(), ...extra } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data.hash;
}
async function createDoctor(): Promise<string> {
  const reply = await call("POST", "/api/doctors", { token, body: { name: "Dr. House", crm: `CRM-${(counter += 1)}` } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data.hash;
}
async function createAppointment(patient: string, doctor: string): Promise<Reply> {
  return call("POST", "/api/appointments", { token, body: { patient, doctor, scheduled_at: "2026-12-01T10:00:00.000Z" } });
}

beforeAll(async () => {
  if (database === "postgresql") {
    postgres = await startPostgres();
    await postgres.createDatabase("clinic");
    await postgres.createDatabase("unmigrated");
    serviceEnv = { DATABASE_URL: postgres.url("clinic") };
    unmigratedUrl = postgres.url("unmigrated");
    project = await prepareProject("e2e-postgresql", "postgresql", postgres.url("clinic"));
  } else {
    project = await prepareProject(proxied ? "e2e-prism" : "e2e-sqlite");
  }
  await connect();
  token = (await login()).body.data.access_token;
}, 300_000);

/** Points the test client at the service, or at a Prism proxy in front of it. */
async function connect(): Promise<void> {
  service ??= await startService(project, serviceEnv);
  await proxy?.stop();
  proxy = proxied ? await startContractProxy(project, service.baseUrl) : undefined;
  request = client(proxy?.baseUrl ?? service.baseUrl);
}

afterAll(async () => {
  await proxy?.stop();
  await service?.stop();
  await postgres?.destroy();
  if (project) await Promise.all([project, `${project}-specs`].map((path) => rm(path, { recursive: true, force: true })));
});

describe("§1 envelopes", () => {
  it("wraps a record, a message, a list and an error; status equals the HTTP status", async () => {
    const created = await call("POST", "/api/patients", { token, body: { name: "Envelope", cpf: cpf() } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: "success", status: 201, data: { name: "Envelope" } });
    expect(created.headers.get("content-type")).toBe("application/json; charset=utf-8");

    const list = await call("GET", "/api/patients", { token });
    expect(Object.keys(list.body)).toEqual(["type", "status", "data", "links", "meta"]);

    const deleted = await call("DELETE", `/api/patients/${created.body.data.hash}`, { token });
    expect(deleted.body).toEqual({ type: "success", status: 200, message: "Resource deleted." });

    const error = await call("GET", "/api/patients/PAT_AAAAAAAA", { token });
    expect(error.body).toEqual({ type: "error", status: 404, message: "Resource not found." });
  });

  it("returns /api/auth/me bare", async () => {
    const me = await call("GET", "/api/auth/me", { token });
    expect(me.body).toEqual({ hash: expect.stringMatching(hash("USR")), name: admin.name, email: admin.email });
  });
});

describe("§2 public identifiers", () => {
  it("gives every resource hashes with its prefix (derived, multi-word and explicit)", async () => {
    const patient = await createPatient();
    const doctor = await createDoctor();
    const appointment = await createAppointment(patient, doctor);
    const record = await call("POST", "/api/medical-records", { token, body: { patient, summary: "Checkup", recorded_on: "2026-11-02", weight_kg: 72.5 } });
    expect(patient).toMatch(hash("PAT"));
    expect(doctor).toMatch(hash("DOC"));
    expect(appointment.body.data.hash).toMatch(hash("APT"));
    expect(record.body.data.public_id).toMatch(hash("MRE"));
    expect(record.body.data.hash).toBeUndefined();
  });

  it("rejects a client-supplied hash or id with 422", async () => {
    const reply = await call("POST", "/api/patients", { token, body: { name: "X", cpf: cpf(), hash: "PAT_AAAAAAAA", id: 5 } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ hash: ["The hash field is prohibited."], id: ["The id field is prohibited."] });
  });

  it("answers 404 for another prefix's well-formed hash and for numeric ids", async () => {
    const doctor = await createDoctor();
    for (const path of [`/api/patients/${doctor.replace("DOC", "DOC")}`, "/api/patients/1", `/api/patients/${doctor.replace("DOC_", "PAT_")}`]) {
      expect((await call("GET", path, { token })).status, path).toBe(404);
    }
  });
});

describe("§3 authentication", () => {
  it("logs in with the token shape, no-store, and distinct tokens in the same second", async () => {
    const [first, second] = await Promise.all([login(), login()]);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 3600 });
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body.data.access_token).not.toBe(second.body.data.access_token);
    const claims = decodeClaims(first.body.data.access_token);
    expect(claims).toMatchObject({ sub: expect.stringMatching(hash("USR")), jti: expect.any(String), iat: expect.any(Number), exp: expect.any(Number), iss: expect.any(String), aud: expect.any(String) });

    await call("POST", "/api/auth/logout", { token: first.body.data.access_token });
    expect((await call("GET", "/api/auth/me", { token: first.body.data.access_token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: second.body.data.access_token })).status).toBe(200);
  });

  it("answers 422 for missing fields and the same 401 for a wrong password and an unknown e-mail", async () => {
    expect((await call("POST", "/api/auth/login", { body: {} })).status).toBe(422);
    const wrongPassword = await login(admin.email, "wrong password");
    const unknownEmail = await login("nobody@example.com", "wrong password");
    for (const reply of [wrongPassword, unknownEmail]) expect(reply.body).toEqual({ type: "error", status: 401, message: "Invalid credentials." });
  });

  it("throttles repeated failures with 429 and Retry-After", async () => {
    const email = "throttled@example.com";
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await login(email, "nope")).status).toBe(401);
    const blocked = await login(email, "nope");
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ type: "error", status: 429, message: "Too many attempts." });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses every forged, misdirected or stale token with 401 Unauthenticated and WWW-Authenticate", async () => {
    const claims = decodeClaims(token);
    const now = Math.floor(Date.now() / 1000);
    const valid = { ...claims, jti: "forged", iat: now, exp: now + 600 };
    const forged = {
      "alg none": craftToken({ alg: "none", typ: "JWT" }, valid, null),
      "HS512 with the same secret": craftToken({ alg: "HS512", typ: "JWT" }, valid, jwtSecret, "sha512"),
      "wrong signature": craftToken({ alg: "HS256", typ: "JWT" }, valid, "another-secret-another-secret-another"),
      "wrong issuer": craftToken({ alg: "HS256", typ: "JWT" }, { ...valid, iss: "someone-else" }),
      "wrong audience": craftToken({ alg: "HS256", typ: "JWT" }, { ...valid, aud: "someone-else" }),
      "no exp": craftToken({ alg: "HS256", typ: "JWT" }, { ...valid, exp: undefined }),
      "past exp": craftToken({ alg: "HS256", typ: "JWT" }, { ...valid, exp: now - 10 }),
      "future nbf": craftToken({ alg: "HS256", typ: "JWT" }, { ...valid, nbf: now + 600 }),
      "deleted user": craftToken({ alg: "HS256", typ: "JWT" }, { ...valid, sub: "USR_AAAAAAAA" }),
    };
    // The control: the same crafting with the right key and claims is accepted.
    expect((await call("GET", "/api/auth/me", { token: craftToken({ alg: "HS256", typ: "JWT" }, valid) })).status).toBe(200);
    for (const [name, forgedToken] of Object.entries(forged)) {
      const reply = await call("GET", "/api/auth/me", { token: forgedToken });
      expect(reply.status, name).toBe(401);
      expect(reply.body, name).toEqual({ type: "error", status: 401, message: "Unauthenticated." });
      expect(reply.headers.get("www-authenticate"), name).toBe("Bearer");
    }
  });

  it("accepts tokens only in the Authorization header", async () => {
    expect((await call("GET", `/api/auth/me?token=${token}`)).status).toBe(401);
    expect((await call("GET", `/api/patients?access_token=${token}`)).status).toBe(401);
  });

  it("refreshes a token, even expired, within the refresh window, and revokes the presented one", async () => {
    const fresh = (await login()).body.data.access_token;
    const refreshed = await call("POST", "/api/auth/refresh", { token: fresh });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get("cache-control")).toBe("no-store");
    expect((await call("GET", "/api/auth/me", { token: fresh })).status).toBe(401);
    expect((await call("POST", "/api/auth/refresh", { token: fresh })).status).toBe(401);

    const claims = decodeClaims(refreshed.body.data.access_token);
    const now = Math.floor(Date.now() / 1000);
    const expired = craftToken({ alg: "HS256", typ: "JWT" }, { ...claims, jti: "expired-in-window", iat: now - 7200, exp: now - 3600 });
    expect((await call("GET", "/api/auth/me", { token: expired })).status).toBe(401);
    const renewed = await call("POST", "/api/auth/refresh", { token: expired });
    expect(renewed.status).toBe(200);
    const outside = craftToken({ alg: "HS256", typ: "JWT" }, { ...claims, jti: "outside-window", auth_time: now - 1209600 - 10, iat: now - 7200, exp: now - 3600 });
    expect((await call("POST", "/api/auth/refresh", { token: outside })).status).toBe(401);
  });

  it("refuses to start in production without a JWT_SECRET of at least 32 bytes, with a clear message", async () => {
    for (const secret of ["", "short-secret"]) {
      await expect(startService(project, { ...serviceEnv, JWT_SECRET: secret })).rejects.toThrow(
        /service exited early:\nInvalid configuration:\n {2}- JWT_SECRET must be set to at least 32 bytes in production/,
      );
    }
  });

  it("refuses to start on an unreachable database with a one-line message, not a stack trace", async () => {
    const unreachable = database === "postgresql" ? "postgresql://hashapi@127.0.0.1:1/none" : "file:/nonexistent-dir/none.db";
    const failure = startService(project, { ...serviceEnv, DATABASE_URL: unreachable, WEB_CONCURRENCY: "1" });
    await expect(failure).rejects.toThrow(/service exited early:\nCannot open the database at DATABASE_URL: .+\n$/);
  });

  it("requires a token on resource routes unless the action is public", async () => {
    expect((await call("GET", "/api/patients")).status).toBe(401);
    expect((await call("GET", "/api/doctors")).status).toBe(200);
    const doctor = await createDoctor();
    expect((await call("GET", `/api/doctors/${doctor}`)).status).toBe(200);
    expect((await call("POST", "/api/doctors", { body: { name: "X", crm: "1" } })).status).toBe(401);
  });
});

describe("§4 resource endpoints", () => {
  it("paginates with Laravel's links and meta, validates page and per_page", async () => {
    const marker = `Page${Date.now()}`;
    for (let index = 0; index < 12; index += 1) await createPatient({ name: marker });
    const page = await call("GET", `/api/patients?name=${marker}&per_page=5&page=2`, { token });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(5);
    // Behind the Prism proxy the service sees the proxy's forwarded Host; directly, its own.
    const path = `${proxied ? new URL(page.body.meta.path).origin : service!.baseUrl}/api/patients`;
    expect(page.body.meta).toEqual({ current_page: 2, from: 6, last_page: 3, path, per_page: 5, to: 10, total: 12 });
    expect(page.body.links).toEqual({
      first: `${path}?name=${marker}&per_page=5&page=1`,
      last: `${path}?name=${marker}&per_page=5&page=3`,
      prev: `${path}?name=${marker}&per_page=5&page=1`,
      next: `${path}?name=${marker}&per_page=5&page=3`,
    });
    const names = (await call("GET", `/api/patients?name=${marker}&per_page=100`, { token })).body.data.map((row: { hash: string }) => row.hash);
    const pages = [1, 2, 3].map((number) => call("GET", `/api/patients?name=${marker}&per_page=5&page=${number}`, { token }));
    expect((await Promise.all(pages)).flatMap((reply) => reply.body.data.map((row: { hash: string }) => row.hash))).toEqual(names);
    for (const query of ["per_page=0", "per_page=101", "per_page=abc", "page=0", "page=-1", "per_page=1&per_page=2"]) {
      expect((await call("GET", `/api/patients?${query}`, { token })).status, query).toBe(422);
    }
  });

  it("sorts by declared fields, filters exactly, and rejects unknown ones", async () => {
    const marker = `Sort${Date.now()}`;
    await createPatient({ name: marker, phone: "b" });
    await createPatient({ name: marker, phone: "a" });
    const sorted = await call("GET", `/api/patients?name=${marker}&sort=phone`, { token });
    expect(sorted.body.data.map((row: { phone: string }) => row.phone)).toEqual(["a", "b"]);
    const reversed = await call("GET", `/api/patients?name=${marker}&sort=-phone,created_at`, { token });
    expect(reversed.body.data.map((row: { phone: string }) => row.phone)).toEqual(["b", "a"]);
    expect((await call("GET", "/api/patients?sort=password", { token })).status).toBe(422);
    expect((await call("GET", "/api/patients?nickname=x", { token })).status).toBe(422);
    expect((await call("GET", "/api/patients?with=doctors", { token })).status).toBe(422);
  });

  it("filters by a belongsTo hash and nests eager and requested relations", async () => {
    const patient = await createPatient();
    const doctor = await createDoctor();
    const other = await createDoctor();
    await createAppointment(patient, doctor);
    await createAppointment(patient, other);
    const filtered = await call("GET", `/api/appointments?doctor=${doctor}`, { token });
    expect(filtered.body.data).toHaveLength(1);
    const appointment = filtered.body.data[0];
    expect(appointment.doctor).toMatchObject({ hash: doctor, name: "Dr. House", specialty: "general" });
    expect(appointment.patient).toMatchObject({ hash: patient });
    expect(appointment.status).toBe("scheduled");

    const record = await call("POST", "/api/medical-records", { token, body: { patient, summary: "Flu", recorded_on: "2026-11-03", weight_kg: "72.5" } });
    expect(record.body.data).toMatchObject({ patient, recorded_on: "2026-11-03", weight_kg: "72.50" });
    const withPatient = await call("GET", `/api/medical-records/${record.body.data.public_id}?with=patient`, { token });
    expect(withPatient.body.data.patient).toMatchObject({ hash: patient });
    const patientWith = await call("GET", `/api/patients/${patient}?with=appointments`, { token });
    expect(patientWith.body.data.appointments).toHaveLength(2);
    expect(patientWith.body.data.appointments[0].doctor).toMatch(hash("DOC"));
  });

  it("updates only the sent fields with PUT and PATCH, validating by the update rules", async () => {
    const patient = await createPatient({ phone: "111" });
    const before = (await call("GET", `/api/patients/${patient}`, { token })).body.data;
    const patched = await call("PATCH", `/api/patients/${patient}`, { token, body: { name: "Renamed" } });
    expect(patched.body.data).toMatchObject({ hash: patient, name: "Renamed", cpf: before.cpf, phone: "111" });
    const put = await call("PUT", `/api/patients/${patient}`, { token, body: { phone: null } });
    expect(put.body.data).toMatchObject({ name: "Renamed", phone: null });
    const invalid = await call("PATCH", `/api/patients/${patient}`, { token, body: { cpf: "123" } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({ cpf: ["The cpf field must be 11 digits."] });
    expect((await call("PATCH", `/api/patients/${patient}`, { token, body: { cpf: before.cpf } })).status).toBe(200);
  });

  it("reports unique violations as 422 on create and update", async () => {
    const taken = cpf();
    await createPatient({ cpf: taken });
    const duplicate = await call("POST", "/api/patients", { token, body: { name: "Twin", cpf: taken } });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors).toEqual({ cpf: ["The cpf has already been taken."] });
    const other = await createPatient();
    const update = await call("PATCH", `/api/patients/${other}`, { token, body: { cpf: taken } });
    expect(update.body.errors).toEqual({ cpf: ["The cpf has already been taken."] });
  });

  it("writes belongsTo by hash and refuses unknown or soft-deleted targets", async () => {
    const doctor = await createDoctor();
    const unknown = await createAppointment("PAT_AAAAAAAA", doctor);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ patient: ["The selected patient is invalid."] });
    const gone = await createPatient();
    await call("DELETE", `/api/patients/${gone}`, { token });
    expect((await createAppointment(gone, doctor)).body.errors).toEqual({ patient: ["The selected patient is invalid."] });
    expect((await createAppointment(doctor, doctor)).body.errors).toEqual({ patient: ["The selected patient is invalid."] });
  });

  it("refuses to delete a referenced record with 409", async () => {
    const patient = await createPatient();
    const doctor = await createDoctor();
    await createAppointment(patient, doctor);
    const reply = await call("DELETE", `/api/doctors/${doctor}`, { token });
    expect(reply.body).toEqual({ type: "error", status: 409, message: "Resource is referenced by other records." });
    expect((await call("GET", `/api/doctors/${doctor}`, { token })).status).toBe(200);
  });

  it("soft-deletes, hides, lists with_trashed, and restores", async () => {
    const patient = await createPatient();
    await call("DELETE", `/api/patients/${patient}`, { token });
    expect((await call("GET", `/api/patients/${patient}`, { token })).status).toBe(404);
    expect((await call("PATCH", `/api/patients/${patient}`, { token, body: { name: "x" } })).status).toBe(404);
    expect((await call("DELETE", `/api/patients/${patient}`, { token })).status).toBe(404);
    const live = await call("GET", "/api/patients?per_page=100&sort=-created_at", { token });
    expect(live.body.data.map((row: { hash: string }) => row.hash)).not.toContain(patient);
    const trashed = await call("GET", "/api/patients?with_trashed=true&per_page=100&sort=-created_at", { token });
    const row = trashed.body.data.find((candidate: { hash: string }) => candidate.hash === patient);
    expect(row.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const restored = await call("POST", `/api/patients/${patient}/restore`, { token });
    expect(restored.body.data).toMatchObject({ hash: patient, deleted_at: null });
    expect((await call("POST", `/api/patients/${patient}/restore`, { token })).status).toBe(404);
    expect((await call("POST", `/api/doctors/${await createDoctor()}/restore`, { token })).status).toBe(404);
  });
});

describe("§5 errors", () => {
  it("answers body problems in the envelope: 400, 413, 415", async () => {
    // A proxy cannot forward what it cannot parse: these go to the service itself.
    const call = async (...args: Parameters<ReturnType<typeof client>>) => client(service!.baseUrl)(...args);
    const malformed = await call("POST", "/api/patients", { token, raw: '{"name": "x",', headers: { "Content-Type": "application/json" } });
    expect(malformed.body).toEqual({ type: "error", status: 400, message: "Malformed JSON body." });
    const large = await call("POST", "/api/patients", { token, raw: JSON.stringify({ name: "x".repeat(120 * 1024) }), headers: { "Content-Type": "application/json" } });
    expect(large.body).toEqual({ type: "error", status: 413, message: "Payload too large." });
    const text = await call("POST", "/api/patients", { token, raw: "name=x", headers: { "Content-Type": "text/plain" } });
    expect(text.body).toEqual({ type: "error", status: 415, message: "Unsupported media type." });
  });

  it("answers unknown routes with 404 and wrong methods with 405 and Allow", async () => {
    expect((await call("GET", "/api/nothing-here", { token })).body).toEqual({ type: "error", status: 404, message: "Resource not found." });
    expect((await call("GET", "/elsewhere")).status).toBe(404);
    const wrong = await call("DELETE", "/api/patients", { token });
    expect(wrong.body).toEqual({ type: "error", status: 405, message: "Method not allowed." });
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("refuses prototype pollution with 422 and never applies it", async () => {
    const attempts: [string, string][] = [
      [`{"name":"P","cpf":"${cpf()}","__proto__":{"polluted":true}}`, "__proto__"],
      [`{"name":"P","cpf":"${cpf()}","constructor":{"prototype":{"polluted":true}}}`, "constructor"],
    ];
    for (const [raw, key] of attempts) {
      const reply = await call("POST", "/api/patients", { token, raw, headers: { "Content-Type": "application/json" } });
      expect(reply.status).toBe(422);
      expect(Object.keys(reply.body.errors)).toEqual([key]);
      expect(reply.text).not.toContain("polluted");
    }
    const after = await call("GET", "/api/patients", { token });
    expect(after.text).not.toContain("polluted");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers a repeated query parameter with 422, not 500", async () => {
    const reply = await call("GET", "/api/patients?sort=name&sort=cpf", { token });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.sort).toBeDefined();
  });

  it("answers an unexpected failure with a bare 500 and logs it with the request id", async () => {
    // A second instance on a database nobody migrated: every query fails inside Prisma.
    const broken = await startService(project, { DATABASE_URL: unmigratedUrl, LOG_LEVEL: "error" });
    try {
      const brokenToken = craftToken({ alg: "HS256", typ: "JWT" }, { ...decodeClaims(token), jti: "broken-db" });
      const reply = await client(broken.baseUrl)("GET", "/api/auth/me", { token: brokenToken });
      expect(reply.body).toEqual({ type: "error", status: 500, message: "Server Error" });
      expect(reply.text).not.toMatch(/prisma|sqlite|select|stack|\bat /i);
      const requestId = reply.headers.get("x-request-id")!;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(broken.output()).toContain(requestId);
    } finally {
      await broken.stop();
    }
  });
});

describe("the API's own description", () => {
  it("serves openapi.json as generated, and a reference page with no external assets", async () => {
    const served = await call("GET", "/api/openapi.json");
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(await readFile(join(project, "openapi.json"), "utf8")));
    const page = await request("GET", "/api/docs/");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<html");
    expect(page.text).not.toMatch(/(src|href)="https?:\/\//);
    const script = page.text.match(/src="(\.\/swagger-ui-bundle\.js)"/)?.[1];
    expect(script).toBeDefined();
    expect((await request("GET", "/api/docs/swagger-ui-bundle.js")).status).toBe(200);
  });
});

describe("§6 customization (the generation gap)", () => {
  it("MedicalRecordController asks its policy before the inherited update", async () => {
    const patient = await createPatient();
    const open = await call("POST", "/api/medical-records", { token, body: { patient, summary: "Open", recorded_on: "2026-11-04" } });
    const locked = await call("POST", "/api/medical-records", { token, body: { patient, summary: "[LOCKED] Final", recorded_on: "2026-11-04" } });
    expect((await call("PATCH", `/api/medical-records/${open.body.data.public_id}`, { token, body: { summary: "Amended" } })).status).toBe(200);
    const denied = await call("PATCH", `/api/medical-records/${locked.body.data.public_id}`, { token, body: { summary: "Amended" } });
    expect(denied.body).toEqual({ type: "error", status: 403, message: "This action is unauthorized." });
  });
});

describe("concurrency, instances and restarts", () => {
  it("gives 100 concurrent creates 100 distinct hashes and 100 rows", async () => {
    const marker = `Burst${Date.now()}`;
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => call("POST", "/api/patients", { token, body: { name: marker, cpf: cpf() } })),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(100).fill(201));
    expect(new Set(replies.map((reply) => reply.body.data.hash)).size).toBe(100);
    expect((await call("GET", `/api/patients?name=${marker}`, { token })).body.meta.total).toBe(100);
  });

  it("lets exactly one of 50 concurrent creates with the same unique value win", async () => {
    const same = cpf();
    const replies = await Promise.all(Array.from({ length: 50 }, () => call("POST", "/api/patients", { token, body: { name: "Race", cpf: same } })));
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(49);
  });

  it("honours on a second instance a logout made on the first", async () => {
    const second = await startService(project, serviceEnv);
    try {
      const session = (await login()).body.data.access_token;
      const other = client(second.baseUrl);
      expect((await other("GET", "/api/auth/me", { token: session })).status).toBe(200);
      await call("POST", "/api/auth/logout", { token: session });
      expect((await other("GET", "/api/auth/me", { token: session })).status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it("keeps data and revocations across a graceful restart", async () => {
    const patient = await createPatient();
    const session = (await login()).body.data.access_token;
    await call("POST", "/api/auth/logout", { token: session });
    expect(await service!.stop("SIGTERM")).toBe(0);
    service = await startService(project, serviceEnv);
    await connect();
    expect((await call("GET", `/api/patients/${patient}`, { token })).status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: session })).status).toBe(401);
  });
});

describe("scale-out and crash safety", () => {
  it("serves from one instance what another created, and spreads 200 concurrent creates over both", async () => {
    const second = await startService(project, serviceEnv);
    try {
      const other = client(second.baseUrl);
      const created = await createPatient();
      expect((await other("GET", `/api/patients/${created}`, { token })).status).toBe(200);
      const marker = `Spread${Date.now()}`;
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          (index % 2 === 0 ? call : other)("POST", "/api/patients", { token, body: { name: marker, cpf: cpf() } }),
        ),
      );
      expect(replies.filter((reply) => reply.status !== 201).map((reply) => reply.text)).toEqual([]);
      expect(new Set(replies.map((reply) => reply.body.data.hash)).size).toBe(200);
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
    let done = false;
    void until.then(() => (done = true));
    const worker = async () => {
      while (!done) {
        const value = cpf();
        sent.push(value);
        const reply = await post("POST", "/api/patients", { token, body: { name: marker, cpf: value } }).catch(() => undefined);
        if (reply?.status === 201) confirmed.push({ hash: reply.body.data.hash, cpf: value });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return { sent, confirmed };
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
    const victim = await startService(project, { ...serviceEnv, WEB_CONCURRENCY: "1" });
    const marker = `Crash${Date.now()}`;
    const killed = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => victim.stop("SIGKILL"));
    const { sent, confirmed } = await createContinuously(victim.baseUrl, marker, killed);
    await killed;
    await expectDurable(marker, sent, confirmed);
  }, 120_000);

  it.runIf(database === "postgresql")("keeps every answered create when PostgreSQL stops with -m immediate mid-load, and reconnects", async () => {
    const marker = `PgCrash${Date.now()}`;
    const crashed = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => postgres!.stop("immediate"));
    const { sent, confirmed } = await createContinuously(service!.baseUrl, marker, crashed);
    await crashed;
    await postgres!.start();
    // The pool drops the broken connections and opens new ones: the same process serves again.
    let recovered = 0;
    for (let attempt = 0; attempt < 50 && recovered !== 200; attempt += 1) {
      recovered = (await call("GET", "/api/patients?per_page=1", { token })).status;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(200);
    await expectDurable(marker, sent, confirmed);
    expect((await call("POST", "/api/patients", { token, body: { name: "After", cpf: cpf() } })).status).toBe(201);
  }, 120_000);
});

describe("every response", () => {
  it("had no internal id, no foreign key and no X-Powered-By", () => {
    expect(replies.length).toBeGreaterThan(200);
    expect(replies.flatMap((reply) => leakedKeys(reply.body))).toEqual([]);
    expect(replies.filter((reply) => reply.headers.get("x-powered-by") !== null)).toEqual([]);
    expect(replies.filter((reply) => reply.body && typeof reply.body === "object" && "status" in reply.body && reply.body.status !== reply.status)).toEqual([]);
  });

  it.runIf(proxied)("agreed with openapi.json: no response violated it, no accepted request violated it", () => {
    const violations = replies.flatMap((reply) => {
      const header = reply.headers.get("sl-violations");
      const found = header ? (JSON.parse(header) as { location: string[]; message: string }[]) : [];
      return found
        .filter((violation) => violation.location[0] === "response" || reply.status < 300)
        .map((violation) => `${reply.status} ${violation.location.join(".")}: ${violation.message}`);
    });
    expect(replies.filter((reply) => reply.headers.has("sl-violations")).length).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });
});
});
