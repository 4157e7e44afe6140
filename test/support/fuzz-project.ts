import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { loadModel } from "../../src/index.js";
import { readDocument } from "./fuzz-document.js";
import { openReader } from "./databases.js";
import { FuzzSession, type FuzzTenancy, type SignedIn } from "./fuzz-session.js";
import { historyLeaks, webhookLeaks } from "./exit-check.js";
import { client, startService, startWebhookSink } from "./service.js";

export interface ProjectFuzz {
  /** What went wrong: 5xx, answers outside the document or the access rules, a worker that died, a record lost. */
  problems: string[];
  session: FuzzSession;
  /** How many histories and webhook bodies the exit checks compared with a show (none when the fuzz stopped early). */
  exits?: { histories: number; webhookBodies: number };
}

/**
 * A built and migrated project, served and fuzzed from its own openapi.json: a signed-in user of
 * every role (the first role's is the `valid` token), every record its lists show to them (the seed's)
 * as targets, then `runs` requests of FuzzSession.
 */
export async function fuzzProject(dir: string, env: Record<string, string>, options: { seed: number; runs: number; name: string; specs: string }): Promise<ProjectFuzz> {
  const sink = await startWebhookSink();
  // A variable set to `sink:/<role>` (a project's own webhook URLs) points at the sink, heard as that role's.
  const atSink = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.startsWith("sink:") ? `${sink.url}${value.slice("sink:".length)}` : value]));
  const service = await startService({ cwd: dir, env: { ...atSink, WEB_CONCURRENCY: "1", ...sink.env } });
  const problems: string[] = [];
  try {
    const plain = client(service.baseUrl);
    const roles = JSON.parse(/export const roles = (\[[^\]]*\])/.exec(await readFile(join(dir, "src/auth/roles.ts"), "utf8"))![1]!) as string[];
    const model = await loadModel(options.specs);
    const users: SignedIn[] = [];
    const signUp = async (label: string, role: string, member?: { tenant: string; role: string }) => {
      const email = `fuzz-${label}@example.com`;
      const inTenant = member ? ["--tenant", member.tenant, "--tenant-role", member.role] : [];
      await execa(process.execPath, ["dist/scripts/user-create.js", "--name", `Fuzz ${label}`, "--email", email, "--password", "a long password", "--role", role, ...inTenant], { cwd: dir, env });
      const login = await plain("POST", "/api/auth/login", { body: { email, password: "a long password" } });
      if (login.status !== 200) throw new Error(`login as ${label}: ${login.status} ${login.text}`);
      const token = login.body.data.access_token as string;
      return { role, token, hash: (await plain("GET", "/api/auth/me", { token })).body.hash as string };
    };
    // With tenancy (issue 49): the fuzz works in the first seeded tenant, as a member of each tenant
    // role (its owner first), beside a user of each platform role; the second tenant's records are
    // the ones no answer may hold.
    const tenancy = model.tenancy ? await fuzzTenants(dir, env, model) : undefined;
    if (tenancy && model.tenancy)
      for (const role of model.tenancy.roles) users.push({ ...(await signUp(`${role}-member`, model.tenancy.testerRole, { tenant: tenancy.home, role })), tenantRole: role });
    for (const role of roles) {
      const signed = await signUp(role, role);
      users.push(tenancy && model.tenancy!.bypass.includes(role) ? { ...signed, tenantRole: model.tenancy!.roles[0]!, bypass: true } : signed);
    }
    // Every request of the suite's own (the seed's targets, the exits) works in the fuzz's tenant.
    const send: typeof plain = tenancy ? (method, path, options = {}) => plain(method, path, { ...options, headers: { "X-Tenant": tenancy.home, ...options.headers } }) : plain;
    const operations = readDocument(JSON.parse(await readFile(join(dir, "openapi.json"), "utf8")) as Record<string, unknown>);
    const session = new FuzzSession(service.baseUrl, service.port, operations, users[0]!, users.slice(1), options.name, tenancy);
    // The other tenant's records as targets too: each must answer as a missing one.
    for (const hash of tenancy?.foreignHashes ?? []) session.remember(hash, "", false);
    // A user without a session is the one named where a user is expected (an owner a bypass role
    // sets, a /api/users route): the signed-in users' records and tokens stay theirs.
    const named = await execa(process.execPath, ["dist/scripts/user-create.js", "--name", "Fuzz Named", "--email", "fuzz-named@example.com", "--password", "a long password"], { cwd: dir, env });
    session.pool.set("USR", [named.stdout.trim()]);
    // The seeded records as targets: what each collection lists to the first role.
    for (const operation of operations)
      if (operation.method === "GET" && !operation.path.includes("{") && operation.path.startsWith("/api/") && !/^\/api\/(auth|users|health|openapi)/.test(operation.path)) {
        const listed = await send("GET", `${operation.path}?per_page=20`, { token: users[0]!.token });
        for (const record of Array.isArray(listed.body?.data) ? (listed.body.data as { hash?: string }[]) : []) if (record.hash) session.remember(record.hash, operation.path);
      }
    try {
      await session.run(options.seed, options.runs);
    } catch (error) {
      // The server's last words say why a request found no one to answer it.
      problems.push(`${String((error as Error).message).slice(0, 6000)}\nthe server's output:\n${service.output().slice(-3000)}`);
    }
    if (/worker \d+ exited/.test(service.output())) problems.push(`a worker died:\n${service.output().slice(-2000)}`);
    const health = await send("GET", "/api/health").catch((error: Error) => ({ status: `no answer (${error.message})` }));
    if (health.status !== 200) {
      // The server's output, unless a problem above (the fuzz's failure, a dead worker) carries it.
      const output = problems.length === 0 ? `; the server's output:\n${service.output().slice(-3000)}` : "";
      problems.push(`/api/health answered ${health.status} after the fuzz${output}`);
      return { problems, session };
    }
    // A record that cascades from another (onDelete: cascade) may go with it: acknowledged, yet gone.
    const cascading = model.resources.filter((resource) => resource.belongsTo.some((relation) => relation.onDelete === "cascade")).map((resource) => `/api/${resource.collection}/`);
    problems.push(...(await session.lostRecords()).filter((lost) => !cascading.some((collection) => lost.startsWith(collection))));
    // Every exit shows each reader what its show does (issue 45): histories, and each role's webhook.
    const readers = [...users.map((user) => ({ ...user, role: user.tenantRole ?? user.role, member: user.tenantRole !== undefined })), { role: "anonymous", token: undefined }];
    const history = await historyLeaks(send, options.specs, readers);
    // A webhook reads each event in its record's tenant: the fuzz's own tenant's events (and global
    // records') are compared with its members' shows.
    const webhooks = await webhookLeaks(send, options.specs, sink.sent, readers, 150, tenancy?.home);
    problems.push(...history.leaks, ...webhooks.leaks);
    return { problems, session, exits: { histories: history.read, webhookBodies: webhooks.read } };
  } finally {
    await service.stop();
    await sink.close();
  }
}

/**
 * The first two tenants of the seed (npm run db:seed makes two): the fuzz's own, and another whose
 * records (read from the database, not through the API under test) no answer may hold.
 */
async function fuzzTenants(dir: string, env: Record<string, string>, model: Awaited<ReturnType<typeof loadModel>>): Promise<FuzzTenancy> {
  const tenants = model.tenancy!.resource.table;
  const members = model.resources.filter((resource) => resource.tenant?.kind === "member").map((resource) => resource.table);
  const reader = await openReader(env.DATABASE_URL ?? "", dir, { readonly: true });
  try {
    const [home, foreign] = (await reader.rows(`SELECT "hash" FROM "${tenants}" ORDER BY "id" LIMIT 2`)).map((row) => String(row.hash));
    if (!home || !foreign) throw new Error("the fuzz of a tenanted project needs two tenants: run npm run db:seed first");
    const hashes = new Set([foreign]);
    for (const table of members)
      for (const row of await reader.rows(`SELECT "hash" FROM "${table}" WHERE "tenant_id" = (SELECT "id" FROM "${tenants}" WHERE "hash" = $1)`, [foreign])) hashes.add(String(row.hash));
    return { home, foreign, foreignHashes: hashes };
  } finally {
    await reader.close();
  }
}

/**
 * After a change of its specs (a rename, a hide, a narrowing: spec-space.ts changedSet), generated,
 * built and migrated over the data the fuzz left: every history read by each fuzz user (and nobody)
 * against their show. What leaked, or what failed on the way.
 */
export async function exitsAfterChange(dir: string, env: Record<string, string>, specs: string): Promise<string[]> {
  const service = await startService({ cwd: dir, env: { ...env, WEB_CONCURRENCY: "1" } });
  try {
    const send = client(service.baseUrl);
    const roles = JSON.parse(/export const roles = (\[[^\]]*\])/.exec(await readFile(join(dir, "src/auth/roles.ts"), "utf8"))![1]!) as string[];
    const readers = [];
    for (const role of roles) {
      const login = await send("POST", "/api/auth/login", { body: { email: `fuzz-${role}@example.com`, password: "a long password" } });
      if (login.status !== 200) return [`login as ${role} after the change: ${login.status} ${login.text}`];
      readers.push({ role, token: login.body.data.access_token as string });
    }
    const { leaks } = await historyLeaks(send, specs, [...readers, { role: "anonymous", token: undefined }]);
    return leaks;
  } finally {
    await service.stop();
  }
}
