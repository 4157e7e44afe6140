import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestFor, type FuzzRequest, type HashPool } from "../support/fuzz-arbitraries.js";
import { readDocument, type Operation } from "../support/fuzz-document.js";
import { loadModel, loadValidSpecs } from "../../src/index.js";
import { filterOperators } from "../../src/model/list-operators.js";
import { databaseTargets, startHostileService, type HostileService } from "../support/hostile.js";
import { admin, client, craftToken, rawHttp, run, type Project, type RunningService } from "../support/service.js";

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
/** The body reader's own refusals (src/http/json-body.ts), which come before routing for every caller. */
const unreadableBody = /must be valid Unicode text without NUL characters|must be a finite number|must not be nested more than \d+ levels deep|field is prohibited|has a key that is not valid Unicode text/;


describe.each(databaseTargets)("fuzzing openapi.json on $label", ({ database }) => {
  let running: HostileService | undefined;
  let project: Project;
  let service: RunningService;
  let operations: Operation[];
  let token: string;
  let adminHash: string;
  /** A signed-in user of each role but the first (the admin's), from src/auth/roles.ts. */
  const roleTokens: { role: string; token: string }[] = [];
  const pool: HashPool = new Map();
  /** Records the service acknowledged and did not acknowledge deleting: path → alive. */
  const acknowledged = new Map<string, boolean>();
  const totals = { requests: 0, byStatus: {} as Record<number, number>, byOperation: {} as Record<string, number>, outsideRoles: {} as Record<number, number>, ownerScoped: {} as Record<number, number>, hiddenFields: {} as Record<number, number> };

  beforeAll(async () => {
    running = await startHostileService("fuzz", database);
    ({ project, service } = running);
    operations = readDocument(JSON.parse(await readFile(join(project.dir, "openapi.json"), "utf8")) as Record<string, unknown>);
    const login = await client(service.baseUrl)("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } });
    expect(login.status, login.text).toBe(200);
    token = login.body.data.access_token;
    adminHash = (await client(service.baseUrl)("GET", "/api/auth/me", { token })).body.hash;
    const roles = JSON.parse(/export const roles = (\[[^\]]*\])/.exec(await readFile(join(project.dir, "src/auth/roles.ts"), "utf8"))![1]!) as string[];
    for (const role of roles.slice(1)) {
      const email = `fuzz-${role}@example.com`;
      await run("npm", ["run", "user:create", "--silent", "--", "--name", role, "--email", email, "--password", "a long password", "--role", role], project.dir, project.env);
      const login = await client(service.baseUrl)("POST", "/api/auth/login", { body: { email, password: "a long password" } });
      roleTokens.push({ role, token: login.body.data.access_token });
    }
    expect(roleTokens.length).toBeGreaterThan(0);
    // A few records of every resource to aim paths and relations at.
    const send = client(service.baseUrl);
    for (let index = 0; index < 3; index += 1) {
      const patient = await send("POST", "/api/patients", { token, body: { name: `Fuzz ${index}`, cpf: String(40_000_000_000 + (Date.now() % 1_000_000) * 100 + index) } });
      const doctor = await send("POST", "/api/doctors", { token, body: { name: `Dr. Fuzz ${index}`, crm: `F${Date.now() % 1e9}${index}` } });
      remember(patient.body.data.hash, "/api/patients");
      remember(doctor.body.data.hash, "/api/doctors");
      const related = { patient: patient.body.data.hash };
      const seeded = await Promise.all([
        send("POST", "/api/appointments", { token, body: { ...related, doctor: doctor.body.data.hash, scheduled_at: "2026-12-01T10:00:00.000Z" } }),
        send("POST", "/api/medical-records", { token, body: { ...related, summary: "seed", recorded_on: "2026-01-15" } }),
        send("POST", "/api/measurements", { token, body: { ...related, label: "seed" } }),
      ]);
      for (const [reply, collection] of seeded.map((reply, at) => [reply, ["/api/appointments", "/api/medical-records", "/api/measurements"][at]!] as const)) {
        expect(reply.status, reply.text).toBe(201);
        remember(reply.body.data.hash ?? reply.body.data.public_id, collection);
      }
    }
  }, 300_000);

  afterAll(async () => {
    await running?.stop();
  });

  /** The signed-in user of another role an `otherRole` request is sent as. */
  const otherRoleOf = (request: FuzzRequest) => roleTokens[request.role % roleTokens.length]!;

  function remember(hash: string, collection: string): void {
    const prefix = hash.slice(0, 3);
    pool.set(prefix, [...(pool.get(prefix) ?? []), hash]);
    acknowledged.set(`${collection}/${hash}`, true);
  }

  /** What a token kind becomes on the wire. logout and refresh never get the suite's own token. */
  function authorization(request: FuzzRequest): string | undefined {
    const ownToken = request.token === "valid" || request.token === "otherRole";
    const kind = ownToken && request.operation.path.startsWith("/api/auth/") && request.method === "POST" ? "forged" : request.token;
    const now = Math.floor(Date.now() / 1000);
    switch (kind) {
      case "valid":
        return `Bearer ${token}`;
      case "otherRole":
        return `Bearer ${otherRoleOf(request).token}`;
      case "garbage":
        return "Bearer not.a.token";
      case "forged":
        return `Bearer ${craftToken({ alg: "HS256", typ: "JWT" }, { sub: "USR_AAAAAAAA", jti: "x", iat: now, exp: now + 60, auth_time: now }, "wrong secret of the attacker")}`;
      case "unsigned":
        return `Bearer ${craftToken({ alg: "none", typ: "JWT" }, { sub: "USR_AAAAAAAA", iat: now, exp: now + 60 }, null)}`;
      case "critical":
        // Signed with the real secret for the real admin, but naming a critical extension: refused (RFC 7515 §4.1.11).
        return `Bearer ${craftToken({ alg: "HS256", typ: "JWT", crit: ["exp"] }, { sub: adminHash, jti: `crit-${now}`, iat: now, exp: now + 60, auth_time: now, iss: "clinic-api", aud: "clinic-api" })}`;
      default:
        return undefined;
    }
  }

  /** The request past fetch(): a raw socket, with the wire mutation applied; what came back. */
  async function sendRaw(request: FuzzRequest, headers: Record<string, string>): Promise<{ status: number; text: string }> {
    const host = `127.0.0.1:${service.port}`;
    const lines = Object.entries({ ...headers, ...(request.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(request.body)) }) }).map(([name, value]) => `${name}: ${value}`);
    if (request.wire === "twoHosts") lines.push(`Host: ${host}`, "Host: evil.example");
    if (request.wire === "expect") lines.push(`Host: ${host}`, `Expect: ${request.expectation}`);
    const start = request.wire === "connect" ? `CONNECT ${host} HTTP/1.1` : `${request.method} ${request.target} HTTP/1.1`;
    const reply = await rawHttp(service.baseUrl, [start, ...lines].join("\r\n"), request.body ?? "", { addHost: request.wire !== "noHost" });
    return { status: reply.status, text: reply.text };
  }

  async function send(request: FuzzRequest): Promise<string[]> {
    const headers: Record<string, string> = {};
    const auth = authorization(request);
    if (auth) headers.Authorization = auth;
    if (request.contentType) headers["Content-Type"] = request.contentType;
    const response =
      request.wire === "plain"
        ? await fetch(`${service.baseUrl}${request.target}`, { method: request.method, headers, body: request.body, redirect: "manual" }).then(async (reply) => ({ status: reply.status, text: await reply.text() }))
        : await sendRaw(request, headers);
    const text = response.text;
    totals.requests += 1;
    totals.byStatus[response.status] = (totals.byStatus[response.status] ?? 0) + 1;
    totals.byOperation[request.operation.operationId] = (totals.byOperation[request.operation.operationId] ?? 0) + 1;
    const problems: string[] = [];
    const where = `${request.method} ${request.target} (${request.token === "otherRole" ? `${otherRoleOf(request).role}'s` : request.token} token, ${request.wire}${request.body === undefined ? "" : `, body ${request.body.slice(0, 300)}`}) → ${response.status}`;
    if (response.status >= 500) problems.push(`${where}: a 5xx: ${text.slice(0, 300)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`${where}: not JSON: ${text.slice(0, 200)}`);
      return problems;
    }
    const bare = request.operation.operationId === "me" || request.operation.operationId === "openapi";
    const envelope = body as { type?: unknown; status?: unknown };
    if (!(bare && response.status === 200) && (envelope.status !== response.status || (envelope.type !== "success" && envelope.type !== "error"))) {
      problems.push(`${where}: not the envelope: ${text.slice(0, 200)}`);
    }
    // Refused on the wire, before any route: 400 (Host, CONNECT) or 417 (Expect), and nothing else.
    const refusedOnWire = { plain: undefined, noHost: 400, twoHosts: 400, connect: 400, expect: 417 }[request.wire];
    // A head past Node's 16 KiB limit (list queries take many parameters) is refused first, with a 431.
    const oversized = response.status === 431 && Buffer.byteLength(request.target) > 15_000;
    if (refusedOnWire !== undefined && response.status !== refusedOnWire && !oversized) problems.push(`${where}: expected ${refusedOnWire} for a ${request.wire} request`);
    // Operations that read a token (login reads none; health and the document ignore it).
    const readsToken = request.operation.statuses.has(401) && request.operation.operationId !== "login";
    if (request.token === "critical" && readsToken && refusedOnWire === undefined && response.status < 400)
      problems.push(`${where}: a token with a critical header extension was accepted`);
    // A path the template does not match (an encoded slash, ..) never reaches the operation: a 404 or 405 envelope is right.
    const reachedOperation = !/%2F|\/\.\.?(\/|\?|$)/i.test(request.target);
    if (reachedOperation || ![404, 405].includes(response.status)) {
      problems.push(...request.operation.check(response.status, body).map((problem) => `${where}: ${problem}`));
    }
    // A role the operation is not for is refused before anything is read: never a success, never a 404, 409 or 422.
    const role = request.token === "otherRole" ? otherRoleOf(request).role : undefined;
    const outsideRoles = role !== undefined && request.operation.roles !== undefined && !request.operation.roles.includes(role) && refusedOnWire === undefined && reachedOperation;
    if (outsideRoles) totals.outsideRoles[response.status] = (totals.outsideRoles[response.status] ?? 0) + 1;
    // A body that cannot be read at all is refused before any route, for every caller (as a 400 is): that 422 names no rule.
    const bodyUnreadable = response.status === 422 && Object.values((body as { errors?: Record<string, string[]> }).errors ?? {}).flat().every((message) => unreadableBody.test(message));
    if (outsideRoles && (response.status < 300 || [404, 409].includes(response.status) || (response.status === 422 && !bodyUnreadable)))
      problems.push(`${where}: the role ${role} is not in x-roles ${JSON.stringify(request.operation.roles)}, yet the answer was ${response.status}`);
    // Every record the suite aims at belongs to no user of another role: a role that owns (not a
    // bypass one) never reads, changes or counts one of them.
    const owner = request.operation.owner;
    const owns = role !== undefined && owner !== undefined && !owner.bypass.includes(role) && refusedOnWire === undefined && reachedOperation;
    if (owns) {
      totals.ownerScoped[response.status] = (totals.ownerScoped[response.status] ?? 0) + 1;
      const data = (body as { data?: unknown; meta?: { total?: number } }).data;
      const listed = Array.isArray(data) ? data.length : 0;
      const total = (body as { meta?: { total?: number } }).meta?.total ?? 0;
      const onRecord = request.operation.path.includes("{hash}");
      if (onRecord && response.status < 300) problems.push(`${where}: ${role} reached a record it does not own (${response.status})`);
      if (!onRecord && request.method === "GET" && response.status === 200 && (listed > 0 || total > 0)) problems.push(`${where}: ${role} listed ${total} records it does not own`);
    }
    // Fields a role does not see: never in its answers, and never a filter or a sort it may use.
    const hidden = role === undefined ? [] : Object.entries(request.operation.visibleTo).filter(([, roles]) => !roles.includes(role)).map(([field]) => field);
    if (hidden.length > 0 && refusedOnWire === undefined && reachedOperation) {
      totals.hiddenFields[response.status] = (totals.hiddenFields[response.status] ?? 0) + 1;
      const data = (body as { data?: unknown }).data;
      for (const record of Array.isArray(data) ? data : data && typeof data === "object" ? [data] : [])
        for (const field of hidden) if (Object.hasOwn(record as object, field)) problems.push(`${where}: ${role} was shown ${field}, visible to ${request.operation.visibleTo[field]!.join(", ")} only`);
      const query = new URLSearchParams(request.target.split("?")[1] ?? "");
      const sorts = (query.get("sort") ?? "").split(",").map((key) => key.replace(/^-/, ""));
      const uses = hidden.filter((field) => query.has(field) || sorts.includes(field));
      if (uses.length > 0 && response.status === 200) problems.push(`${where}: ${role} filtered or sorted on ${uses.join(", ")}, which it does not see`);
    }
    if (refusedOnWire === undefined) trackAcknowledged(request, response.status, body);
    return problems;
  }

  function trackAcknowledged(request: FuzzRequest, status: number, body: unknown): void {
    const collection = request.operation.path.replace(/\/\{hash\}.*$/, "");
    const data = (body as { data?: { hash?: string; public_id?: string } }).data;
    const hash = data?.hash ?? data?.public_id;
    if (request.method === "POST" && status === 201 && hash) remember(hash, collection);
    const record = request.target.split("?")[0]!.replace(/\/restore$/, "");
    if (request.method === "DELETE" && status === 200) acknowledged.set(record, false);
    if (request.operation.path.endsWith("/restore") && status === 200) acknowledged.set(record, true);
  }

  it("never answers 5xx, always answers the documented envelope, and keeps every worker alive", async () => {
    const operation = fc.constantFrom(...operations);
    const property = fc.asyncProperty(
      operation.chain((chosen) => requestFor(chosen, pool)),
      async (request) => {
        const problems = await send(request);
        if (problems.length > 0) throw new Error(problems.join("\n"));
      },
    );
    try {
      await fc.assert(property, { seed, numRuns: runsPerDatabase, endOnFailure: true });
    } finally {
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

  it("lost nothing it acknowledged: every created record is there unless its delete was acknowledged", async () => {
    const send = client(service.baseUrl);
    const missing: string[] = [];
    for (const [path, alive] of acknowledged) {
      const reply = await send("GET", path, { token });
      if (reply.status !== (alive ? 200 : 404)) missing.push(`${path}: expected ${alive ? 200 : 404}, got ${reply.status}`);
    }
    expect(missing).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(6);
  }, 120_000);
});
