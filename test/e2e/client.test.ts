import { existsSync } from "node:fs";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient, unwrap, type DoctorHash, type PatientHash } from "../../generated/client/src/index.js";
import { admin, craftToken, decodeClaims, run, startClinic, type ClinicSession } from "../support/service.js";

/**
 * Issue 34: the example's generated client (generated/client, drift-checked against what the CLI
 * generates from specs/) driving the built service over real HTTP on SQLite, in Node and, bundled
 * by esbuild, in headless Chromium (Debian's, through playwright-core; .ci/run installs it).
 */
const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));

describe("the generated client against the example service", () => {
  let clinic: ClinicSession;
  let baseUrl: string;
  /** An appointment of another doctor than owner@example.com's (made by the ownership test). */
  let theirs: string | undefined;

  beforeAll(async () => {
    clinic = await startClinic("client", "sqlite");
    baseUrl = clinic.service.baseUrl;
    const { dir, env } = clinic.project;
    await run("npm", ["run", "user:create", "--silent", "--", "--name", "Dr. Owner", "--email", "owner@example.com", "--password", "a long password", "--role", "doctor"], dir, env);
  }, 300_000);

  afterAll(async () => {
    await clinic?.stop();
  });

  it("logs in, answers a 422 by payload field and then a 201, and shows the record", async () => {
    const api = createClient({ baseUrl });
    const refused = await api.auth.login({ email: admin.email, password: "not it" });
    expect(refused.error?.status).toBe(401);
    unwrap(await api.auth.login({ email: admin.email, password: admin.password }));
    expect(unwrap(await api.auth.me())).toMatchObject({ email: admin.email, role: "admin" });
    const invalid = await api.patients.create({ name: "Maria Client", cpf: "123" });
    if (invalid.error?.status !== 422) throw new Error(`expected a 422: ${JSON.stringify(invalid)}`);
    expect(Object.keys(invalid.error.errors)).toEqual(["cpf"]);
    const created = unwrap(await api.patients.create({ name: "Maria Client", cpf: "55544433322" }));
    const hash: PatientHash = created.hash;
    expect(unwrap(await api.patients.get(hash))).toEqual(created);
    expect(unwrap(await api.patients.update(hash, { phone: null })).phone).toBeNull();
  });

  it("walks a filtered list by cursor, pages by number, and loads relations with `with`", async () => {
    const api = createClient({ baseUrl });
    unwrap(await api.auth.login({ email: admin.email, password: admin.password }));
    for (let n = 0; n < 5; n += 1) unwrap(await api.patients.create({ name: `Walker ${n}`, cpf: `7770000000${n}` }));
    const walked: string[] = [];
    for await (const patient of api.patients.all({ filter: { name: { starts_with: "walker" } }, perPage: 2, sort: ["name"] }))
      walked.push(patient.name);
    expect(walked).toEqual([0, 1, 2, 3, 4].map((n) => `Walker ${n}`));
    const page = unwrap(await api.patients.list({ filter: { name: { contains: "walker" } }, perPage: 2, page: 3 }));
    expect(page.meta).toMatchObject({ current_page: 3, total: 5 });
    const cardio = unwrap(await api.specialties.create({ name: "Client Cardio" }));
    const doctor = unwrap(await api.doctors.create({ name: "Dr. Client", crm: "CRM-CLIENT-1", specialties: [{ hash: cardio.hash, since: "2024-01-31" }] }));
    const loaded = unwrap(await api.doctors.get(doctor.hash, { with: ["specialties"] }));
    expect(loaded.specialties.map((specialty) => [specialty.hash, specialty.pivot.since])).toEqual([[cardio.hash, "2024-01-31"]]);
    const link = api.doctors.specialties(doctor.hash);
    expect(unwrap(await link.detach(cardio.hash)).message).toBe("Resource detached.");
    expect(unwrap(await link.attach(cardio.hash, { since: null })).pivot).toEqual({ since: null });
    const patient = (await api.patients.list({ perPage: 1 })).data!.data[0]!;
    const appointment = unwrap(await api.appointments.create({ scheduled_at: "2026-12-01T10:00:00Z", patient: patient.hash, doctor: doctor.hash }));
    // Appointments load their patient and doctor eagerly: records, not hashes.
    expect(appointment.doctor.hash).toBe(doctor.hash);
    // Referenced by the appointment (onDelete: restrict): a 409; a patient of its own soft-deletes.
    expect((await api.patients.delete(patient.hash)).error?.status).toBe(409);
    const alone = unwrap(await api.patients.create({ name: "Alone", cpf: "42424242424" }));
    expect(unwrap(await api.patients.delete(alone.hash)).message).toBe("Resource deleted.");
    expect((await api.patients.get(alone.hash)).error?.status).toBe(404);
    expect(unwrap(await api.patients.restore(alone.hash)).hash).toBe(alone.hash);
  });

  it("answers another doctor's appointment as a 404, and a closed port as a network failure", async () => {
    const admins = createClient({ baseUrl });
    unwrap(await admins.auth.login({ email: admin.email, password: admin.password }));
    const doctors = createClient({ baseUrl });
    unwrap(await doctors.auth.login({ email: "owner@example.com", password: "a long password" }));
    const own = unwrap(await admins.doctors.create({ name: "Dr. Owner", crm: "CRM-OWN-1", user: unwrap(await doctors.auth.me()).hash }));
    const other: DoctorHash = unwrap(await admins.doctors.create({ name: "Dr. Other", crm: "CRM-OTHER-1" })).hash;
    const patient = unwrap(await admins.patients.create({ name: "Owned Patient", cpf: "31313131313" })).hash;
    const another = unwrap(await admins.appointments.create({ scheduled_at: "2026-12-02T10:00:00Z", patient, doctor: other }));
    theirs = another.hash;
    const mine = unwrap(await admins.appointments.create({ scheduled_at: "2026-12-02T11:00:00Z", patient, doctor: own.hash }));
    const missing = await doctors.appointments.get(another.hash);
    expect(missing.error).toEqual({ status: 404, message: "Resource not found." });
    await expect(async () => unwrap(missing)).rejects.toBeInstanceOf(ApiError);
    expect(unwrap(await doctors.appointments.get(mine.hash)).notes).toBeNull();
    const failed = await createClient({ baseUrl: "http://127.0.0.1:9" }).patients.list();
    expect(failed.error).toMatchObject({ status: 0, kind: "network" });
  });

  it("refreshes an expired token once on a 401 when asked to, and forgets the token on logout", async () => {
    const api = createClient({ baseUrl });
    const session = unwrap(await api.auth.login({ email: admin.email, password: admin.password }));
    // An expired token within the refresh window, made as the service makes them (contract.test.ts).
    const claims = decodeClaims(session.access_token);
    const now = Math.floor(Date.now() / 1000);
    const expired = (jti: string) => craftToken({ alg: "HS256", typ: "JWT" }, { ...claims, iat: now - 7200, jti, exp: now - 3600 });
    expect((await createClient({ baseUrl, token: expired("client-1") }).patients.list()).error?.status).toBe(401);
    const refreshing = createClient({ baseUrl, token: expired("client-2"), refreshOnUnauthorized: true });
    expect(unwrap(await refreshing.patients.list()).data.length).toBeGreaterThan(0);
    expect(unwrap(await refreshing.auth.me()).email).toBe(admin.email);
    // Five calls failed by one expired token share one refresh (a second would present a revoked token).
    const refreshes: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith("/api/auth/refresh")) refreshes.push(String(input));
      return fetch(input, init);
    };
    const together = createClient({ baseUrl, token: expired("client-3"), refreshOnUnauthorized: true, fetch: counting });
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => together.patients.list({ perPage: 1 })));
    expect(results.map((result) => result.error?.status ?? 200)).toEqual([200, 200, 200, 200, 200]);
    expect(refreshes).toHaveLength(1);
    expect(unwrap(await api.auth.logout()).message).toBe("Successfully logged out.");
    expect((await api.patients.list()).error?.status).toBe(401);
  });

  describe.skipIf(!chromiumPath && !process.env.CI)("in headless Chromium, bundled by esbuild", () => {
    let browser: Browser;

    beforeAll(async () => {
      if (!chromiumPath) throw new Error("CI needs Chromium for this suite: apt-get install chromium");
      browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    });

    it("logs in, gets a 422 then a 201, walks a filtered list by cursor, loads `with`, an ownership 404, logs out", async () => {
      const bundled = await build({
        entryPoints: [new URL("./client/browser-scenario.ts", import.meta.url).pathname],
        bundle: true,
        format: "iife",
        platform: "browser",
        write: false,
      });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(String(error)));
      // The page's own origin is the service's: the client's calls are same-origin, as behind one host.
      await page.goto(`${baseUrl}/api/health`);
      await page.addScriptTag({ content: bundled.outputFiles[0]!.text });
      expect(theirs, "the ownership test made another doctor's appointment").toBeDefined();
      const owner = { email: "owner@example.com", password: "a long password", theirs: theirs! };
      const steps = await page.evaluate(
        ({ url, email, password, owner }) =>
          (globalThis as unknown as { runClientScenario(...args: unknown[]): Promise<unknown[]> }).runClientScenario(url, email, password, owner),
        { url: baseUrl, email: admin.email, password: admin.password, owner },
      );
      expect(errors).toEqual([]);
      expect(steps).toEqual([
        ["login", 200],
        ["422", 422, ["cpf"]],
        ["201", true],
        ["walk", ["Browser Maria"]],
        ["with", true],
        ["404", 404],
        ["ownership 404", 404],
        ["logout", 200],
        ["after logout", 401],
      ]);
    });
  });
});
