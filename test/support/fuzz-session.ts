import fc from "fast-check";
import { requestFor, type FuzzRequest, type HashPool } from "./fuzz-arbitraries.js";
import type { Operation } from "./fuzz-document.js";
import { client, craftToken, rawHttp } from "./service.js";

/**
 * One fuzzing session against a running generated service, driven by its openapi.json: requests
 * built by fuzz-arbitraries.ts, sent over real HTTP, each answer checked against what the document
 * and the access rules allow. Used on the example (test/e2e/fuzz.test.ts) and on every project the
 * spec space draws (test/e2e/spec-space.test.ts).
 */

/** The body reader's own refusals (src/http/json-body.ts), which come before routing for every caller. */
const unreadableBody = /must be valid Unicode text without NUL characters|must be a finite number|must not be nested more than \d+ levels deep|field is prohibited|has a key that is not valid Unicode text/;

export interface SignedIn {
  /** Its role on the platform (auth.roles). */
  role: string;
  token: string;
  /** The user's public id. */
  hash: string;
  /** With tenancy: its role in the fuzz's tenant (a member's, or the first role for a bypass role); none: not a member. */
  tenantRole?: string;
  /** With tenancy: a role of tenancy.bypass, which works in every tenant. */
  bypass?: boolean;
}

/**
 * With tenancy: the tenant the fuzz users work in (`home`), another tenant (`foreign`) and the
 * public ids of its records, which no answer in `home` may ever hold.
 */
export interface FuzzTenancy {
  home: string;
  foreign: string;
  foreignHashes: ReadonlySet<string>;
}

export interface FuzzTotals {
  requests: number;
  byStatus: Record<number, number>;
  byOperation: Record<string, number>;
  outsideRoles: Record<number, number>;
  ownerScoped: Record<number, number>;
  hiddenFields: Record<number, number>;
  /** With tenancy: answers to a tenant's routes without the fuzz's own tenant (none, another, garbage). */
  outsideTenant: Record<number, number>;
}

export class FuzzSession {
  readonly pool: HashPool = new Map();
  /** Records the service acknowledged and did not acknowledge deleting: path → alive. */
  readonly acknowledged = new Map<string, boolean>();
  readonly totals: FuzzTotals = { requests: 0, byStatus: {}, byOperation: {}, outsideRoles: {}, ownerScoped: {}, hiddenFields: {}, outsideTenant: {} };
  /** What each other role's user created itself: the only records of an owned resource it may reach. */
  private readonly createdBy = new Map<string, Set<string>>();

  /**
   * @param first the user of the first role (the `valid` token), the others `otherRole` picks from.
   * A record of an owned resource is an other role's only when that user created it; the pool's
   * records (seeded, or created by the first user) are nobody's of theirs.
   */
  constructor(
    readonly baseUrl: string,
    readonly port: number,
    readonly operations: readonly Operation[],
    readonly first: SignedIn,
    readonly others: readonly SignedIn[],
    /** The tokens' `iss` and `aud`: the project's name. */
    readonly issuer: string,
    readonly tenancy?: FuzzTenancy,
  ) {}

  /** The X-Tenant header a request is sent with, if any. */
  tenantHeader(request: Pick<FuzzRequest, "tenant">): Record<string, string> {
    if (!this.tenancy) return {};
    const value = { home: this.tenancy.home, foreign: this.tenancy.foreign, garbage: "AAA_%%", none: undefined }[request.tenant];
    return value === undefined ? {} : { "X-Tenant": value };
  }

  /** The signed-in user of another role an `otherRole` request is sent as. */
  otherRoleOf(request: FuzzRequest): SignedIn {
    return this.others[request.role % this.others.length]!;
  }

  /** A record to aim requests at; `acknowledged`: one the first user must still read at the end. */
  remember(hash: string, collection: string, acknowledged = true): void {
    const prefix = hash.slice(0, 3);
    this.pool.set(prefix, [...(this.pool.get(prefix) ?? []), hash]);
    if (acknowledged) this.acknowledged.set(`${collection}/${hash}`, true);
  }

  /** Runs `runs` random requests; throws with every problem of the first request that had any. */
  async run(seed: number, runs: number): Promise<void> {
    let found: string[] = [];
    const property = fc.asyncProperty(
      fc.constantFrom(...this.operations).chain((chosen) => requestFor(chosen, this.pool)),
      async (request) => {
        const problems = await this.send(request);
        if (problems.length > 0) found = problems;
        return problems.length === 0;
      },
    );
    const details = await fc.check(property, { seed, numRuns: runs, endOnFailure: true });
    if (details.failed) {
      // The request itself, so that one whose answer never came (a server that died) can be replayed.
      const [request] = details.counterexample ?? [];
      const sent = request ? `${request.method} ${request.target} (token ${request.token}, wire ${request.wire})${request.body === undefined ? "" : `\nbody: ${request.body.slice(0, 500)}`}\n` : "";
      throw new Error(`request ${details.numRuns} of the fuzz (seed ${seed}):\n${sent}${found.join("\n") || String(details.errorInstance)}`);
    }
  }

  /** The records it acknowledged that are not as acknowledged (there, or deleted). */
  async lostRecords(): Promise<string[]> {
    const send = client(this.baseUrl);
    const missing: string[] = [];
    // Read by the first user, where its role may show the records.
    const shows = (path: string) => {
      const show = this.operations.find((operation) => operation.method === "GET" && operation.path === `${path.slice(0, path.lastIndexOf("/"))}/{hash}`);
      return show !== undefined && (show.roles === undefined || show.roles.includes(this.first.role));
    };
    // The fuzz's own tenant, deleted by the fuzz: X-Tenant then names no tenant, which is a 403 as
    // for any other (http/tenant-routes.ts), on its own record as on every tenant's route.
    const homeGone = this.tenancy !== undefined && [...this.acknowledged].some(([path, alive]) => !alive && path.endsWith(`/${this.tenancy!.home}`));
    for (const [path, alive] of this.acknowledged) {
      if (!shows(path)) continue;
      const reply = await send("GET", path, { token: this.first.token, headers: this.tenantHeader({ tenant: "home" }) });
      const expected = homeGone && this.operations.some((operation) => operation.tenanted && operation.method === "GET" && operation.path === `${path.slice(0, path.lastIndexOf("/"))}/{hash}`) ? 403 : alive ? 200 : 404;
      if (reply.status !== expected) missing.push(`${path}: expected ${expected}, got ${reply.status}`);
    }
    return missing;
  }

  /** What a token kind becomes on the wire. logout and refresh never get the suite's own token. */
  private authorization(request: FuzzRequest): string | undefined {
    const ownToken = request.token === "valid" || request.token === "otherRole";
    const kind = ownToken && request.operation.path.startsWith("/api/auth/") && request.method === "POST" ? "forged" : request.token;
    const now = Math.floor(Date.now() / 1000);
    switch (kind) {
      case "valid":
        return `Bearer ${this.first.token}`;
      case "otherRole":
        return `Bearer ${this.otherRoleOf(request).token}`;
      case "garbage":
        return "Bearer not.a.token";
      case "forged":
        return `Bearer ${craftToken({ alg: "HS256", typ: "JWT" }, { sub: "USR_AAAAAAAA", jti: "x", iat: now, exp: now + 60, auth_time: now }, "wrong secret of the attacker")}`;
      case "unsigned":
        return `Bearer ${craftToken({ alg: "none", typ: "JWT" }, { sub: "USR_AAAAAAAA", iat: now, exp: now + 60 }, null)}`;
      case "critical":
        // Signed with the real secret for the real first user, but naming a critical extension: refused (RFC 7515 §4.1.11).
        return `Bearer ${craftToken({ alg: "HS256", typ: "JWT", crit: ["exp"] }, { sub: this.first.hash, jti: `crit-${now}`, iat: now, exp: now + 60, auth_time: now, iss: this.issuer, aud: this.issuer })}`;
      default:
        return undefined;
    }
  }

  /** The request past fetch(): a raw socket, with the wire mutation applied; what came back. */
  private async sendRaw(request: FuzzRequest, headers: Record<string, string>): Promise<{ status: number; text: string }> {
    const host = `127.0.0.1:${this.port}`;
    const lines = Object.entries({ ...headers, ...(request.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(request.body)) }) }).map(([name, value]) => `${name}: ${value}`);
    if (request.wire === "twoHosts") lines.push(`Host: ${host}`, "Host: evil.example");
    if (request.wire === "expect") lines.push(`Host: ${host}`, `Expect: ${request.expectation}`);
    const start = request.wire === "connect" ? `CONNECT ${host} HTTP/1.1` : `${request.method} ${request.target} HTTP/1.1`;
    const reply = await rawHttp(this.baseUrl, [start, ...lines].join("\r\n"), request.body ?? "", { addHost: request.wire !== "noHost" });
    return { status: reply.status, text: reply.text };
  }

  /** Sends one request; what is wrong with its answer (empty when nothing is). */
  async send(drawn: FuzzRequest): Promise<string[]> {
    // A project of one role has no other role to send as.
    const request = drawn.token === "otherRole" && this.others.length === 0 ? { ...drawn, token: "valid" as const } : drawn;
    const headers: Record<string, string> = { ...this.tenantHeader(request) };
    const auth = this.authorization(request);
    if (auth) headers.Authorization = auth;
    if (request.contentType) headers["Content-Type"] = request.contentType;
    const response =
      request.wire === "plain"
        ? await fetch(`${this.baseUrl}${request.target}`, { method: request.method, headers, body: request.body, redirect: "manual" }).then(async (reply) => ({ status: reply.status, text: await reply.text() }))
        : await this.sendRaw(request, headers);
    const { totals } = this;
    totals.requests += 1;
    totals.byStatus[response.status] = (totals.byStatus[response.status] ?? 0) + 1;
    totals.byOperation[request.operation.operationId] = (totals.byOperation[request.operation.operationId] ?? 0) + 1;
    const user = request.token === "otherRole" ? this.otherRoleOf(request) : undefined;
    // Inside a tenant's routes a user's role is the one it holds there (none: not a member).
    const role = user === undefined ? undefined : request.operation.tenanted && this.tenancy ? (user.tenantRole ?? "(no member)") : user.role;
    const where = `${request.method} ${request.target} (${role !== undefined ? `${role}'s` : request.token} token, ${request.wire}${this.tenancy ? `, tenant ${request.tenant}` : ""}${request.body === undefined ? "" : `, body ${request.body.slice(0, 300)}`}) → ${response.status}`;
    const problems: string[] = [];
    if (response.status >= 500) problems.push(`${where}: a 5xx: ${response.text.slice(0, 300)}`);
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      problems.push(`${where}: not JSON: ${response.text.slice(0, 200)}`);
      return problems;
    }
    const bare = request.operation.operationId === "me" || request.operation.operationId === "openapi";
    const envelope = body as { type?: unknown; status?: unknown };
    if (!(bare && response.status === 200) && (envelope.status !== response.status || (envelope.type !== "success" && envelope.type !== "error"))) {
      problems.push(`${where}: not the envelope: ${response.text.slice(0, 200)}`);
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
    // A path the template does not match (an encoded slash, ..) never reaches the operation: the
    // client resolves dot segments first, so `/api/comments/COM_…/tags/..` is `/api/comments/COM_…/`,
    // another route (the envelope and the 5xx checks above hold for it; this operation's schema does not).
    const reachedOperation = !/%2F|\/\.\.?(\/|\?|$)/i.test(request.target);
    if (reachedOperation) {
      problems.push(...request.operation.check(response.status, body).map((problem) => `${where}: ${problem}`));
    }
    const applies = refusedOnWire === undefined && reachedOperation;
    problems.push(...this.roleProblems(request, role, applies, response.status, body, where));
    problems.push(...this.tenantProblems(request, applies, response.status, response.text, body, where));
    if (refusedOnWire === undefined) this.track(request, role, response.status, body);
    return problems;
  }

  /** What a role may not be answered: an operation not for it, another's record, a field it does not see. */
  private roleProblems(request: FuzzRequest, role: string | undefined, applies: boolean, status: number, body: unknown, where: string): string[] {
    const { totals } = this;
    const problems: string[] = [];
    // A role the operation is not for is refused before anything is read: never a success, never a 404, 409 or 422.
    const outsideRoles = role !== undefined && request.operation.roles !== undefined && !request.operation.roles.includes(role) && applies;
    if (outsideRoles) totals.outsideRoles[status] = (totals.outsideRoles[status] ?? 0) + 1;
    // A body that cannot be read at all is refused before any route, for every caller (as a 400 is): that 422 names no rule.
    const bodyUnreadable = status === 422 && Object.values((body as { errors?: Record<string, string[]> }).errors ?? {}).flat().every((message) => unreadableBody.test(message));
    if (outsideRoles && (status < 300 || [404, 409].includes(status) || (status === 422 && !bodyUnreadable)))
      problems.push(`${where}: the role ${role} is not in x-roles ${JSON.stringify(request.operation.roles)}, yet the answer was ${status}`);
    // An owning role (not a bypass one) reaches, lists and counts only the records its user created.
    const owner = request.operation.owner;
    if (role !== undefined && owner !== undefined && !owner.bypass.includes(role) && applies) {
      totals.ownerScoped[status] = (totals.ownerScoped[status] ?? 0) + 1;
      const own = this.createdBy.get(role) ?? new Set<string>();
      const data = (body as { data?: unknown }).data;
      const total = (body as { meta?: { total?: number } }).meta?.total ?? 0;
      const onRecord = request.operation.path.includes("{hash}");
      const target = request.target.split("?")[0]!.split("/")[3] ?? "";
      if (onRecord && status < 300 && !own.has(target)) problems.push(`${where}: ${role} reached a record it does not own (${status})`);
      if (!onRecord && request.method === "GET" && status === 200) {
        const listed = (Array.isArray(data) ? data : []) as { hash?: string }[];
        const foreign = listed.filter((record) => !own.has(String(record.hash)));
        if (foreign.length > 0 || total > own.size) problems.push(`${where}: ${role} listed ${foreign.length} (total ${total}) records it does not own`);
      }
    }
    // Fields a role does not see: never in its answers, and never a filter or a sort it may use.
    const hidden = role === undefined ? [] : Object.entries(request.operation.visibleTo).filter(([, roles]) => !roles.includes(role)).map(([field]) => field);
    if (hidden.length > 0 && applies) {
      totals.hiddenFields[status] = (totals.hiddenFields[status] ?? 0) + 1;
      const data = (body as { data?: unknown }).data;
      for (const record of Array.isArray(data) ? data : data && typeof data === "object" ? [data] : [])
        for (const field of hidden) if (Object.hasOwn(record as object, field)) problems.push(`${where}: ${role} was shown ${field}, visible to ${request.operation.visibleTo[field]!.join(", ")} only`);
      const query = new URLSearchParams(request.target.split("?")[1] ?? "");
      const sorts = (query.get("sort") ?? "").split(",").map((key) => key.replace(/^-/, ""));
      const uses = hidden.filter((field) => query.has(field) || sorts.includes(field));
      if (uses.length > 0 && status === 200) problems.push(`${where}: ${role} filtered or sorted on ${uses.join(", ")}, which it does not see`);
    }
    return problems;
  }

  /**
   * With tenancy, for a signed-in user's request: another tenant's record is in no answer (its
   * public id never in a success), and a tenant's route named without the fuzz's tenant (none,
   * another, garbage) is refused before anything is read: never a success, 404, 409 or 422.
   */
  private tenantProblems(request: FuzzRequest, applies: boolean, status: number, text: string, body: unknown, where: string): string[] {
    const tenancy = this.tenancy;
    if (!tenancy || !applies || (request.token !== "valid" && request.token !== "otherRole")) return [];
    const problems: string[] = [];
    // A bypass role works in every tenant that exists: in the other one it may read its records,
    // and only none and garbage refuse it.
    const bypass = request.token === "otherRole" && this.otherRoleOf(request).bypass === true;
    if (bypass && request.tenant === "foreign") return [];
    if (status < 300) {
      const leaked = [...tenancy.foreignHashes].filter((hash) => text.includes(hash));
      if (leaked.length > 0) problems.push(`${where}: another tenant's records in the answer: ${leaked.slice(0, 5).join(", ")}`);
    }
    if (request.operation.tenanted && request.tenant !== "home") {
      this.totals.outsideTenant[status] = (this.totals.outsideTenant[status] ?? 0) + 1;
      const bodyUnreadable = status === 422 && Object.values((body as { errors?: Record<string, string[]> }).errors ?? {}).flat().every((message) => unreadableBody.test(message));
      if (status < 300 || [404, 409].includes(status) || (status === 422 && !bodyUnreadable)) problems.push(`${where}: a tenant's route answered ${status} with X-Tenant ${request.tenant}`);
    }
    return problems;
  }

  private track(request: FuzzRequest, role: string | undefined, status: number, body: unknown): void {
    const collection = request.operation.path.replace(/\/\{hash\}.*$/, "");
    const data = (body as { data?: { hash?: string; public_id?: string } }).data;
    const hash = data?.hash ?? data?.public_id;
    if (request.method === "POST" && status === 201 && hash && !request.operation.path.includes("{hash}")) {
      // The first user's own creates must last; another role's may be out of the first user's reach,
      // and so is a new tenant (made outside any tenant, shown inside its own only).
      const show = this.operations.find((operation) => operation.method === "GET" && operation.path === `${collection}/{hash}`);
      const newTenant = show?.tenanted === true && !request.operation.tenanted;
      this.remember(hash, collection, role === undefined && !newTenant);
      if (role !== undefined && request.operation.owner) this.createdBy.set(role, (this.createdBy.get(role) ?? new Set()).add(hash));
    }
    // The path the server saw: fetch resolves `..` (`/api/x/X_1/links/..` is `/api/x/X_1/`).
    const record = new URL(request.target, "http://fuzz").pathname.replace(/\/+$/, "").replace(/\/restore$/, "");
    if (request.method === "DELETE" && status === 200) this.acknowledged.set(record, false);
    if (request.operation.path.endsWith("/restore") && status === 200) this.acknowledged.set(record, true);
  }
}
