import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { openReader, type DatabaseReader } from "../support/databases.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, startService, type Project, type Reply, type Request, type RunningService } from "../support/service.js";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink.js";

/**
 * Issue 49: invitations into an agency (test/fixtures/tenancy, whose `mail:` makes them), through a
 * real SMTP server, on SQLite (two workers) and PostgreSQL. An agency's managing roles invite with
 * a role at or below their own; the link makes an account and its membership, or lets an existing
 * account join once signed in with the invited address; nothing of one agency's invitations is
 * reached from another; a manager demoted while inviting invites no one after the demotion.
 */
const rounds = Number(process.env.HASHAPI_RACE_ROUNDS ?? 200);
const password = "a long password";
const tokenOf = (mail: ReceivedMail) => /[?&]token=([A-Za-z0-9_-]{43})\b/.exec(mail.text)?.[1] ?? "";

describe.each(databaseTargets)("invitations into a tenant on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let smtp: SmtpSink;
  let api: Request;
  let reader: DatabaseReader;
  const tokens: Record<string, string> = {};
  const users: Record<string, string> = {};
  let acme: string;
  let beta: string;

  const as = (token: string | undefined, tenant?: string) => (method: string, path: string, body?: unknown) =>
    api(method, path, { token, body, headers: tenant === undefined ? {} : { "X-Tenant": tenant } });
  const described = (replies: Reply[]) => replies.map((reply) => `${reply.request} -> ${reply.status} ${reply.text.slice(0, 300)}`).join(" | ");
  const login = async (email: string, secret = password) => (await api("POST", "/api/auth/login", { body: { email, password: secret } })).body.data.access_token as string;
  let n = 0;
  const address = (label: string) => `${label}-${(n += 1)}-${database}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres(["-c track_commit_timestamp=on"]);
      await postgres.createDatabase("invitations");
      databaseUrl = postgres.url("invitations");
    }
    project = await prepareProject({ name: `e2e-tenant-invitations-${database}`, database, databaseUrl, specs: join(repo, "test/fixtures/tenancy"), adminRole: "staff" });
    service = await startService({ cwd: project.dir, env: { ...project.env, MAIL_URL: smtp.url, WEB_CONCURRENCY: "2", TENANCY_MEMBER_URL: "http://127.0.0.1:9/member", TENANCY_FIRST_URL: "http://127.0.0.1:9/first", TENANCY_HOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", TENANCY_FIRST_AGENCY: "AGY_22222222" } });
    api = client(service.baseUrl);
    reader = await openReader(project.databaseUrl, project.dir);
    tokens.staff = await login(admin.email, admin.password);
    for (const name of ["olga", "max", "mark", "mia"]) {
      const created = await api("POST", "/api/users", { token: tokens.staff, body: { name, email: `${name}@example.com`, password, role: "user" } });
      expect(created.status, created.text).toBe(201);
      users[name] = created.body.data.hash;
      tokens[name] = await login(`${name}@example.com`);
    }
    acme = (await as(tokens.olga)("POST", "/api/agencies", { name: "Acme" })).body.data.hash;
    beta = (await as(tokens.max)("POST", "/api/agencies", { name: "Beta" })).body.data.hash;
    for (const [who, role] of [["mark", "manager"], ["mia", "member"]] as const)
      expect((await as(tokens.staff, acme)("POST", "/api/members", { user: users[who], role })).status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await reader?.close();
    await service?.stop();
    await smtp?.close();
    await project?.cleanup();
    await postgres?.destroy();
  });

  it("makes an account and its membership from the mailed link, with the invited role", async () => {
    const email = address("newcomer");
    const invited = await as(tokens.olga, acme)("POST", "/api/members/invitations", { email, role: "manager" });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.data).toMatchObject({ email, role: "manager", invited_by: users.olga });
    const [mail] = await smtp.waitFor(email, 1);
    expect(mail!.subject).toBe("olga invited you to Acme on recruiting-api");
    expect(mail!.text).toContain("choose your name and password");
    const accepted = await api("POST", "/api/auth/invitations/accept", { body: { token: tokenOf(mail!), name: "Nora", password } });
    expect(accepted.status, accepted.text).toBe(201);
    const token = accepted.body.data.access_token as string;
    expect((await as(token)("GET", "/api/auth/me")).body).toMatchObject({ name: "Nora", email, role: "user" });
    expect((await as(token)("GET", "/api/auth/tenants")).body.data).toEqual([{ hash: acme, role: "manager" }]);
    expect((await as(token, acme)("GET", "/api/openings")).status).toBe(200);
    expect((await as(token, beta)("GET", "/api/openings")).status).toBe(403);
    // Spent: the link works once, and the invitation is no longer pending.
    expect((await api("POST", "/api/auth/invitations/accept", { body: { token: tokenOf(mail!), name: "Nora", password } })).status).toBe(422);
    expect((await as(tokens.olga, acme)("GET", "/api/members/invitations")).body.data.map((item: { hash: string }) => item.hash)).not.toContain(invited.body.data.hash);
  });

  it("lets an existing account join once signed in with the invited address, and only that one", async () => {
    const invited = await as(tokens.mark, acme)("POST", "/api/members/invitations", { email: "max@example.com", role: "member" });
    expect(invited.status, invited.text).toBe(201);
    const mails = await smtp.waitFor("max@example.com", 1);
    const mail = mails.at(-1)!;
    expect(mail.text).toContain("Sign in with your account");
    const token = tokenOf(mail);
    // The link makes no second account for the address, and no one else joins with it.
    expect((await api("POST", "/api/auth/invitations/accept", { body: { token, name: "Max", password } })).status).toBe(422);
    expect((await as(tokens.mia)("POST", "/api/auth/invitations/join", { token })).status).toBe(422);
    expect((await api("POST", "/api/auth/invitations/join", { body: { token } })).status).toBe(401);
    const joined = await as(tokens.max)("POST", "/api/auth/invitations/join", { token });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.body.data).toEqual({ hash: acme, role: "member" });
    expect((await as(tokens.max)("GET", "/api/auth/tenants")).body.data).toEqual([{ hash: beta, role: "owner" }, { hash: acme, role: "member" }]);
    expect((await as(tokens.max)("POST", "/api/auth/invitations/join", { token })).status).toBe(422);
    // A member already: 409, and the invitation stays pending.
    const again = await as(tokens.olga, acme)("POST", "/api/members/invitations", { email: "mia@example.com", role: "member" });
    const miaMail = (await smtp.waitFor("mia@example.com", 1)).at(-1)!;
    const twice = await as(tokens.mia)("POST", "/api/auth/invitations/join", { token: tokenOf(miaMail) });
    expect(twice.status, twice.text).toBe(409);
    expect((await as(tokens.olga, acme)("GET", "/api/members/invitations")).body.data.map((item: { hash: string }) => item.hash)).toContain(again.body.data.hash);
    expect((await as(tokens.olga, acme)("DELETE", `/api/members/invitations/${again.body.data.hash}`)).status).toBe(200);
  });

  it("invites only from a managing role, with a role at or below its own", async () => {
    const email = address("ranked");
    expect((await as(tokens.mia, acme)("POST", "/api/members/invitations", { email, role: "member" })).status).toBe(403);
    expect((await as(tokens.mia, acme)("GET", "/api/members/invitations")).status).toBe(403);
    const above = await as(tokens.mark, acme)("POST", "/api/members/invitations", { email, role: "owner" });
    expect(above.status).toBe(422);
    expect(above.body.errors).toEqual({ role: ["The role field must not be above your own role."] });
    expect((await as(tokens.mark, acme)("POST", "/api/members/invitations", { email, role: "admin" })).status).toBe(422);
    expect((await as(tokens.mark, acme)("POST", "/api/members/invitations", { email, role: "manager" })).status).toBe(201);
    expect((await as(tokens.mark)("POST", "/api/members/invitations", { email, role: "member" })).status).toBe(400);
    // Staff (a bypass role) invite into any agency; the platform has no invitations of its own here.
    expect((await as(tokens.staff, beta)("POST", "/api/members/invitations", { email: address("staffed"), role: "owner" })).status).toBe(201);
    expect((await as(tokens.staff)("GET", "/api/auth/invitations")).status).toBe(404);
  });

  it("never reaches another agency's invitations: listed, revoked or followed after the agency goes", async () => {
    const acmeInvitation = (await as(tokens.olga, acme)("POST", "/api/members/invitations", { email: address("acme"), role: "member" })).body.data.hash as string;
    const betaList = await as(tokens.max, beta)("GET", "/api/members/invitations");
    expect(betaList.status).toBe(200);
    expect(betaList.text).not.toContain(acmeInvitation);
    const acmeList = await as(tokens.olga, acme)("GET", "/api/members/invitations");
    expect(acmeList.text).toContain(acmeInvitation);
    const elsewhere = await as(tokens.max, beta)("DELETE", `/api/members/invitations/${acmeInvitation}`);
    const missing = await as(tokens.max, beta)("DELETE", "/api/members/invitations/INV_22222222");
    expect(elsewhere.status, described([elsewhere])).toBe(404);
    expect(elsewhere.body).toEqual(missing.body);
    expect((await as(tokens.olga, acme)("GET", "/api/members/invitations")).text).toContain(acmeInvitation);
    // A link into an agency deleted meanwhile makes no account.
    const doomed = (await as(tokens.max)("POST", "/api/agencies", { name: "Doomed" })).body.data.hash as string;
    const email = address("doomed");
    expect((await as(tokens.max, doomed)("POST", "/api/members/invitations", { email, role: "member" })).status).toBe(201);
    const [mail] = await smtp.waitFor(email, 1);
    expect((await as(tokens.max, doomed)("DELETE", `/api/agencies/${doomed}`)).status).toBe(200);
    expect((await api("POST", "/api/auth/invitations/accept", { body: { token: tokenOf(mail!), name: "Dora", password } })).status).toBe(422);
    expect(await reader.rows(`SELECT 1 FROM "users" WHERE "email" = $1`, [email])).toEqual([]);
  });

  it(`a manager demoted while inviting: ${rounds} rounds, no invitation lands after the demotion`, async () => {
    // Each invitation's insert and each change of role, logged with the transaction that made it
    // (the mail job later updates the invitation's row, so the row's own xmin would not tell).
    if (database === "sqlite") {
      await reader.rows(`CREATE TABLE IF NOT EXISTS "race_log" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "what" TEXT NOT NULL)`);
      await reader.rows(`CREATE TRIGGER IF NOT EXISTS "race_invite" AFTER INSERT ON "hashapi_invitations" BEGIN INSERT INTO "race_log" ("what") VALUES ('invite'); END`);
      await reader.rows(`CREATE TRIGGER IF NOT EXISTS "race_demote" AFTER UPDATE OF "role" ON "hashapi_memberships" BEGIN INSERT INTO "race_log" ("what") VALUES ('demote'); END`);
    } else {
      await reader.rows(`CREATE TABLE IF NOT EXISTS "race_log" ("seq" SERIAL PRIMARY KEY, "what" TEXT NOT NULL, "tx" xid NOT NULL DEFAULT ((pg_current_xact_id()::text::bigint % 4294967296)::text::xid))`);
      await reader.rows(`CREATE OR REPLACE FUNCTION race_logged() RETURNS trigger AS $$ BEGIN INSERT INTO "race_log" ("what") VALUES (TG_ARGV[0]); RETURN NULL; END $$ LANGUAGE plpgsql`);
      await reader.rows(`CREATE OR REPLACE TRIGGER "race_invite" AFTER INSERT ON "hashapi_invitations" FOR EACH ROW EXECUTE FUNCTION race_logged('invite')`);
      await reader.rows(`CREATE OR REPLACE TRIGGER "race_demote" AFTER UPDATE OF "role" ON "hashapi_memberships" FOR EACH ROW EXECUTE FUNCTION race_logged('demote')`);
    }
    const outcomes = { first: 0, refused: 0 };
    for (let round = 0; round < rounds; round += 1) {
      expect((await as(tokens.olga, acme)("PATCH", `/api/members/${users.mark}`, { role: "manager" })).status).toBe(200);
      const [demoted, invited] = await Promise.all([
        as(tokens.olga, acme)("PATCH", `/api/members/${users.mark}`, { role: "member" }),
        as(tokens.mark, acme)("POST", "/api/members/invitations", { email: `race-${database}-${round}@example.com`, role: "member" }),
      ]);
      const context = `round ${round}: ${described([demoted, invited])}`;
      expect(demoted.status, context).toBe(200);
      expect([201, 403, 404], context).toContain(invited.status);
      if (invited.status !== 201) {
        outcomes.refused += 1;
        continue;
      }
      outcomes.first += 1;
      // The invitation's transaction committed before the demotion's (the last two logged).
      const [order] = await reader.rows(
        database === "postgresql"
          ? `SELECT pg_xact_commit_timestamp(i."tx") > pg_xact_commit_timestamp(d."tx") AS "late" FROM (SELECT "tx" FROM "race_log" WHERE "what" = 'invite' ORDER BY "seq" DESC LIMIT 1) i, (SELECT "tx" FROM "race_log" WHERE "what" = 'demote' ORDER BY "seq" DESC LIMIT 1) d`
          : `SELECT "what" = 'invite' AS "late" FROM "race_log" ORDER BY "seq" DESC LIMIT 1`,
      );
      expect(order!.late === true || order!.late === 1, context).toBe(false);
    }
    expect(outcomes.first + outcomes.refused).toBe(rounds);
  });
});
