import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { historyLeaks, webhookLeaks } from "../support/exit-check.js";
import { readDocument } from "../support/fuzz-document.js";
import { FuzzSession, type SignedIn } from "../support/fuzz-session.js";
import { loadModel, loadValidSpecs } from "../../src/index.js";
import { filterOperators } from "../../src/model/list-operators.js";
import { databaseTargets, startHostileService, type HostileService } from "../support/hostile.js";
import { admin, client, run, startWebhookSink, type Project, type RunningService } from "../support/service.js";

/**
 * Property-based fuzzing of the generated service, driven by its own openapi.json: for every
 * operation, requests with valid and mutated bodies, query strings, paths and tokens, sent over real
 * HTTP to the real server (two workers). Every answer must be below 500, in the JSON envelope and as
 * the document describes it for that status; no worker may die; every acknowledged create must still
 * be there at the end. CI runs a fixed seed; locally the seed is random and printed on failure
 * (FUZZ_SEED=<n> replays it, FUZZ_RUNS=<n> changes the count).
 */

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.CI ? 20261123 : Date.now() % 2 ** 31;
const runsPerDatabase = Number(process.env.FUZZ_RUNS ?? 2500);


describe.each(databaseTargets)("fuzzing openapi.json on $label", ({ database }) => {
  let running: HostileService | undefined;
  let project: Project;
  let service: RunningService;
  let session: FuzzSession;
  let token: string;
  /** A signed-in user of each role but the first (the admin's), from src/auth/roles.ts. */
  const roleTokens: SignedIn[] = [];
  /** What each role's webhook was sent (hostile-specs/hashapi.yaml: one webhook per role), by role. */
  let sink: Awaited<ReturnType<typeof startWebhookSink>>;

  beforeAll(async () => {
    sink = await startWebhookSink();
    running = await startHostileService("fuzz", database, sink.env);
    ({ project, service } = running);
    const operations = readDocument(JSON.parse(await readFile(join(project.dir, "openapi.json"), "utf8")) as Record<string, unknown>);
    const login = await client(service.baseUrl)("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } });
    expect(login.status, login.text).toBe(200);
    token = login.body.data.access_token;
    const adminHash = (await client(service.baseUrl)("GET", "/api/auth/me", { token })).body.hash;
    const roles = JSON.parse(/export const roles = (\[[^\]]*\])/.exec(await readFile(join(project.dir, "src/auth/roles.ts"), "utf8"))![1]!) as string[];
    for (const role of roles.slice(1)) {
      const email = `fuzz-${role}@example.com`;
      await run("npm", ["run", "user:create", "--silent", "--", "--name", role, "--email", email, "--password", "a long password", "--role", role], project.dir, project.env);
      const login = await client(service.baseUrl)("POST", "/api/auth/login", { body: { email, password: "a long password" } });
      const me = await client(service.baseUrl)("GET", "/api/auth/me", { token: login.body.data.access_token });
      roleTokens.push({ role, token: login.body.data.access_token, hash: me.body.hash });
    }
    expect(roleTokens.length).toBeGreaterThan(0);
    session = new FuzzSession(service.baseUrl, service.port, operations, { role: roles[0]!, token, hash: adminHash }, roleTokens, "clinic-api");
    // A few records of every resource to aim paths and relations at.
    const send = client(service.baseUrl);
    for (let index = 0; index < 3; index += 1) {
      const patient = await send("POST", "/api/patients", { token, body: { name: `Fuzz ${index}`, cpf: String(40_000_000_000 + (Date.now() % 1_000_000) * 100 + index) } });
      const doctor = await send("POST", "/api/doctors", { token, body: { name: `Dr. Fuzz ${index}`, crm: `F${Date.now() % 1e9}${index}` } });
      session.remember(patient.body.data.hash, "/api/patients");
      session.remember(doctor.body.data.hash, "/api/doctors");
      const related = { patient: patient.body.data.hash };
      const seeded = await Promise.all([
        send("POST", "/api/appointments", { token, body: { ...related, doctor: doctor.body.data.hash, scheduled_at: "2026-12-01T10:00:00.000Z" } }),
        send("POST", "/api/medical-records", { token, body: { ...related, summary: "seed", recorded_on: "2026-01-15" } }),
        send("POST", "/api/measurements", { token, body: { ...related, label: "seed" } }),
      ]);
      for (const [reply, collection] of seeded.map((reply, at) => [reply, ["/api/appointments", "/api/medical-records", "/api/measurements"][at]!] as const)) {
        expect(reply.status, reply.text).toBe(201);
        session.remember(reply.body.data.hash ?? reply.body.data.public_id, collection);
      }
    }
  }, 300_000);

  afterAll(async () => {
    await running?.stop();
    await sink?.close();
  });

  it("never answers 5xx, always answers the documented envelope, and keeps every worker alive", async () => {
    try {
      await session.run(seed, runsPerDatabase);
    } finally {
      const { totals } = session;
      console.log(`fuzz on ${database}: seed ${seed}, ${totals.requests} requests, by status ${JSON.stringify(totals.byStatus)}`);
      console.log(`fuzz on ${database}: by operation ${JSON.stringify(totals.byOperation)}`);
      console.log(`fuzz on ${database}: requests by a role outside the operation's x-roles, by status ${JSON.stringify(totals.outsideRoles)}`);
      console.log(`fuzz on ${database}: requests by an owning role on records it does not own, by status ${JSON.stringify(totals.ownerScoped)}`);
      console.log(`fuzz on ${database}: requests by a role on records with fields it does not see, by status ${JSON.stringify(totals.hiddenFields)}`);
    }
    expect(service.output()).not.toMatch(/worker \d+ exited/);
    expect((await client(service.baseUrl)("GET", "/api/health")).status).toBe(200);
  }, 600_000);

  it("hides a hidden field or relation in every query form: plain, every operator, sort, search, ?with=, relation routes, cursors", async () => {
    const send = client(service.baseUrl);
    const specsDir = `${project.dir}-specs`;
    const model = await loadModel(specsDir);
    const specs = await loadValidSpecs(specsDir);
    // Each list route of a resource: its index, and every belongsToMany route that lists it.
    const someSpecialty = (await send("POST", "/api/specialties", { token, body: { name: `Hidden ${Date.now()}` } })).body.data.hash as string;
    const someDoctor = (await send("POST", "/api/doctors", { token, body: { name: "Dr. Hidden", crm: `H${Date.now() % 1e9}` } })).body.data.hash as string;
    const parentOf: Record<string, string> = { specialties: someSpecialty, doctors: someDoctor };
    const listRoutes = (name: string, collection: string) => [
      `/api/${collection}`,
      ...model.resources.flatMap((parent) => parent.belongsToMany.filter((relation) => relation.target.name === name && parentOf[parent.collection]).map((relation) => `/api/${parent.collection}/${parentOf[parent.collection]}/${relation.name}`)),
    ];
    const callers = [{ role: undefined as string | undefined, token: undefined as string | undefined }, { role: "admin", token }, ...roleTokens];
    const forms = (name: string) => [
      `${name}=x`, `filter[${name}]=x`, ...filterOperators.map((operator) => `filter[${name}][${operator}]=${operator === "null" ? "false" : "x"}`),
      `sort=${name}`, `sort=-${name}`, `with=${name}`,
    ];
    const leaks: string[] = [];
    let checked = 0;
    for (const spec of specs.resources) {
      const resource = model.resources.find((entry) => entry.name === spec.name)!;
      const everyone = spec.serializer?.hidden ?? [];
      const some = spec.fields.filter((field) => field.visibleTo).map((field) => ({ name: field.name, roles: field.visibleTo! }));
      for (const caller of callers) {
        const hidden = [...everyone, ...some.filter((field) => caller.role === undefined || !field.roles.includes(caller.role)).map((field) => field.name)];
        for (const path of hidden.length > 0 ? listRoutes(spec.name, resource.collection) : [])
          for (const name of hidden)
            for (const form of forms(name))
              for (const query of [form, `${form}&cursor=`]) {
                const reply = await send("GET", `${path}?${query}`, { token: caller.token });
                checked += 1;
                // 401/403 when the caller may not list at all; otherwise the 422 of an unknown name.
                if (![401, 403, 422].includes(reply.status))
                  leaks.push(`${caller.role ?? "anonymous"} GET ${path}?${query} -> ${reply.status} ${reply.text.slice(0, 160)}`);
              }
      }
    }
    expect(leaks).toEqual([]);
    expect(checked).toBeGreaterThan(100);
    // openapi.json offers none of them: no parameter names a field hidden from everyone.
    const document = JSON.parse(await readFile(join(project.dir, "openapi.json"), "utf8")) as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
    const offered = Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((operation) => (operation.parameters ?? []).map((parameter) => parameter.name)));
    for (const spec of specs.resources)
      for (const name of spec.serializer?.hidden ?? []) expect(offered.filter((parameter) => parameter === name || parameter.startsWith(`filter[${name}]`))).toEqual([]);
  }, 300_000);

  it("shows each role, in history and in webhook bodies, no key its own show of the record does not", async () => {
    const send = client(service.baseUrl);
    const specsDir = `${project.dir}-specs`;
    const readers = [{ role: "admin", token: token as string | undefined }, ...roleTokens, { role: "anonymous", token: undefined }];
    const history = await historyLeaks(send, specsDir, readers);
    const webhooks = await webhookLeaks(send, specsDir, sink.sent, readers);
    console.log(`fuzz on ${database}: ${history.read} histories and ${webhooks.read} webhook bodies read against the reader's show; bodies by role ${JSON.stringify(Object.fromEntries([...sink.sent].map(([role, bodies]) => [role, bodies.length])))}`);
    expect([...history.leaks, ...webhooks.leaks]).toEqual([]);
    expect(history.read).toBeGreaterThan(20);
    expect(webhooks.read).toBeGreaterThan(20);
  }, 300_000);

  it("lost nothing it acknowledged: every created record is there unless its delete was acknowledged", async () => {
    expect(await session.lostRecords()).toEqual([]);
    expect(session.acknowledged.size).toBeGreaterThan(6);
  }, 120_000);
});
