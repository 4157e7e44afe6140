import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { execa } from "execa";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { byStatus, createUser, databaseTargets, isErrorEnvelope, requestFrom, startHostileService, type HostileService } from "../support/hostile.js";
import { admin, client, jwtSecret, rawHttp, startService, type Project, type Reply, type RequestOptions, type RunningService } from "../support/service.js";

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

    it("bounds password hashing per process: a burst of logins from many addresses is partly refused with 503 at once", async () => {
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, index) => requestFrom(service.baseUrl, `127.0.2.${index + 1}`, "POST", "/api/auth/login", { email: `burst-${index}@example.com`, password: "guess" })),
      );
      const counts = byStatus(replies);
      // Two workers × (2 hashing + 16 waiting) at most reach a password check.
      expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(36);
      expect(counts[503] ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(24);
      expect(Object.keys(counts).sort(), JSON.stringify(counts)).toEqual(["401", "503"]);
      for (const reply of replies.filter((candidate) => candidate.status === 503)) expect(reply.headers.get("retry-after")).toBe("1");
      expect((await call("GET", "/api/doctors")).status).toBe(200);
    });
  });

  describe("2b. password hashing keeps memory bounded (issue 30)", () => {
    /** Resident memory of a process, in MB, from /proc (Linux). */
    const residentMb = async (pid: number) => {
      const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    };

    it("answers 50 user creations at once (201, or 503 with Retry-After) with each worker under 450 MB", async () => {
      const workers = (await execa("pgrep", ["-P", String(service.process.pid)], { reject: false })).stdout.split("\n").filter(Boolean).map(Number);
      expect(workers).toHaveLength(2);
      let peak = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          for (const pid of workers) peak = Math.max(peak, await residentMb(pid));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const stamp = Date.now();
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, index) => call("POST", "/api/users", { token, body: { name: `Burst ${index}`, email: `burst-user-${stamp}-${index}@example.com`, password: "a long password" } })),
      );
      sampling = false;
      await sampler;
      const counts = byStatus(replies);
      expect(Object.keys(counts).filter((status) => status !== "201" && status !== "503"), JSON.stringify(counts)).toEqual([]);
      // Two workers × (2 hashing + 16 waiting) at most are taken; the rest are told to come back.
      expect(counts[201] ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(4);
      for (const reply of replies.filter((candidate) => candidate.status === 503)) {
        expect(reply.headers.get("retry-after")).toBe("1");
        expect(isErrorEnvelope(reply)).toBe(true);
      }
      expect(peak, `peak resident memory of a worker: ${peak.toFixed(0)} MB`).toBeLessThan(450);
      expect((await call("GET", "/api/doctors")).status).toBe(200);
    }, 120_000);
  });

  describe("2c. no request costs more than its bound (issue 30)", () => {
    it("answers /api/health while the costliest text match runs, and stops that match with a 503", async () => {
      // 4,000 medical records of 20,000 characters, "a"s and a final "b": the worst pattern accepted
      // (63 × "a" + "b") takes seconds over them. Every row holds each of its trigrams, so the
      // trigram index (issue 52) passes them all on, and each is compared in full.
      const long = `${"a".repeat(19_999)}b`;
      const statement = database === "postgresql"
        ? `INSERT INTO "medical_records" ("hash", "summary", "recorded_on", "patient_id", "created_at", "updated_at") SELECT 'MRE_' || lpad(i::text, 8, 'Z'), $1, '2026-01-15', (SELECT "id" FROM "patients" LIMIT 1), now(), now() FROM generate_series(1, 4000) AS i`
        : `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000) INSERT INTO "medical_records" ("hash", "summary", "recorded_on", "patient_id", "created_at", "updated_at") SELECT 'MRE_Z' || printf('%07d', i), ?, '2026-01-15', (SELECT "id" FROM "patients" LIMIT 1), '2026-01-15T00:00:00.000+00:00', '2026-01-15T00:00:00.000+00:00' FROM n`;
      await queryDatabase(project.databaseUrl, project.dir, statement, [long]);
      const order: string[] = [];
      const worst = call("GET", `/api/medical-records?filter[summary][contains]=${"a".repeat(63)}b&per_page=1`, { token }).then((reply) => {
        order.push("match");
        return reply;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const health = await call("GET", "/api/health");
      order.push("health");
      expect(health.status).toBe(200);
      const stopped = await worst;
      // The match was still running when health answered, and ran into DATABASE_STATEMENT_TIMEOUT_MS.
      expect(order).toEqual(["health", "match"]);
      expect(stopped.status, stopped.text).toBe(503);
      expect(stopped.headers.get("retry-after")).toBe("1");
      expect(isErrorEnvelope(stopped)).toBe(true);
      // A pattern longer than 64 characters is refused before anything is read.
      const tooLong = await call("GET", `/api/medical-records?filter[summary][contains]=${"a".repeat(65)}`, { token });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.errors).toEqual({ "filter.summary": ["The summary filter (contains) must not be greater than 64 characters."] });
      await queryDatabase(project.databaseUrl, project.dir, `DELETE FROM "medical_records" WHERE "hash" LIKE 'MRE_Z%'`);
    }, 60_000);
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

    it("keeps a unique e-mail unique regardless of case, as sent, also when creates race (issue 31)", async () => {
      const taken = ["The contact has already been taken."];
      const first = await measurement({ contact: "Case.Test@Example.COM" });
      expect(first.status, first.text).toBe(201);
      expect(first.body.data.contact).toBe("Case.Test@Example.COM");
      expect((await measurement({ contact: "case.test@example.com" })).body.errors.contact).toEqual(taken);
      const other = await measurement({ contact: "other.case@example.com" });
      expect((await call("PATCH", `/api/measurements/${other.body.data.hash}`, { token, body: { contact: "CASE.TEST@example.com" } })).body.errors.contact).toEqual(taken);
      // A record keeps its own address in another case.
      const own = await call("PATCH", `/api/measurements/${first.body.data.hash}`, { token, body: { contact: "case.test@EXAMPLE.com" } });
      expect(own.status, own.text).toBe(200);
      // Past the lookup at once: the index decides, and the losers get the same 422.
      const variants = ["race@example.com", "Race@example.com", "RACE@example.com", "race@Example.com", "race@EXAMPLE.COM", "rAcE@example.com"];
      const replies = await Promise.all(variants.map((contact) => measurement({ contact })));
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
      for (const reply of replies.filter((entry) => entry.status === 422)) expect(reply.body.errors.contact).toEqual(taken);
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
      for (const value of [device.toUpperCase(), `urn:uuid:${device}`, `{${device}}`, device.replaceAll("-", ""), `${device}x`, 42]) {
        const reply = await measurement({ device: value });
        expect(reply.status, String(value)).toBe(422);
        expect(reply.body.errors.device, String(value)).toEqual(["The device field must be a valid UUID."]);
      }
      // Surrounding white space is trimmed before the rules (TrimStrings), as for every text field.
      expect((await measurement({ device: ` ${device} ` })).body.data.device).toBe(device);
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

  describe("9. integrity under races (issue 20)", () => {
    /** `count` tasks, `width` at a time. */
    async function inParallel<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
      const results: T[] = [];
      for (let start = 0; start < count; start += width)
        results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, offset) => task(start + offset)))));
      return results;
    }

    it("never lets a patient's soft delete and an appointment that references it both succeed: 200 concurrent pairs", async () => {
      const doctor = await call("POST", "/api/doctors", { token, body: { name: "Dr. Pairs", crm: `P${Date.now() % 1e9}` } });
      expect(doctor.status, doctor.text).toBe(201);
      const outcomes = await inParallel(200, 20, async () => {
        const created = await call("POST", "/api/patients", { token, body: { name: "Pair", cpf: String((cpf += 1)) } });
        expect(created.status, created.text).toBe(201);
        const hash = created.body.data.hash as string;
        const [deleted, booked] = await Promise.all([
          call("DELETE", `/api/patients/${hash}`, { token }),
          call("POST", "/api/appointments", { token, body: { patient: hash, doctor: doctor.body.data.hash, scheduled_at: "2026-12-01T10:00:00.000Z" } }),
        ]);
        expect([200, 409], deleted.text).toContain(deleted.status);
        expect([201, 422], booked.text).toContain(booked.status);
        return { hash, deleted: deleted.status === 200, booked: booked.status === 201 };
      });
      expect(outcomes.filter((pair) => pair.deleted && pair.booked)).toEqual([]);
      // Exactly one side of each pair won: the loser saw the winner's write.
      for (const pair of outcomes) expect(pair.deleted !== pair.booked, pair.hash).toBe(true);
      // And the database agrees: no deleted patient has an appointment, every kept one has its own.
      for (const pair of outcomes.slice(0, 40)) {
        const listed = await call("GET", `/api/appointments?patient=${pair.hash}`, { token });
        expect(listed.body.meta.total, pair.hash).toBe(pair.booked ? 1 : 0);
      }
      expectNoWorkerDied();
    }, 180_000);

    it("refuses to restore an appointment-free record's child whose parent is deleted (409), and restores the parent", async () => {
      const created = await call("POST", "/api/patients", { token, body: { name: "Restore", cpf: String((cpf += 1)) } });
      const hash = created.body.data.hash as string;
      expect((await call("DELETE", `/api/patients/${hash}`, { token })).status).toBe(200);
      const restored = await call("POST", `/api/patients/${hash}/restore`, { token });
      expect(restored.status, restored.text).toBe(200);
      expect(restored.body.data.hash).toBe(hash);
      expect((await call("POST", `/api/patients/${hash}/restore`, { token })).status).toBe(404);
    });

    it("never lets a logout that answered 200 leave a working token behind a racing refresh: 150 rounds", async () => {
      const me = await call("GET", "/api/auth/me", { token });
      const mint = () => jwt.sign({ sub: me.body.hash, jti: randomUUID(), auth_time: Math.floor(Date.now() / 1000) }, jwtSecret, { algorithm: "HS256", expiresIn: 600, issuer: "clinic-api", audience: "clinic-api" });
      const rounds = await inParallel(150, 10, async () => {
        const presented = mint();
        const [logout, refresh] = await Promise.all([call("POST", "/api/auth/logout", { token: presented }), call("POST", "/api/auth/refresh", { token: presented })]);
        expect([200, 401]).toContain(logout.status);
        expect([200, 401]).toContain(refresh.status);
        const derived = refresh.status === 200 ? (refresh.body.data.access_token as string) : undefined;
        const derivedWorks = derived === undefined ? false : (await call("GET", "/api/auth/me", { token: derived })).status === 200;
        const presentedWorks = (await call("GET", "/api/auth/me", { token: presented })).status === 200;
        return { logout: logout.status, refresh: refresh.status, derivedWorks, presentedWorks };
      });
      for (const round of rounds) {
        // Exactly one of the two decided the token's fate; the presented token is dead either way.
        expect(round.logout === 200 ? round.refresh : round.logout, JSON.stringify(round)).toBe(401);
        expect(round.presentedWorks).toBe(false);
        if (round.logout === 200) expect(round.derivedWorks).toBe(false);
      }
      expect(rounds.some((round) => round.logout === 200)).toBe(true);
    }, 120_000);
  });

  describe("10. every answer in the envelope and in the document (issue 20)", () => {
    it("answers no Host, a repeated Host, an unknown Expect and CONNECT in the envelope, and documents a 4XX range", async () => {
      const noHost = await rawHttp(service.baseUrl, "GET /api/doctors HTTP/1.1", "", { addHost: false });
      expect(noHost.status).toBe(400);
      expect(isErrorEnvelope(noHost), noHost.text).toBe(true);
      const twoHosts = await raw(`GET /api/doctors HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nHost: evil.example`);
      expect(twoHosts.status).toBe(400);
      expect(isErrorEnvelope(twoHosts), twoHosts.text).toBe(true);
      const buried = await raw(`GET /api/doctors HTTP/1.1\r\n${Array.from({ length: 1100 }, (_, index) => `X-H${index}: 1`).join("\r\n")}\r\nHost: 127.0.0.1:${service.port}`);
      expect([400, 431]).toContain(buried.status);
      expect(isErrorEnvelope(buried), buried.text).toBe(true);
      const expectation = await raw("GET /api/doctors HTTP/1.1\r\nExpect: 999-nope");
      expect(expectation.status).toBe(417);
      expect(isErrorEnvelope(expectation), expectation.text).toBe(true);
      const tunnel = await rawHttp(service.baseUrl, `CONNECT 127.0.0.1:${service.port} HTTP/1.1\r\nHost: 127.0.0.1:${service.port}`);
      expect(tunnel.status).toBe(400);
      expect(isErrorEnvelope(tunnel), tunnel.text).toBe(true);
      // 100-continue still works: the interim answer, then the real one.
      const body = JSON.stringify({ name: "Continue", cpf: String((cpf += 1)) });
      const continued = await rawJson("POST", "/api/patients", body, "\r\nExpect: 100-continue");
      expect(continued.status).toBe(100);
      expect(continued.text).toMatch(/^HTTP\/1\.1 201 Created\r\n/m);
      const document = await call("GET", "/api/openapi.json");
      for (const [path, item] of Object.entries(document.body.paths as Record<string, Record<string, { responses?: object }>>))
        for (const [method, operation] of Object.entries(item)) if (operation.responses) expect(Object.keys(operation.responses), `${method} ${path}`).toContain("4XX");
      expectNoWorkerDied();
    });

    it("refuses a token with a critical header extension (RFC 7515 §4.1.11), and unknown query parameters on show as on list", async () => {
      const me = await call("GET", "/api/auth/me", { token });
      const critical = jwt.sign({ sub: me.body.hash, jti: randomUUID() }, jwtSecret, { algorithm: "HS256", expiresIn: 600, issuer: "clinic-api", audience: "clinic-api", header: { alg: "HS256", crit: ["b64"], b64: true } as never });
      expect((await call("GET", "/api/auth/me", { token: critical })).status).toBe(401);
      const shown = await call("GET", `/api/patients/${patient}?colour=blue`, { token });
      expect(shown.status).toBe(422);
      expect(shown.body.errors.colour).toEqual(["The colour parameter is not supported."]);
      expect((await call("GET", `/api/patients/${patient}?with=appointments`, { token })).status).toBe(200);
    });
  });

  describe("11. text is compared as users see it (issue 20)", () => {
    it("trims and NFC-normalizes text before the rules: trailing spaces and decomposed accents are the same unique value", async () => {
      const crm = `LK${Date.now() % 1e8}`;
      const first = await call("POST", "/api/doctors", { token, body: { name: "  Dr. Trim  ", crm: `${crm}É` } });
      expect(first.status, first.text).toBe(201);
      expect(first.body.data.name).toBe("Dr. Trim");
      for (const lookAlike of [`${crm}É `, ` ${crm}E\u0301`, `${crm}E\u0301`]) {
        const again = await call("POST", "/api/doctors", { token, body: { name: "Dr. Twin", crm: lookAlike } });
        expect(again.status, lookAlike).toBe(422);
        expect(again.body.errors.crm, lookAlike).toEqual(["The crm has already been taken."]);
      }
      // Full-width digits are other characters (NFC keeps them): refused where digits are required.
      const wide = await call("POST", "/api/patients", { token, body: { name: "Wide", cpf: "１２３４５６７８９０１" } });
      expect(wide.status).toBe(422);
      expect(Object.keys(wide.body.errors)).toEqual(["cpf"]);
    });
  });

  describe("12. deployments: supervisor, proxies, CORS (issue 20)", () => {
    const children = async (pid: number) =>
      (await execa("pgrep", ["-P", String(pid)], { reject: false })).stdout.split("\n").filter(Boolean).map(Number);
    const until = async <T>(what: string, check: () => Promise<T | undefined>, ms = 15_000): Promise<T> => {
      const deadline = Date.now() + ms;
      for (;;) {
        // A refused connection is "not yet": both workers may be between lives for a moment.
        const value = await check().catch(() => undefined);
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    it("keeps serving when a worker and then its replacement are killed before it listens", async () => {
      const second = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2", LOG_LEVEL: "info" } });
      try {
        const primary = second.process.pid!;
        const first = await until("two workers", async () => {
          const pids = await children(primary);
          return pids.length === 2 ? pids : undefined;
        });
        // Both workers have said they listen. node:cluster keeps the port open while a worker that
        // has listened lives; one still starting keeps nothing open (however long it has lived: on a
        // busy machine a start takes seconds), so "listening" must be seen, not guessed from uptime.
        const listened = (pid: number) => new RegExp(`"pid":${pid},[^\\n]*"msg":"listening on`).test(second.output());
        const settled = async () => {
          const pids = await children(primary);
          return pids.length === 2 && pids.every(listened) ? pids : undefined;
        };
        // The two settled workers' pids, once the service answers too (read once: a later look may find a newer worker).
        const serving = () =>
          until("two workers serving", async () => {
            const pids = await settled();
            return pids && (await fetch(`${second.baseUrl}/api/health`)).status === 200 ? pids : undefined;
          });
        for (let kill = 0; kill < 3; kill += 1) {
          const known = await serving();
          process.kill(known[0]!, "SIGKILL");
          // Its replacement, killed as soon as it appears (well before it can listen).
          const replacement = await until("a replacement", async () => (await children(primary)).find((pid) => !known.includes(pid)));
          process.kill(replacement, "SIGKILL");
          // The other worker answers all along.
          expect((await fetch(`${second.baseUrl}/api/health`)).status).toBe(200);
        }
        await serving();
        expect((await children(primary)).filter((pid) => !first.includes(pid)).length).toBeGreaterThanOrEqual(1);
        for (let index = 0; index < 10; index += 1) expect((await fetch(`${second.baseUrl}/api/doctors`)).status).toBe(200);
        expect(second.process.exitCode).toBeNull();
        expect(second.output()).toMatch(/exited \(SIGKILL\) before listening, starting another in 0\.\d+ s/);
        expect(second.output()).not.toMatch(/stopping/);
      } finally {
        await second.stop();
      }
    }, 90_000);

    it("believes X-Forwarded-For only from a trusted proxy, and never locks a known-good login out of its own address", async () => {
      // Without TRUST_PROXY the header is ignored: all of these count against 127.0.0.4.
      const ignored = await inBatches(24, (index) => requestFrom(service.baseUrl, "127.0.0.4", "POST", "/api/auth/login", { email: `fwd-${index}@example.com`, password: "guess" }, { "X-Forwarded-For": `203.0.113.${index + 1}` }));
      expect(byStatus(ignored)).toEqual({ 401: 20, 429: 4 });
      const proxied = await startService({ cwd: project.dir, env: { ...project.env, TRUST_PROXY: "loopback", CORS_ORIGINS: "https://app.example.com" } });
      const from = (address: string, email: string, password: string) =>
        fetch(`${proxied.baseUrl}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": address }, body: JSON.stringify({ email, password }) }).then((reply) => reply.status);
      try {
        // The admin logs in once from 198.51.100.7: that e-mail and address are now a known-good pair.
        expect(await from("198.51.100.7", admin.email, admin.password)).toBe(200);
        const sprayed: number[] = [];
        for (let index = 0; index < 22; index += 1) sprayed.push(await from("198.51.100.7", `spray-proxy-${index}@example.com`, "guess"));
        expect(sprayed.filter((status) => status === 401)).toHaveLength(20);
        expect(sprayed.filter((status) => status === 429)).toHaveLength(2);
        // The address is over its limit for strangers, not for the account that logs in from it.
        expect(await from("198.51.100.7", `stranger@example.com`, "guess")).toBe(429);
        expect(await from("198.51.100.7", admin.email, admin.password)).toBe(200);
        // Another client behind the same proxy has its own budget.
        expect(await from("198.51.100.8", "someone@example.com", "guess")).toBe(401);

        // CORS: a listed origin's preflight and request, and nothing for another origin.
        const preflight = await fetch(`${proxied.baseUrl}/api/patients`, { method: "OPTIONS", headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" } });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
        expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
        expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
        expect(Number(preflight.headers.get("access-control-max-age"))).toBeGreaterThan(0);
        const listed = await fetch(`${proxied.baseUrl}/api/doctors`, { headers: { Origin: "https://app.example.com" } });
        expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
        expect(listed.headers.get("vary")).toMatch(/Origin/);
        const other = await fetch(`${proxied.baseUrl}/api/doctors`, { headers: { Origin: "https://evil.example" } });
        expect(other.headers.get("access-control-allow-origin")).toBeNull();
        const otherPreflight = await fetch(`${proxied.baseUrl}/api/patients`, { method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" } });
        expect(otherPreflight.headers.get("access-control-allow-origin")).toBeNull();
        // Without CORS_ORIGINS (the main service) no CORS header at all.
        expect((await call("GET", "/api/doctors", { headers: { Origin: "https://app.example.com" } })).headers.get("access-control-allow-origin")).toBeNull();
      } finally {
        await proxied.stop();
      }
    }, 120_000);
  });

  describe("13. first-day holes (issue 21)", () => {
    it("refuses an enum filter value outside the field's values (422), and filters by a listed one", async () => {
      const refused = await call("GET", "/api/appointments?status=scroll", { token });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({ status: ["The selected status is invalid."] });
      expect((await call("GET", "/api/appointments?status=scheduled", { token })).status).toBe(200);
      const document = await call("GET", "/api/openapi.json");
      const parameter = document.body.paths["/api/appointments"].get.parameters.find((entry: { name: string }) => entry.name === "status");
      expect(parameter.schema).toEqual({ type: "string", enum: ["scheduled", "completed", "cancelled"] });
    });

    it("names `npm run db:migrate` when the database cannot be opened because nothing was migrated yet", async () => {
      if (database !== "sqlite") return;
      const refused = await startService({ cwd: project.dir, env: { ...project.env, DATABASE_URL: "file:./not-migrated-yet/app.db" } }).then(
        () => new Error("started without a database"),
        (error: Error) => error,
      );
      expect(refused.message).toMatch(/service exited early:\nCannot open the database at DATABASE_URL \(file:\.\/not-migrated-yet\/app\.db, from the environment\): its folder does not exist yet\. Run `npm run db:migrate` first/);
    });
  });

  it("lost no worker on the way", async () => {
    expect((await call("GET", "/api/health")).status).toBe(200);
    expectNoWorkerDied();
  });
});

