import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byStatus, createUser, databaseTargets, isErrorEnvelope, requestFrom, startHostileService, type HostileService } from "../support/hostile.js";
import { admin, client, rawHttp, startService, type Project, type Reply, type RequestOptions, type RunningService } from "../support/service.js";

/**
 * Issue 10, point by point: each way a single hostile request used to crash a worker, bypass a
 * limit, read what it should not or get a 500, on SQLite and PostgreSQL, against the real service
 * running two workers (node:cluster).
 */

/** `count` requests, six at a time: well inside the hashing limit, so only the throttle decides. */
async function inBatches(count: number, send: (index: number) => Promise<Reply>): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let start = 0; start < count; start += 6) {
    replies.push(...(await Promise.all(Array.from({ length: Math.min(6, count - start) }, (_, offset) => send(start + offset)))));
  }
  return replies;
}


describe.each(databaseTargets)("hostile clients on $label", ({ database }) => {
  let running: HostileService | undefined;
  let project: Project;
  let service: RunningService;
  let token: string;
  let patient: string;
  const call = (method: string, path: string, options: RequestOptions = {}) => client(service.baseUrl)(method, path, options);
  const raw = (head: string, body = "") => rawHttp(service.baseUrl, head, body);
  const rawJson = (method: string, path: string, body: string, headers = "") =>
    raw(`${method} ${path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nAuthorization: Bearer ${token}${headers}`, body);
  const measurement = (extra: object) => call("POST", "/api/measurements", { token, body: { label: "m", patient, ...extra } });
  let cpf = 30_000_000_000 + (Date.now() % 1_000_000) * 1000;

  beforeAll(async () => {
    running = await startHostileService("hostile", database);
    ({ project, service } = running);
    const login = await call("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } });
    expect(login.status, login.text).toBe(200);
    token = login.body.data.access_token;
    const created = await call("POST", "/api/patients", { token, body: { name: "Hostile", cpf: String((cpf += 1)) } });
    expect(created.status, created.text).toBe(201);
    patient = created.body.data.hash;
  }, 300_000);

  afterAll(async () => {
    await running?.stop();
  });

  /** No worker may have died: the supervisor names every exit. */
  function expectNoWorkerDied(): void {
    expect(service.output()).not.toMatch(/worker \d+ exited/);
  }

  describe("1. no input ends a process", () => {
    it("answers a body nested thousands of levels deep with a 422 envelope, on any path, without a token, and every worker lives", async () => {
      const deep = `{"email":${"[".repeat(5000)}${"]".repeat(5000)}}`;
      const replies = await Promise.all(
        ["/api/auth/login", "/api/nowhere", "/api/patients/PAT_AAAAAAAA", "/api/patients"].flatMap((path) =>
          [0, 1, 2].map(() => raw(`POST ${path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${deep.length}`, deep)),
        ),
      );
      for (const reply of replies) {
        expect(reply.status, reply.request).toBe(422);
        expect(reply.body.errors.email[0]).toMatch(/nested more than 32 levels/);
      }
      // 32 levels are fine: a json field may hold them.
      const nested = JSON.parse(`${"[".repeat(31)}1${"]".repeat(31)}`) as unknown;
      expect((await measurement({ extra: nested })).status).toBe(201);
      expect((await measurement({ extra: JSON.parse(`${"[".repeat(32)}1${"]".repeat(32)}`) })).status).toBe(422);
      expect((await call("GET", "/api/health")).status).toBe(200);
      expectNoWorkerDied();
    });

    it("answers what Node's own parser refuses in the envelope: 431 for oversized headers, 400 for a malformed request", async () => {
      const big = await raw(`GET /api/doctors HTTP/1.1\r\nX-Filler: ${"a".repeat(20_000)}`);
      expect(big.status).toBe(431);
      expect(isErrorEnvelope(big), big.text).toBe(true);
      const malformed = await raw("GET /api/doctors HTTP/1.1\r\nBad Header Line");
      expect(malformed.status).toBe(400);
      expect(isErrorEnvelope(malformed), malformed.text).toBe(true);
      expectNoWorkerDied();
    });
  });

  describe("2. login throttle", () => {
    it("counts parallel attempts before hashing: of 40 at once for one e-mail (39 wrong, the right one last) at most 5 get past the counter", async () => {
      const email = `victim-${database}@example.com`;
      await createUser(project.dir, project.env, email, "the right password");
      const attempts = [...Array.from({ length: 39 }, () => "wrong password"), "the right password"];
      const replies = await Promise.all(attempts.map((password) => requestFrom(service.baseUrl, "127.0.0.2", "POST", "/api/auth/login", { email, password })));
      const counts = byStatus(replies);
      expect((counts[401] ?? 0) + (counts[200] ?? 0), JSON.stringify(counts)).toBeLessThanOrEqual(5);
      expect(counts[429], JSON.stringify(counts)).toBeGreaterThanOrEqual(35);
      for (const reply of replies.filter((candidate) => candidate.status === 429)) expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    it("limits one client address trying many e-mails to 20 attempts a minute", async () => {
      const replies = await inBatches(24, (index) => requestFrom(service.baseUrl, "127.0.0.3", "POST", "/api/auth/login", { email: `spray-${index}@example.com`, password: "guess" }));
      expect(byStatus(replies)).toEqual({ 401: 20, 429: 4 });
    });

    it("limits one e-mail tried from many addresses to 20 attempts a minute", async () => {
      const email = `distributed-${database}@example.com`;
      const replies = await inBatches(24, (index) => requestFrom(service.baseUrl, `127.0.1.${index + 1}`, "POST", "/api/auth/login", { email, password: "guess" }));
      expect(byStatus(replies)).toEqual({ 401: 20, 429: 4 });
    });

    it("bounds password hashing per process: a burst of logins from many addresses is partly refused with 429 at once", async () => {
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, index) => requestFrom(service.baseUrl, `127.0.2.${index + 1}`, "POST", "/api/auth/login", { email: `burst-${index}@example.com`, password: "guess" })),
      );
      const counts = byStatus(replies);
      // Two workers × (2 hashing + 16 waiting) at most reach a password check.
      expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(36);
      expect(counts[429] ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(24);
      expect(Object.keys(counts).sort(), JSON.stringify(counts)).toEqual(["401", "429"]);
      expect((await call("GET", "/api/doctors")).status).toBe(200);
    });
  });

  describe("3. ?with= only nests what the caller may read", () => {
    it("refuses anonymous callers a relation to a non-public resource (401), on lists and records, and serves it with a token", async () => {
      const doctor = await call("POST", "/api/doctors", { token, body: { name: "Dr. With", crm: `W${Date.now() % 1e9}${database[0]}` } });
      const appointment = await call("POST", "/api/appointments", { token, body: { patient, doctor: doctor.body.data.hash, scheduled_at: "2026-12-01T10:00:00.000Z" } });
      expect(appointment.status, appointment.text).toBe(201);
      const created = await measurement({});
      for (const path of ["/api/doctors?with=appointments", `/api/doctors/${doctor.body.data.hash}?with=appointments`, "/api/measurements?with=patient", `/api/measurements/${created.body.data.hash}?with=patient`]) {
        const anonymous = await call("GET", path);
        expect(anonymous.status, path).toBe(401);
        expect(anonymous.text).not.toContain("Hostile");
        expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
        expect((await call("GET", path, { token })).status, path).toBe(200);
      }
      const nested = await call("GET", `/api/doctors/${doctor.body.data.hash}?with=appointments`, { token });
      expect(nested.body.data.appointments.map((row: { hash: string }) => row.hash)).toEqual([appointment.body.data.hash]);
      // What is public stays public.
      expect((await call("GET", "/api/doctors")).status).toBe(200);
      expect((await call("GET", `/api/measurements/${created.body.data.hash}`)).status).toBe(200);
    });
  });

  describe("4. what used to be a 500 is the right 4xx", () => {
    it("reads only its own filter names: Object.prototype member names are unknown parameters (422)", async () => {
      for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"]) {
        const reply = await call("GET", `/api/doctors?${key}=x`);
        expect(reply.status, key).toBe(422);
        expect(Object.keys(reply.body.errors), key).toEqual([key]);
        // The same names as payload keys are unknown keys too (or prototype keys), never a 500.
        const created = await call("POST", "/api/patients", { token, body: { name: "P", cpf: String((cpf += 1)), [key]: 1 } });
        expect(created.status, `${key}: ${created.text}`).toBe(422);
      }
    });

    it("answers a path segment whose percent-encoding does not decode with 400", async () => {
      for (const path of ["/api/doctors/%ZZ", "/api/patients/%E0%A4%A", "/api/patients/PAT_%FF/restore"]) {
        const reply = await call("GET", path, { token });
        expect(reply.status, path).toBeGreaterThanOrEqual(400);
        expect(reply.status, path).toBeLessThan(500);
        expect(isErrorEnvelope(reply), reply.text).toBe(true);
      }
      expect((await call("GET", "/api/doctors/%ZZ")).status).toBe(400);
    });

    it("answers a body whose Content-Encoding does not decode with 400", async () => {
      for (const encoding of ["gzip", "deflate", "br"]) {
        const reply = await rawJson("POST", "/api/patients", "this is not compressed", `\r\nContent-Encoding: ${encoding}`);
        expect(reply.status, encoding).toBe(400);
        expect(isErrorEnvelope(reply), reply.text).toBe(true);
      }
      // A real gzip body is still read.
      const body = JSON.stringify({ name: "Zipped", cpf: String((cpf += 1)) });
      const zipped = gzipSync(body);
      const reply = await new Promise<number>((resolve, reject) => {
        fetch(`${service.baseUrl}/api/patients`, { method: "POST", body: zipped, headers: { "Content-Type": "application/json", "Content-Encoding": "gzip", Authorization: `Bearer ${token}` } }).then((response) => resolve(response.status), reject);
      });
      expect(reply).toBe(201);
    });

    it("refuses a datetime with second 60 (422)", async () => {
      expect((await measurement({ taken_at: "2026-06-30T23:59:60Z" })).status).toBe(422);
      expect((await call("GET", "/api/appointments?scheduled_at=2026-06-30T23:59:60Z", { token })).status).toBe(422);
    });

    it("caps sort terms at the sortable fields and refuses duplicates (422)", async () => {
      const many = await call("GET", `/api/doctors?sort=${"name,".repeat(3000)}name`);
      expect(many.status).toBe(422);
      expect((await call("GET", "/api/doctors?sort=name,-name")).status).toBe(422);
      expect((await call("GET", "/api/doctors?sort=name,-crm")).status).toBe(200);
    });

    it("answers a delete racing inserts that reference the row with 409 or 200, and the inserts with 201 or 422, never 500", async () => {
      for (let round = 0; round < 6; round += 1) {
        const doctor = await call("POST", "/api/doctors", { token, body: { name: "Dr. Race", crm: `R${round}${Date.now() % 1e8}` } });
        const hash = doctor.body.data.hash;
        const inserts = Array.from({ length: 8 }, () => call("POST", "/api/appointments", { token, body: { patient, doctor: hash, scheduled_at: "2026-12-01T10:00:00.000Z" } }));
        const [deleted, ...created] = await Promise.all([call("DELETE", `/api/doctors/${hash}`, { token }), ...inserts]);
        expect([200, 409], deleted!.text).toContain(deleted!.status);
        for (const reply of created) expect([201, 422], reply.text).toContain(reply.status);
        // What was acknowledged is there: a deleted doctor has no appointment, a kept one has every created one.
        const listed = await call("GET", `/api/appointments?doctor=${hash}&per_page=100`, { token });
        expect(listed.status, listed.text).toBe(200);
        expect(listed.body.meta.total).toBe(created.filter((reply) => reply.status === 201).length);
        if (deleted!.status === 200) expect(listed.body.meta.total).toBe(0);
      }
      expectNoWorkerDied();
    });

    it("compares a `confirmed` field with its confirmation and never stores the copy", async () => {
      const ok = await measurement({ code: "ABC", code_confirmation: "ABC" });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.data.code).toBe("ABC");
      expect(ok.body.data).not.toHaveProperty("code_confirmation");
      const different = await measurement({ code: "ABC", code_confirmation: "ABD" });
      expect(different.status).toBe(422);
      expect(different.body.errors).toEqual({ code: ["The code field confirmation does not match."] });
      expect((await measurement({ code: "ABC" })).body.errors).toEqual({ code: ["The code field confirmation does not match."] });
      expect((await measurement({ code: null, code_confirmation: null })).status).toBe(201);
    });
  });

  describe("5. decimals are checked whether they arrive as strings or numbers", () => {
    it("refuses non-finite, too many integer digits, too many decimals and out-of-range values, with the right message", async () => {
      const integerPart = "The amount field must have at most 3 digits before the decimal point.";
      const places = "The amount field must have 0-2 decimal places.";
      const cases: [string, string][] = [
        ["1e309", "The amount field must be a finite number."],
        ["123456789", integerPart],
        ['"1234.5"', integerPart],
        ["12.345", places],
        ['"12.345"', places],
        ["600", "The amount field must not be greater than 500."],
        ['"600"', "The amount field must not be greater than 500."],
        ['"-100.01"', "The amount field must be at least -100."],
        ['"12,5"', "The amount field must be a number."],
      ];
      for (const [value, message] of cases) {
        const reply = await rawJson("POST", "/api/measurements", `{"label":"d","patient":"${patient}","amount":${value}}`);
        expect(reply.status, value).toBe(422);
        // A number past the column can also break the max rule: Laravel reports every failed rule.
        expect(reply.body.errors.amount, value).toContain(message);
      }
      for (const [value, stored] of [["12.5", "12.50"], ['"499.99"', "499.99"], ["-100", "-100.00"], ["1e2", "100.00"]]) {
        const reply = await rawJson("POST", "/api/measurements", `{"label":"d","patient":"${patient}","amount":${value}}`);
        expect(reply.status, `${value}: ${reply.text}`).toBe(201);
        expect(reply.body.data.amount).toBe(stored);
      }
    });

    it("looks a unique value up only once it passed its own rules (\"abc\" for a unique integer is a 422, not PostgreSQL's error)", async () => {
      const reply = await measurement({ serial: "abc", label: 12 });
      expect(reply.status, reply.text).toBe(422);
      expect(reply.body.errors.serial).toEqual(["The serial field must be an integer."]);
      expect((await measurement({ serial: 123456 })).status).toBe(201);
      expect((await measurement({ serial: 123456, label: 12 })).body.errors.serial).toEqual(["The serial has already been taken."]);
    });

    it("keeps integers within the 32-bit column", async () => {
      expect((await measurement({ reading: 2147483648 })).body.errors.reading).toEqual(["The reading field must not be greater than 2147483647."]);
      expect((await measurement({ reading: -2147483649 })).status).toBe(422);
      expect((await measurement({ reading: 2147483647 })).status).toBe(201);
      expect((await call("GET", "/api/measurements?reading=99999999999")).status).toBe(422);
    });
  });

  describe("6. values the document does not allow are refused", () => {
    it("refuses a datetime whose offset leaves years 0001–9999, and impossible calendar days", async () => {
      for (const value of ["9999-12-31T23:00:00-05:00", "0000-06-01T00:00:00Z", "0001-01-01T00:30:00+01:00", "2026-02-30T10:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T10:00:00+24:00"]) {
        const reply = await measurement({ taken_at: value });
        expect(reply.status, value).toBe(422);
        expect(reply.body.errors.taken_at, value).toEqual(["The taken at field must be a valid date."]);
      }
      for (const value of ["2023-02-29", "0000-01-01", "2026-04-31"]) expect((await measurement({ taken_on: value })).status, value).toBe(422);
      for (const [value, served] of [["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"], ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"], ["2024-02-29T12:00:00+02:00", "2024-02-29T10:00:00.000Z"]]) {
        const reply = await measurement({ taken_at: value });
        expect(reply.status, value).toBe(201);
        expect(reply.body.data.taken_at).toBe(served);
        expect((await call("GET", `/api/measurements/${reply.body.data.hash}`)).body.data.taken_at).toBe(served);
      }
    });

    it("refuses lone UTF-16 surrogates and NUL characters anywhere in a body (422), and keeps real astral characters", async () => {
      for (const body of [`{"label":"\\ud800","patient":"${patient}"}`, `{"label":"a\\u0000b","patient":"${patient}"}`, `{"label":"x","patient":"${patient}","extra":{"k":"\\udc00"}}`, `{"label":"x","patient":"${patient}","extra":{"\\ud800":1}}`]) {
        const reply = await rawJson("POST", "/api/measurements", body);
        expect(reply.status, body).toBe(422);
      }
      const emoji = await measurement({ label: "🩺".repeat(20) });
      expect(emoji.status, emoji.text).toBe(201);
      expect(emoji.body.data.label).toBe("🩺".repeat(20));
      expect((await call("GET", "/api/doctors?name=a%00b")).status).toBe(422);
    });

    it("takes a uuid field only in its lowercase canonical form, in bodies and filters, and reads it back as sent", async () => {
      const device = "0b7e4c1a-3f9d-4e2b-9a61-5d8c2f0e7b34";
      for (const value of [device.toUpperCase(), `urn:uuid:${device}`, `{${device}}`, device.replaceAll("-", ""), `${device} `, 42]) {
        const reply = await measurement({ device: value });
        expect(reply.status, String(value)).toBe(422);
        expect(reply.body.errors.device, String(value)).toEqual(["The device field must be a valid UUID."]);
      }
      const stored = await measurement({ device });
      expect(stored.status, stored.text).toBe(201);
      expect(stored.body.data.device).toBe(device);
      const listed = await call("GET", `/api/measurements?device=${device}`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((row: { hash: string }) => row.hash)).toContain(stored.body.data.hash);
      for (const value of [device.toUpperCase(), "not-a-uuid", `urn:uuid:${device}`]) {
        const reply = await call("GET", `/api/measurements?device=${encodeURIComponent(value)}`);
        expect(reply.status, value).toBe(422);
        expect(reply.body.errors.device, value).toEqual(["The device filter is not a valid UUID."]);
      }
    });

    it("refuses filter values that are not real dates (2023-02-31 is not March 3)", async () => {
      expect((await call("GET", "/api/medical-records?recorded_on=2023-02-31", { token })).status).toBe(422);
      expect((await call("GET", "/api/measurements?taken_on=2023-02-31")).status).toBe(422);
      expect((await call("GET", "/api/measurements?taken_at=2023-02-28T25:00:00Z")).status).toBe(422);
      expect((await call("GET", "/api/measurements?taken_on=2024-02-29")).status).toBe(200);
    });
  });

  describe("7. links never follow a forged Host", () => {
    it("starts links with APP_URL whatever Host is sent, and answers an invalid Host with 400", async () => {
      const forged = await raw("GET /api/doctors HTTP/1.1\r\nHost: evil.example");
      expect(forged.status).toBe(200);
      expect(forged.body.links.first.startsWith(`${service.baseUrl}/api/doctors?`), forged.body.links.first).toBe(true);
      expect(forged.text).not.toContain("evil.example");
      for (const host of ["evil.example/<script>", "a b", "x:99999", "exa_mple..com"]) {
        const reply = await raw(`GET /api/doctors HTTP/1.1\r\nHost: ${host}`);
        expect(reply.status, host).toBe(400);
        expect(isErrorEnvelope(reply), reply.text).toBe(true);
      }
    });

    it("serves an openapi.json with a relative server URL", async () => {
      const document = await call("GET", "/api/openapi.json");
      expect(document.body.servers).toEqual([{ url: "/", description: "the server that serves this document" }]);
    });

    it("refuses to start in production without APP_URL, naming it; in development links follow a valid Host", async () => {
      await expect(startService({ cwd: project.dir, env: { ...project.env, APP_URL: "" } })).rejects.toThrow(/APP_URL must be set in production/);
      const development = await startService({ cwd: project.dir, env: { ...project.env, APP_URL: "", NODE_ENV: "development" } });
      try {
        const reply = await rawHttp(development.baseUrl, "GET /api/doctors HTTP/1.1\r\nHost: api.example.test:8443");
        expect(reply.body.links.first.startsWith("http://api.example.test:8443/api/doctors?")).toBe(true);
      } finally {
        await development.stop();
      }
    });
  });

  describe("8. messages and the document agree with the behaviour", () => {
    it("says what is wrong with page and per_page", async () => {
      const perPage = await call("GET", "/api/doctors?per_page=-1");
      expect(perPage.body.errors).toEqual({ per_page: ["The per page field must be between 1 and 100."] });
      const page = await call("GET", "/api/doctors?page=99999999999999999999");
      expect(page.body.errors).toEqual({ page: ["The page field must be between 1 and 2147483647."] });
      expect((await call("GET", "/api/doctors?page=1.5")).body.errors).toEqual({ page: ["The page field must be an integer."] });
      expect((await call("GET", "/api/doctors?page=2147483647")).status).toBe(200);
    });

    it("answers a bad token on a public action with 401, as openapi.json documents", async () => {
      const reply = await call("GET", "/api/doctors", { token: "not.a.token" });
      expect(reply.status).toBe(401);
      const document = await call("GET", "/api/openapi.json");
      expect(Object.keys(document.body.paths["/api/doctors"].get.responses)).toContain("401");
      expect(Object.keys(document.body.paths["/api/doctors/{hash}"].get.responses)).toContain("401");
    });
  });

  it("lost no worker on the way", async () => {
    expect((await call("GET", "/api/health")).status).toBe(200);
    expectNoWorkerDied();
  });
});

