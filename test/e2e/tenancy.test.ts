import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { openReader, type DatabaseReader } from "../support/databases.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, startService, startWebhookSink, type Project, type Reply, type Request, type RunningService } from "../support/service.js";

/**
 * Issue 49: one service, many agencies (test/fixtures/tenancy). Two agencies hold records side by
 * side, and no request form of one reaches the other's: lists, counts, filters, search, cursors,
 * nested and relation routes, history, payloads naming the other's records, unique values; the
 * members' routes keep an owner; a member demoted or removed while writing writes nothing after.
 * On SQLite (two workers) and PostgreSQL; `HASHAPI_RACE_ROUNDS` sets the rounds per race (200).
 */
const rounds = Number(process.env.HASHAPI_RACE_ROUNDS ?? 200);
/** A job opening's create enqueues `peek` for the public id its title holds: the job reads it. */
const jobController = `import type { Request } from "express";
import type { CommittingWrite } from "../../resource/committing.js";
import type { OpeningRow } from "../../resources/opening/opening.repository.js";
import { OpeningControllerBase } from "../../resources/opening/opening.controller.base.js";

export class OpeningController extends OpeningControllerBase {
  protected override async onWrite(_req: Request, write: CommittingWrite<OpeningRow>) {
    if (write.action === "create" && write.record.title.startsWith("peek "))
      await write.jobs.enqueue("peek", { hash: write.record.title.slice(5) });
  }
}
`;
/** The job fails when it can read the record (its error names it), and succeeds when it cannot. */
const peekJob = `import type { JobHandler } from "../../lib/jobs/jobs.js";

export const job: JobHandler = async (payload, ctx) => {
  const { hash } = payload as { hash: string };
  if (await ctx.read(hash)) throw new Error(\`read \${hash}\`);
};
`;
const password = "a long password";

describe.each(databaseTargets)("tenants on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let sink: Awaited<ReturnType<typeof startWebhookSink>>;
  let api: Request;
  let reader: DatabaseReader;
  const tokens: Record<string, string> = {};
  const users: Record<string, string> = {};
  let acme: string;
  let beta: string;
  /** Beta's records: none may ever appear in an answer given inside Acme. */
  const betaHashes: string[] = [];

  const as = (who: string, tenant: string | undefined) => (method: string, path: string, body?: unknown) =>
    api(method, path, { token: tokens[who], body, headers: tenant === undefined ? {} : { "X-Tenant": tenant } });
  const described = (replies: Reply[]) => replies.map((reply) => `${reply.request} -> ${reply.status} ${reply.text.slice(0, 300)}`).join(" | ");
  const leaksBeta = (reply: Reply) => betaHashes.filter((hash) => reply.text.includes(hash));

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres(["-c track_commit_timestamp=on"]);
      await postgres.createDatabase("tenancy");
      databaseUrl = postgres.url("tenancy");
    }
    project = await prepareProject({ name: `e2e-tenancy-${database}`, database, databaseUrl, specs: join(repo, "test/fixtures/tenancy"), adminRole: "staff", customFiles: { "src/custom/opening/opening.controller.ts": jobController, "src/custom/jobs/peek.ts": peekJob } });
    sink = await startWebhookSink();
    const at = sink.env.FUZZ_WEBHOOK_URL_ADMIN!.replace(/\/admin$/, "");
    // The webhook limited to Acme reads its public id at start-up: the service starts again once Acme exists.
    const serve = (firstAgency: string) =>
      startService({
        cwd: project.dir,
        env: { ...project.env, WEB_CONCURRENCY: "2", WEBHOOK_RETRY_BASE_MS: "50", TENANCY_MEMBER_URL: `${at}/member`, TENANCY_FIRST_URL: `${at}/first`, TENANCY_HOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", TENANCY_FIRST_AGENCY: firstAgency },
      });
    service = await serve("AGY_22222222");
    api = client(service.baseUrl);
    reader = await openReader(project.databaseUrl, project.dir);
    const login = async (email: string) => (await api("POST", "/api/auth/login", { body: { email, password: email === admin.email ? admin.password : password } })).body.data.access_token as string;
    tokens.staff = await login(admin.email);
    for (const name of ["olga", "max", "mark", "mia", "nina"]) {
      const created = await api("POST", "/api/users", { token: tokens.staff, body: { name, email: `${name}@example.com`, password, role: "user" } });
      expect(created.status, created.text).toBe(201);
      users[name] = created.body.data.hash;
      tokens[name] = await login(`${name}@example.com`);
    }
    // Olga founds Acme (its owner), Max founds Beta; staff add Mark (manager) and Mia (member) to Acme.
    acme = (await as("olga", undefined)("POST", "/api/agencies", { name: "Acme" })).body.data.hash;
    beta = (await as("max", undefined)("POST", "/api/agencies", { name: "Beta" })).body.data.hash;
    await service.stop();
    service = await serve(acme);
    api = client(service.baseUrl);
    for (const [who, role] of [["mark", "manager"], ["mia", "member"]] as const)
      expect((await as("staff", acme)("POST", "/api/members", { user: users[who], role })).status).toBe(201);
    // Beta's records, each the same as one of Acme's: a scope that forgot the tenant would show them.
    const betaJob = await as("max", beta)("POST", "/api/openings", { title: "Welder", code: "W-1", reference: "REF-BETA" });
    expect(betaJob.status, betaJob.text).toBe(201);
    const betaSkill = await as("max", beta)("POST", "/api/skills", { name: "Welding" });
    const betaApplication = await as("max", beta)("POST", "/api/applications", { candidate: "Bea", email: "bea@example.com", job: betaJob.body.data.hash });
    expect(betaApplication.status, betaApplication.text).toBe(201);
    betaHashes.push(beta, betaJob.body.data.hash, betaSkill.body.data.hash, betaApplication.body.data.hash);
  }, 300_000);

  afterAll(async () => {
    await reader?.close();
    await service?.stop();
    await sink?.close();
    await project?.cleanup();
    await postgres?.destroy();
  });

  it("works only inside a tenant the caller is in: 400 without one, the same 403 for another's and for none", async () => {
    const missing = await as("mia", undefined)("GET", "/api/openings");
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Choose a tenant: send the X-Tenant header with the public id of a tenant you work in.");
    const foreign = await as("mia", beta)("GET", "/api/openings");
    const unknown = await as("mia", "AGY_22222222")("GET", "/api/openings");
    const garbage = await as("mia", "x".repeat(500))("GET", "/api/openings");
    for (const reply of [foreign, unknown, garbage]) {
      expect(reply.status, described([reply])).toBe(403);
      expect(reply.body).toEqual(foreign.body);
    }
    expect((await as("olga", undefined)("GET", "/api/auth/tenants")).body.data).toEqual([{ hash: acme, role: "owner" }]);
    // Staff (tenancy.bypass) act in any tenant without being members.
    expect((await as("staff", beta)("GET", "/api/openings")).body.meta.total).toBe(1);
  });

  it("never answers with another tenant's records, in any read form", async () => {
    const acmeJob = await as("olga", acme)("POST", "/api/openings", { title: "Welder", code: "W-1", reference: "REF-ACME" });
    expect(acmeJob.status, acmeJob.text).toBe(201);
    const job = acmeJob.body.data.hash;
    const [betaJob, betaSkill, betaApplication] = betaHashes.slice(1);
    const reads = await Promise.all(
      [
        "/api/openings",
        "/api/openings?search=Welder",
        "/api/openings?filter[code][eq]=W-1",
        "/api/openings?filter[title][contains]=eld&with=applications,skills",
        "/api/openings?cursor=",
        "/api/openings?filter[status][eq]=open&sort=-created_at&per_page=1",
        "/api/applications?with=job",
        "/api/skills",
        "/api/agencies",
        `/api/openings/${job}?with=applications,skills`,
        `/api/openings/${job}/skills`,
        `/api/openings/${job}/history`,
        "/api/countries?with=jobs",
      ].map((path) => as("olga", acme)("GET", path)),
    );
    for (const reply of reads) {
      expect(reply.status, described([reply])).toBe(200);
      expect(leaksBeta(reply), described([reply])).toEqual([]);
    }
    expect(reads[0]!.body.meta.total).toBe(1);
    // Another tenant's record is the 404 of a missing one, in every form.
    for (const [method, path] of [
      ["GET", `/api/openings/${betaJob}`],
      ["GET", `/api/openings/${betaJob}/history`],
      ["GET", `/api/openings/${betaJob}/skills`],
      ["PATCH", `/api/openings/${betaJob}`],
      ["DELETE", `/api/openings/${betaJob}`],
      ["GET", `/api/applications/${betaApplication}`],
      ["GET", `/api/skills/${betaSkill}`],
      ["GET", `/api/agencies/${beta}`],
      ["PUT", `/api/openings/${job}/skills/${betaSkill}`],
    ] as const) {
      const reply = await as("olga", acme)(method, path, method === "PATCH" ? { title: "Mine now" } : undefined);
      expect(reply.status, described([reply])).toBe(404);
    }
    // A cursor of one tenant does not open the other's list, even to someone who works in both.
    betaHashes.push((await as("staff", beta)("POST", "/api/openings", { title: "Second", code: "W-2" })).body.data.hash);
    const first = await as("staff", beta)("GET", "/api/openings?cursor=&per_page=1");
    const next = String(first.body.links.next);
    const replayed = await as("staff", acme)("GET", next.slice(next.indexOf("/api/")));
    expect(replayed.status, described([first, replayed])).toBe(422);
    expect(replayed.body.errors).toEqual({ cursor: ["The cursor is invalid."] });
    expect(leaksBeta(replayed)).toEqual([]);
  });

  it("refuses payloads naming another tenant's records as it refuses missing ones, and keeps unique values per tenant", async () => {
    const [betaJob, betaSkill] = betaHashes.slice(1);
    const post = as("olga", acme);
    const foreignParent = await post("POST", "/api/applications", { candidate: "Ann", email: "ann@example.com", job: betaJob });
    const missingParent = await post("POST", "/api/applications", { candidate: "Ann", email: "ann@example.com", job: "JOB_22222222" });
    expect(foreignParent.status).toBe(422);
    expect(foreignParent.body).toEqual(missingParent.body);
    const foreignLink = await post("POST", "/api/openings", { title: "Fitter", code: "F-1", skills: [betaSkill] });
    expect(foreignLink.status).toBe(422);
    expect(foreignLink.body.errors).toEqual({ "skills.0": ["The selected skills.0 is invalid."] });
    // W-1 is Beta's code too: unique within each agency. Beta's application e-mail is free here.
    const code = await post("POST", "/api/openings", { title: "Second welder", code: "W-1" });
    expect(code.status).toBe(422);
    expect(code.body.errors).toEqual({ code: ["The code has already been taken."] });
    const job = (await post("GET", "/api/openings?filter[code][eq]=W-1")).body.data[0].hash;
    expect((await post("POST", "/api/applications", { candidate: "Bea", email: "bea@example.com", job })).status).toBe(201);
    // A reference is unique across every agency (unique: global): that one is Beta's.
    const reference = await post("POST", "/api/openings", { title: "Third", code: "T-3", reference: "REF-BETA" });
    expect(reference.body.errors).toEqual({ reference: ["The reference has already been taken."] });
    // Invalid for another reason, the 422 still tells nothing of Beta's values: only Acme's are taken.
    const mixed = await post("POST", "/api/openings", { title: "", code: "W-1", skills: [betaSkill] });
    expect(Object.keys(mixed.body.errors).sort()).toEqual(["code", "skills.0", "title"]);
  });

  it("gives each member the role they hold in the tenant: actions, fields and ownership within it", async () => {
    const job = (await as("olga", acme)("POST", "/api/openings", { title: "Budgeted", code: "B-1", budget: "1200.00" })).body.data.hash;
    // Members may not open jobs (auth.roles.store: owner, manager) nor see a budget (visibleTo).
    expect((await as("mia", acme)("POST", "/api/openings", { title: "Mine", code: "M-1" })).status).toBe(403);
    const shown = await as("mia", acme)("GET", `/api/openings/${job}`);
    expect(shown.body.data.budget).toBeUndefined();
    expect((await as("mark", acme)("GET", `/api/openings/${job}`)).body.data.budget).toBe("1200.00");
    // Applications are their author's, inside the agency; managers see them all (owner.bypass).
    const mine = await as("mia", acme)("POST", "/api/applications", { candidate: "Cy", email: "cy@example.com", job });
    expect(mine.status, mine.text).toBe(201);
    const marks = await as("mark", acme)("POST", "/api/applications", { candidate: "Di", email: "di@example.com", job });
    const miaList = (await as("mia", acme)("GET", "/api/applications")).body.data.map((row: { hash: string }) => row.hash);
    expect(miaList).toEqual([mine.body.data.hash]);
    expect((await as("mia", acme)("GET", `/api/applications/${marks.body.data.hash}`)).status).toBe(404);
    const markList = (await as("mark", acme)("GET", "/api/applications")).body.data.map((row: { hash: string }) => row.hash);
    expect(markList).toEqual(expect.arrayContaining([mine.body.data.hash, marks.body.data.hash]));
    // Global countries: everyone reads them, only staff write them.
    expect((await as("olga", acme)("POST", "/api/countries", { name: "Portugal", code: "PT" })).status).toBe(403);
    const country = await as("staff", undefined)("POST", "/api/countries", { name: "Portugal", code: "PT" });
    expect(country.status, country.text).toBe(201);
    expect((await as("mia", undefined)("GET", "/api/countries")).body.data.map((row: { name: string }) => row.name)).toContain("Portugal");
    const placed = await as("olga", acme)("PATCH", `/api/openings/${job}`, { country: country.body.data.hash });
    expect(placed.body.data.country).toBe(country.body.data.hash);
  });

  it("records each event with its tenant", async () => {
    const events = await reader.rows(`SELECT "type", "record_hash", "tenant_id" FROM "hashapi_events" ORDER BY "id"`);
    const tenantIds = await reader.rows(`SELECT "id", "hash" FROM "agencies"`);
    const idOf = (hash: string) => Number(tenantIds.find((row) => row.hash === hash)!.id);
    for (const event of events) {
      const type = String(event.type);
      const tenant = event.tenant_id === null ? null : Number(event.tenant_id);
      if (type.startsWith("user.") || type.startsWith("country.")) expect(tenant, type).toBeNull();
      else if (betaHashes.includes(String(event.record_hash))) expect(tenant, type).toBe(idOf(beta));
      else if (type.startsWith("agency.")) expect(tenant, type).toBe(idOf(String(event.record_hash)));
      else expect(tenant, type).toBe(idOf(acme));
    }
  });

  it("sends each webhook its tenants' events, each read in its own tenant and naming it", async () => {
    const job = await as("olga", acme)("POST", "/api/openings", { title: "Hooked", code: "H-1", budget: "10.00" });
    const betaJob = await as("max", beta)("POST", "/api/openings", { title: "Hooked", code: "H-1", budget: "20.00" });
    const country = await as("staff", undefined)("POST", "/api/countries", { name: "Chile", code: "CL" });
    const arrived = (name: string, hash: string) => (sink.sent.get(name) ?? []).find((body) => body.data.hash === hash);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !(arrived("member", job.body.data.hash) && arrived("member", betaJob.body.data.hash) && arrived("member", country.body.data.hash) && arrived("first", job.body.data.hash)))
      await new Promise((done) => setTimeout(done, 100));
    // The member webhook hears every tenant, each record as a member of its tenant sees it.
    const memberJob = arrived("member", job.body.data.hash) as unknown as { data: { tenant: string; record: Record<string, unknown> } };
    expect(memberJob.data.tenant).toBe(acme);
    expect(memberJob.data.record.title).toBe("Hooked");
    expect(memberJob.data.record).not.toHaveProperty("budget");
    expect((arrived("member", betaJob.body.data.hash) as unknown as { data: { tenant: string } }).data.tenant).toBe(beta);
    expect(arrived("member", country.body.data.hash)).toBeDefined();
    // The one limited to Acme hears Acme's records only, nothing of Beta's nor of the shared ones.
    expect((arrived("first", job.body.data.hash) as unknown as { data: { record: Record<string, unknown> } }).data.record.budget).toBe("10.00");
    const first = sink.sent.get("first") ?? [];
    expect(first.length).toBeGreaterThan(0);
    for (const body of first) expect((body.data as unknown as { tenant: string }).tenant, JSON.stringify(body)).toBe(acme);
    expect(first.some((body) => betaHashes.includes(body.data.hash) || body.data.hash === betaJob.body.data.hash || body.data.hash === country.body.data.hash)).toBe(false);
  });

  it("runs a tenant's jobs in that tenant: their reads reach its records only", async () => {
    const own = (await as("olga", acme)("POST", "/api/skills", { name: "Peeked" })).body.data.hash as string;
    const betaSkill = betaHashes[2]!;
    for (const [code, hash] of [["P-1", own], ["P-2", betaSkill]] as const)
      expect((await as("olga", acme)("POST", "/api/openings", { title: `peek ${hash}`, code })).status).toBe(201);
    const finished = async () => reader.rows(`SELECT "payload", "status", "last_error", "tenant_id" FROM "hashapi_jobs" WHERE "name" = 'peek' AND "status" IN ('done', 'failed')`);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (await finished()).length < 2) await new Promise((done) => setTimeout(done, 100));
    const jobs = await finished();
    const [agency] = await reader.rows(`SELECT "id" FROM "agencies" WHERE "hash" = $1`, [acme]);
    const of = (hash: string) => jobs.find((job) => String(job.payload).includes(hash))!;
    // Acme's own skill is read (the job fails, naming it); Beta's is not there for Acme's job.
    expect(of(own)).toMatchObject({ status: "failed", last_error: `read ${own}` });
    expect(of(betaSkill).status).toBe("done");
    for (const job of jobs) expect(Number(job.tenant_id)).toBe(Number(agency!.id));
  });

  it("lets higher roles manage members, and never leaves a tenant without an owner", async () => {
    const members = await as("mia", acme)("GET", "/api/members");
    expect(members.body.data.map((row: { role: string }) => row.role)).toEqual(["owner", "manager", "member"]);
    expect(members.body.data[0].user).toEqual({ hash: users.olga, name: "olga", email: "olga@example.com" });
    // A manager manages members below it, never the owner, never to a role above its own.
    expect((await as("mark", acme)("PATCH", `/api/members/${users.olga}`, { role: "member" })).status).toBe(403);
    expect((await as("mark", acme)("PATCH", `/api/members/${users.mia}`, { role: "owner" })).status).toBe(403);
    expect((await as("mia", acme)("DELETE", `/api/members/${users.mark}`)).status).toBe(403);
    // The last owner cannot leave nor be demoted.
    const leave = await as("olga", acme)("DELETE", `/api/members/${users.olga}`);
    expect(leave.status).toBe(409);
    expect(leave.body.message).toBe("The last owner of this tenant cannot be removed.");
    expect((await as("olga", acme)("PATCH", `/api/members/${users.olga}`, { role: "manager" })).status).toBe(409);
    // Nor be deleted with their account: the staff's delete of the user is refused the same way.
    const deleted = await as("staff", undefined)("DELETE", `/api/users/${users.olga}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe("This user is the last owner of a tenant: give the role to another member first.");
    // Someone of another agency is no member here: 404, as a missing one.
    expect((await as("olga", acme)("DELETE", `/api/members/${users.max}`)).status).toBe(404);
    // Nina joins and leaves: then Acme's routes are closed to her.
    expect((await as("staff", acme)("POST", "/api/members", { user: users.nina, role: "member" })).status).toBe(201);
    expect((await as("nina", acme)("GET", "/api/openings")).status).toBe(200);
    expect((await as("nina", acme)("DELETE", `/api/members/${users.nina}`)).status).toBe(200);
    expect((await as("nina", acme)("GET", "/api/openings")).status).toBe(403);
  });

  it(`two owners leaving at once: ${rounds} rounds, always one left`, async () => {
    for (let round = 0; round < rounds; round += 1) {
      expect((await as("staff", acme)("POST", "/api/members", { user: users.nina, role: "owner" })).status).toBe(201);
      const [olgaLeaves, ninaLeaves] = await Promise.all([
        as("olga", acme)("DELETE", `/api/members/${users.olga}`),
        as("nina", acme)("DELETE", `/api/members/${users.nina}`),
      ]);
      const context = `round ${round}: ${described([olgaLeaves, ninaLeaves])}`;
      expect([olgaLeaves.status, ninaLeaves.status].sort(), context).toEqual([200, 409]);
      const owners = await reader.rows(`SELECT "user_id" FROM "hashapi_memberships" WHERE "tenant_id" = (SELECT "id" FROM "agencies" WHERE "hash" = $1) AND "role" = 'owner'`, [acme]);
      expect(owners.length, context).toBe(1);
      // Whoever left comes back as a member, to leave again in the next round; Olga stays owner.
      if (olgaLeaves.status === 200) {
        expect((await as("staff", acme)("POST", "/api/members", { user: users.olga, role: "owner" })).status).toBe(201);
        expect((await as("olga", acme)("DELETE", `/api/members/${users.nina}`)).status).toBe(200);
      }
    }
  });

  it(`a manager demoted while opening a job: ${rounds} rounds, no job lands after the demotion`, async () => {
    if (database === "sqlite") {
      await reader.rows(`CREATE TABLE IF NOT EXISTS "race_log" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "what" TEXT NOT NULL)`);
      await reader.rows(`CREATE TRIGGER IF NOT EXISTS "race_job" AFTER INSERT ON "openings" BEGIN INSERT INTO "race_log" ("what") VALUES ('job'); END`);
      await reader.rows(`CREATE TRIGGER IF NOT EXISTS "race_demote" AFTER UPDATE OF "role" ON "hashapi_memberships" BEGIN INSERT INTO "race_log" ("what") VALUES ('demote'); END`);
    }
    const outcomes = { first: 0, refused: 0 };
    for (let round = 0; round < rounds; round += 1) {
      expect((await as("olga", acme)("PATCH", `/api/members/${users.mark}`, { role: "manager" })).status).toBe(200);
      const [demoted, opened] = await Promise.all([
        as("olga", acme)("PATCH", `/api/members/${users.mark}`, { role: "member" }),
        as("mark", acme)("POST", "/api/openings", { title: "Race", code: `R-${database}-${round}` }),
      ]);
      const context = `round ${round}: ${described([demoted, opened])}`;
      expect(demoted.status, context).toBe(200);
      expect([201, 403, 404], context).toContain(opened.status);
      if (opened.status !== 201) {
        outcomes.refused += 1;
        continue;
      }
      outcomes.first += 1;
      const [order] = await reader.rows(
        database === "postgresql"
          ? `SELECT pg_xact_commit_timestamp(j.xmin) > pg_xact_commit_timestamp(m.xmin) AS "late" FROM "openings" j, "hashapi_memberships" m WHERE j."hash" = $1 AND m."user_id" = (SELECT "id" FROM "users" WHERE "hash" = $2)`
          : `SELECT "what" = 'job' AS "late" FROM "race_log" ORDER BY "seq" DESC LIMIT 1`,
        database === "postgresql" ? [opened.body.data.hash, users.mark] : [],
      );
      expect(order!.late === true || order!.late === 1, context).toBe(false);
    }
    expect(outcomes.first + outcomes.refused).toBe(rounds);
  });
});
