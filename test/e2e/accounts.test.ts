import pg from "pg";
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, type Project, type Reply, type Request, type RunningService, startService } from "../support/service.js";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink.js";
import { totpCode, totpStep } from "../../runtime/common/src/base/totp.js";

/**
 * Issue 48: the account flows, end to end through a real SMTP server (STARTTLS and AUTH) from the
 * mail's link, on SQLite and PostgreSQL. The fixture signs people up as receptionists with their
 * address confirmed first, requires a second factor of admins, passwords of at least 12
 * characters, and limits of 3 mails per address and 30 requests per client a minute.
 */
const password = "a long password";
/** The project's own code sending mail with hashapi's mailer: a handler that tells the front desk. */
const deskHandler = `import type { EventHandlers } from "../lib/events/handlers.js";

export const handlers: EventHandlers = {
  "specialty.created": (event, ctx) => {
    ctx.mail.send({ to: "desk@clinic.example", subject: \`New specialty: \${String(event.record?.name)}\`, text: "Add it to the signs." });
  },
};
`;
const tokenOf = (mail: ReceivedMail) => /[?&]token=([A-Za-z0-9_-]{43})\b/.exec(mail.text)?.[1] ?? "";

describe.each(databaseTargets)("accounts on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let smtp: SmtpSink;
  let api: Request;
  let adminToken: string;
  let adminSecret: string;
  let adminRecoveryCodes: string[];
  /** Runs a statement on the service's database (to age a token past its expiry). */
  let execute: (text: string) => Promise<void>;
  /** Rows of a query on the service's database. */
  let rows: (text: string) => Promise<Record<string, unknown>[]>;
  let closeDatabase: () => Promise<void> = async () => {};
  let n = 0;
  /** A fresh address per use: the per-address limit is 3 a minute. */
  const address = (label: string) => `${label}-${(n += 1)}-${database}@example.com`;
  /** Each test comes from addresses of its own (TRUST_PROXY): the per-client limit is 30 a minute. */
  let clientNumber = 0;
  const from = () => `10.0.${Math.floor((clientNumber += 1) / 250)}.${clientNumber % 250}`;
  let currentClient = "10.9.9.9";
  const post = (path: string, body: unknown, token?: string) => api("POST", path, { body, token, headers: { "X-Forwarded-For": currentClient } });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    let databaseUrl: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("accounts");
      databaseUrl = postgres.url("accounts");
    }
    project = await prepareProject({ name: `e2e-accounts-${database}`, database, databaseUrl, extraSpecs: join(repo, "test/fixtures/accounts"), customFiles: { "src/custom/events.ts": deskHandler } });
    service = await startService({ cwd: project.dir, env: { ...project.env, MAIL_URL: smtp.url, TRUST_PROXY: "loopback", WEB_CONCURRENCY: "2", WEBHOOK_RETRY_BASE_MS: "50" } });
    api = client(service.baseUrl);
    // Admins must have a second factor: until the admin sets one up, only the enrolment routes answer.
    const enrolling = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
    const gated = await api("GET", "/api/users", { token: enrolling });
    expect(gated.status).toBe(403);
    expect(gated.body.message).toBe("Set up two-factor authentication to continue.");
    expect((await api("GET", "/api/auth/me", { token: enrolling })).status).toBe(200);
    adminSecret = (await api("POST", "/api/auth/mfa/setup", { token: enrolling, body: { password: admin.password } })).body.data.secret;
    const confirmed = await api("POST", "/api/auth/mfa/confirm", { token: enrolling, body: { code: await freshCode(adminSecret) } });
    expect(confirmed.status).toBe(200);
    adminRecoveryCodes = confirmed.body.data.recovery_codes;
    adminToken = enrolling;
    expect((await api("GET", "/api/users", { token: adminToken })).status).toBe(200);
    if (database === "postgresql") {
      const connection = new pg.Client({ connectionString: project.databaseUrl });
      await connection.connect();
      execute = async (text) => void (await connection.query(text));
      rows = async (text) => (await connection.query(text)).rows;
      closeDatabase = () => connection.end();
    } else {
      const connection = new Database(join(project.dir, project.databaseUrl.slice("file:".length)));
      connection.pragma("busy_timeout = 5000");
      execute = async (text) => void connection.exec(text);
      rows = async (text) => connection.prepare(text).all() as Record<string, unknown>[];
      closeDatabase = async () => void connection.close();
    }
  }, 300_000);

  afterAll(async () => {
    await closeDatabase();
    await service?.stop();
    await smtp?.close();
    await project?.cleanup();
    await postgres?.destroy();
  });

  /** Signs someone up and follows the link of the mail: their account exists, and they are signed in. */
  const signUp = async (email: string, name = "Rita Reception") => {
    expect((await post("/api/auth/register", { name, email, password })).status).toBe(202);
    const [mail] = await smtp.waitFor(email, 1);
    expect((await post("/api/auth/verify-email", { token: tokenOf(mail!) })).status).toBe(200);
    const login = await post("/api/auth/login", { email, password });
    expect(login.status).toBe(200);
    return login.body.data.access_token as string;
  };

  it("signs up from the mail's link, over STARTTLS with credentials, as the sign-up role", async () => {
    currentClient = from();
    const email = address("rita");
    const registered = await post("/api/auth/register", { name: "  Rita Reception ", email: email.toUpperCase(), password });
    expect(registered.status).toBe(202);
    expect(registered.headers.get("cache-control")).toBe("no-store");
    expect(registered.body).toEqual({ type: "success", status: 202, message: "Check your email to finish signing up." });
    // No account before the link is followed: the password does not sign in yet.
    expect((await post("/api/auth/login", { email, password })).status).toBe(401);
    const [mail] = await smtp.waitFor(email, 1);
    expect(mail).toMatchObject({ secure: true, user: "mailer", from: "no-reply@clinic.example", subject: "Confirm your email address for clinic-api" });
    expect(mail!.text).toContain(`${service.baseUrl}/welcome/confirm?token=`);
    expect(mail!.html).toContain("Rita Reception");
    // The token is 256 bits and never stored as sent.
    expect(tokenOf(mail!)).toHaveLength(43);
    const verified = await post("/api/auth/verify-email", { token: tokenOf(mail!) });
    expect(verified.body).toEqual({ type: "success", status: 200, message: "Your email address has been verified: you can sign in." });
    const login = await post("/api/auth/login", { email, password });
    expect(login.status).toBe(200);
    const me = await api("GET", "/api/auth/me", { token: login.body.data.access_token });
    expect(me.body).toMatchObject({ name: "Rita Reception", email: email.toLowerCase(), role: "receptionist" });
    // Welcomed once the account exists; the link is spent.
    expect((await smtp.waitFor(email, 2))[1]!.subject).toBe("Welcome to clinic-api");
    // No token in the queue, and once sent no sign-up's password hash either.
    await new Promise((done) => setTimeout(done, 300));
    const payloads = (await rows(`SELECT "payload", "status" FROM "hashapi_jobs" WHERE "name" = 'hashapi:mail'`)).filter((row) => row.status === "done");
    expect(payloads.length).toBeGreaterThan(0);
    for (const row of payloads) expect(String(row.payload)).toBe("null");
    const again = await post("/api/auth/verify-email", { token: tokenOf(mail!) });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ token: ["This verification link is invalid or has expired."] });
  });

  it("answers the same whether or not an address has an account, and tells its owner instead", async () => {
    currentClient = from();
    const owner = address("owner");
    await signUp(owner, "Owen Owner");
    const stranger = address("stranger");
    // The owner's own sign-up spent one of their address's 3 mails a minute: start both afresh.
    await execute(`DELETE FROM "login_throttles"`);
    const answers: Reply[] = [];
    for (const email of [owner, stranger]) answers.push(await post("/api/auth/register", { name: "Mallory", email, password: "another long password" }));
    for (const email of [owner, stranger]) answers.push(await post("/api/auth/forgot-password", { email }));
    for (const email of [owner, stranger]) answers.push(await post("/api/auth/verify-email/resend", { email }));
    for (let i = 0; i < answers.length; i += 2) {
      expect(answers[i]!.status, answers[i]!.request).toBe(answers[i + 1]!.status);
      expect(answers[i]!.text).toBe(answers[i + 1]!.text);
      expect([...answers[i]!.headers.keys()].sort()).toEqual([...answers[i + 1]!.headers.keys()].sort());
    }
    // The owner is told someone tried; their password is untouched.
    const told = await smtp.waitFor(owner, 4);
    expect(told.map((mail) => mail.subject)).toContain("Someone tried to sign up for clinic-api with your address");
    expect((await post("/api/auth/login", { email: owner, password })).status).toBe(200);
    expect((await post("/api/auth/login", { email: owner, password: "another long password" })).status).toBe(401);
  });

  it("takes as long whether or not the address has an account (medians within noise)", async () => {
    const time = async (email: string) => {
      currentClient = from();
      const started = performance.now();
      expect((await post("/api/auth/forgot-password", { email })).status).toBe(202);
      return performance.now() - started;
    };
    const owner = address("timed");
    await signUp(owner);
    const known: number[] = [];
    const unknown: number[] = [];
    // Alternating, each address a few times (its limit is 3 a minute: fresh unknown ones).
    for (let i = 0; i < 9; i++) {
      known.push(await time(i < 2 ? owner : (await signUpQuick())));
      unknown.push(await time(address("nobody")));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // The same statements either way (a count and a job): a lookup or a hash on one side only would
    // show as tens of milliseconds.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(25);
  });

  /** An account made by a manager: no mail, no limit spent. */
  const signUpQuick = async () => {
    const email = address("staff");
    const created = await api("POST", "/api/users", { token: adminToken, body: { name: "Sam Staff", email, password, role: "doctor" } });
    expect(created.status).toBe(201);
    return email;
  };

  it("resets a password from the mail's link: once, ending every session, and the owner is told", async () => {
    currentClient = from();
    const email = address("reset");
    const session = await signUp(email);
    expect((await post("/api/auth/forgot-password", { email: email.toUpperCase() })).status).toBe(202);
    const mails = await smtp.waitFor(email, 3);
    const link = mails[2]!;
    expect(link.subject).toBe("Reset your clinic-api password");
    expect(link.text).toContain("https://app.clinic.example/reset?from=mail&token=");
    const weak = await post("/api/auth/reset-password", { token: tokenOf(link), password: "password1234" });
    expect(weak.status).toBe(422);
    expect(weak.body.errors.password).toEqual(["The given password has appeared in a data leak. Please choose a different password."]);
    const reset = await post("/api/auth/reset-password", { token: tokenOf(link), password: "a brand new passphrase" });
    expect(reset.body).toEqual({ type: "success", status: 200, message: "Your password has been reset: sign in with it." });
    expect((await api("GET", "/api/auth/me", { token: session })).status).toBe(401);
    expect((await post("/api/auth/login", { email, password })).status).toBe(401);
    expect((await post("/api/auth/login", { email, password: "a brand new passphrase" })).status).toBe(200);
    const replay = await post("/api/auth/reset-password", { token: tokenOf(link), password: "yet another passphrase" });
    expect(replay.status).toBe(422);
    expect(replay.body.errors).toEqual({ token: ["This password reset token is invalid."] });
    expect((await smtp.waitFor(email, 4))[3]!.subject).toBe("Your clinic-api password was changed");
  });

  it("voids a link once the password changed another way, or once it expired", async () => {
    currentClient = from();
    const staff = await signUpQuick();
    await post("/api/auth/forgot-password", { email: staff });
    const [first] = await smtp.waitFor(staff, 1);
    // A manager starts a reset (never sets the password): a second link; the first link's
    // password change by the second voids the first.
    const user = (await api("GET", `/api/users?email=${staff}`, { token: adminToken })).body.data[0];
    const started = await api("POST", `/api/users/${user.hash}/password-reset`, { token: adminToken });
    expect(started.status).toBe(202);
    const [, second] = await smtp.waitFor(staff, 2);
    expect((await post("/api/auth/reset-password", { token: tokenOf(second!), password: "the owner's new password" })).status).toBe(200);
    expect((await post("/api/auth/reset-password", { token: tokenOf(first!), password: "an attacker's password" })).status).toBe(422);
    const set = await api("PATCH", `/api/users/${user.hash}`, { token: adminToken, body: { password: "a manager's new password" } });
    expect(set.status).toBe(422);
    expect(Object.keys(set.body.errors)).toEqual(["password"]);
    // An expired link, even unused, is refused.
    await post("/api/auth/forgot-password", { email: staff });
    const [, , , third] = await smtp.waitFor(staff, 4);
    await execute(`UPDATE "hashapi_account_tokens" SET "expires_at" = '2000-01-01T00:00:00.000+00:00'`);
    expect((await post("/api/auth/reset-password", { token: tokenOf(third!), password: "an expired link's password" })).status).toBe(422);
    expect((await post("/api/auth/login", { email: staff, password: "the owner's new password" })).status).toBe(200);
  });

  it("moves an account to a new address from the link mailed there, ending its sessions", async () => {
    currentClient = from();
    const old = address("old");
    const session = await signUp(old, "Otto Old");
    const fresh = address("fresh");
    expect((await post("/api/auth/email", { email: fresh, password: "wrong password!" }, session)).status).toBe(422);
    const asked = await post("/api/auth/email", { email: fresh, password }, session);
    expect(asked.status).toBe(202);
    // An address that has an account answers the same, and is sent nothing.
    const taken = address("taken");
    await signUpQuick().then(() => undefined);
    expect((await post("/api/auth/email", { email: taken, password }, session)).text).toBe(asked.text);
    const [link] = await smtp.waitFor(fresh, 1);
    expect(link!.subject).toBe("Confirm your new email address for clinic-api");
    expect((await api("GET", "/api/auth/me", { token: session })).body.email).toBe(old);
    const confirmed = await post("/api/auth/email/confirm", { token: tokenOf(link!) });
    expect(confirmed.status).toBe(200);
    expect((await api("GET", "/api/auth/me", { token: session })).status).toBe(401);
    expect((await post("/api/auth/login", { email: fresh, password })).status).toBe(200);
    expect((await post("/api/auth/login", { email: old, password })).status).toBe(401);
    const told = await smtp.waitFor(old, 3);
    expect(told[2]!.subject).toBe("The email address of your clinic-api account was changed");
    expect(told[2]!.text).toContain(fresh);
    expect((await post("/api/auth/email/confirm", { token: tokenOf(link!) })).status).toBe(422);
  });

  it("lets exactly one of two resets with one token win", async () => {
    const emails = await Promise.all(Array.from({ length: 8 }, () => signUpQuick()));
    currentClient = from();
    for (const email of emails) await post("/api/auth/forgot-password", { email });
    for (const email of emails) {
      const [link] = await smtp.waitFor(email, 1);
      const results = await Promise.all(["first racing passphrase", "second racing passphrase"].map((next) => post("/api/auth/reset-password", { token: tokenOf(link!), password: next })));
      expect(results.map((result) => result.status).sort()).toEqual([200, 422]);
      const winner = results[0]!.status === 200 ? "first racing passphrase" : "second racing passphrase";
      const loser = winner.startsWith("first") ? "second racing passphrase" : "first racing passphrase";
      expect((await post("/api/auth/login", { email, password: winner })).status).toBe(200);
      expect((await post("/api/auth/login", { email, password: loser })).status).toBe(401);
    }
  });

  it("refuses weak passwords everywhere one is set, before anything is sent", async () => {
    currentClient = from();
    const email = address("weak");
    const cases: [unknown, string][] = [
      [{ name: "Wes", email, password: "short pass" }, "The password field must be at least 12 characters."],
      [{ name: "Wes", email, password: "qwertyuiop123" }, "The given password has appeared in a data leak. Please choose a different password."],
      [{ name: "Wes", email, password: "zzzzzzzzzzzzzz" }, "The given password has appeared in a data leak. Please choose a different password."],
      [{ name: "Wes", email, password: email }, "The password field must not be your name or email address."],
    ];
    for (const [body, message] of cases) {
      const answer = await post("/api/auth/register", body);
      expect(answer.status).toBe(422);
      expect(answer.body.errors.password).toEqual([message]);
    }
    const managed = await api("POST", "/api/users", { token: adminToken, body: { name: "Wes", email, password: "password12345" } });
    expect(managed.status).toBe(422);
    expect(managed.body.errors.password).toEqual(["The given password has appeared in a data leak. Please choose a different password."]);
    await new Promise((done) => setTimeout(done, 300));
    expect(smtp.to(email)).toEqual([]);
  });

  it("limits the mails per address and per client, with Retry-After", async () => {
    currentClient = from();
    const email = address("limited");
    for (let i = 0; i < 3; i++) expect((await post("/api/auth/forgot-password", { email })).status).toBe(202);
    const limited = await post("/api/auth/forgot-password", { email });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ type: "error", status: 429, message: "Too many requests." });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The address's budget is spent whatever route asks and whoever asks.
    currentClient = from();
    expect((await post("/api/auth/register", { name: "Lim", email, password })).status).toBe(429);
    // One client asking about many addresses meets its own limit.
    currentClient = from();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await post("/api/auth/forgot-password", { email: address("spray") })).status);
    expect(statuses.slice(0, 30).every((status) => status === 202)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  /**
   * A code of the secret for a step no request has used yet (each works once): the service takes
   * the step before now's, now's and the next, so three are at hand before one must wait.
   */
  const usedSteps = new Map<string, number>();
  const freshCode = async (secret: string) => {
    let step = Math.max(totpStep() - 1, (usedSteps.get(secret) ?? 0) + 1);
    while (step > totpStep() + 1) {
      await new Promise((done) => setTimeout(done, 500));
      step = Math.max(totpStep() - 1, (usedSteps.get(secret) ?? 0) + 1);
    }
    usedSteps.set(secret, step);
    return totpCode(secret, step);
  };

  it("asks a user with a second factor for it: no route gives a session without it", async () => {
    currentClient = from();
    const challenge = await post("/api/auth/login", { email: admin.email, password: admin.password });
    expect(challenge.status).toBe(200);
    expect(challenge.body.data).toEqual({ mfa_required: true, mfa_token: expect.any(String), expires_in: 300 });
    expect(challenge.body.data.access_token).toBeUndefined();
    const mfaToken = challenge.body.data.mfa_token as string;
    // The challenge is no bearer token.
    expect((await api("GET", "/api/auth/me", { token: mfaToken })).status).toBe(401);
    const wrong = await post("/api/auth/mfa/verify", { mfa_token: mfaToken, code: "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ code: ["The provided two factor authentication code was invalid."] });
    const code = await freshCode(adminSecret);
    const verified = await post("/api/auth/mfa/verify", { mfa_token: mfaToken, code });
    expect(verified.status).toBe(200);
    expect((await api("GET", "/api/users", { token: verified.body.data.access_token })).status).toBe(200);
    // The challenge is spent, and the code used: neither works again, even with a new challenge.
    expect((await post("/api/auth/mfa/verify", { mfa_token: mfaToken, code })).body.errors).toEqual({ mfa_token: ["This sign-in has expired: sign in again."] });
    const second = (await post("/api/auth/login", { email: admin.email, password: admin.password })).body.data.mfa_token;
    expect((await post("/api/auth/mfa/verify", { mfa_token: second, code })).status).toBe(422);
    // A recovery code works once.
    const recovery = adminRecoveryCodes[0]!;
    expect((await post("/api/auth/mfa/verify", { mfa_token: second, code: recovery.toLowerCase() })).status).toBe(200);
    const third = (await post("/api/auth/login", { email: admin.email, password: admin.password })).body.data.mfa_token;
    expect((await post("/api/auth/mfa/verify", { mfa_token: third, code: recovery })).status).toBe(422);
  });

  it("lets exactly one of two logins with one code win", async () => {
    currentClient = from();
    // The tries at a code are 5 a minute per user: the admin's were spent above.
    await execute(`DELETE FROM "login_throttles"`);
    const challenges = await Promise.all([0, 1].map(async () => (await post("/api/auth/login", { email: admin.email, password: admin.password })).body.data.mfa_token as string));
    const code = await freshCode(adminSecret);
    const results = await Promise.all(challenges.map((mfaToken) => post("/api/auth/mfa/verify", { mfa_token: mfaToken, code })));
    expect(results.map((result) => result.status).sort()).toEqual([200, 422]);
  });

  it("keeps the second factor through a password reset: the reset never signs in", async () => {
    currentClient = from();
    await execute(`DELETE FROM "login_throttles"`);
    const email = address("guarded");
    const token = await signUp(email);
    const secret = (await post("/api/auth/mfa/setup", { password }, token)).body.data.secret as string;
    expect((await post("/api/auth/mfa/confirm", { code: await freshCode(secret) }, token)).status).toBe(200);
    await post("/api/auth/forgot-password", { email });
    const mails = await smtp.waitFor(email, 3);
    const reset = await post("/api/auth/reset-password", { token: tokenOf(mails[2]!), password: "a brand new passphrase" });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toBeUndefined();
    const login = await post("/api/auth/login", { email, password: "a brand new passphrase" });
    expect(login.body.data.mfa_required).toBe(true);
    // Turning it off takes the password and a code; an admin's role may not.
    expect((await post("/api/auth/mfa/disable", { password: "a brand new passphrase", code: "123456" }, (await post("/api/auth/mfa/verify", { mfa_token: login.body.data.mfa_token, code: await freshCode(secret) })).body.data.access_token)).status).toBe(422);
    expect((await post("/api/auth/mfa/disable", { password: admin.password, code: await freshCode(adminSecret) }, adminToken)).status).toBe(403);
  });

  it("lists the caller's sessions and ends one without the others", async () => {
    currentClient = from();
    const email = address("sessions");
    const first = await signUp(email);
    const second = (await api("POST", "/api/auth/login", { body: { email, password }, headers: { "User-Agent": "second device", "X-Forwarded-For": currentClient } })).body.data.access_token as string;
    const listed = await api("GET", "/api/auth/sessions", { token: second });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data[0]).toMatchObject({ user_agent: "second device", ip: currentClient, current: true });
    expect(listed.body.data[1].current).toBe(false);
    // Another's session is the 404 of a missing one.
    expect((await api("DELETE", `/api/auth/sessions/${listed.body.data[1].hash}`, { token: adminToken })).status).toBe(404);
    expect((await api("DELETE", `/api/auth/sessions/${listed.body.data[1].hash}`, { token: second })).status).toBe(200);
    expect((await api("GET", "/api/auth/me", { token: first })).status).toBe(401);
    expect((await api("POST", "/api/auth/refresh", { token: first })).status).toBe(401);
    expect((await api("GET", "/api/auth/me", { token: second })).status).toBe(200);
    // A refresh keeps the session; a logout ends it.
    const refreshed = (await api("POST", "/api/auth/refresh", { token: second })).body.data.access_token as string;
    expect((await api("GET", "/api/auth/sessions", { token: refreshed })).body.data).toHaveLength(1);
    expect((await api("POST", "/api/auth/logout", { token: refreshed })).status).toBe(200);
    const again = (await post("/api/auth/login", { email, password })).body.data.access_token as string;
    expect((await api("GET", "/api/auth/sessions", { token: again })).body.data).toHaveLength(1);
  });

  it("invites with a role at or below the inviter's, answers the same for any address, and signs the invitee in", async () => {
    currentClient = from();
    const invitee = address("invitee");
    const invited = await api("POST", "/api/auth/invitations", { token: adminToken, body: { email: invitee.toUpperCase(), role: "doctor" }, headers: { "X-Forwarded-For": currentClient } });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ hash: expect.stringMatching(/^INV_/), email: invitee, role: "doctor" });
    // An address that has an account: the same answer; its owner is told, and nothing else happens.
    const member = address("member");
    await signUp(member, "Mia Member");
    const again = await api("POST", "/api/auth/invitations", { token: adminToken, body: { email: member, role: "doctor" }, headers: { "X-Forwarded-For": currentClient } });
    expect(again.status).toBe(201);
    expect(Object.keys(again.body.data).sort()).toEqual(Object.keys(invited.body.data).sort());
    expect((await smtp.waitFor(member, 3))[2]!.subject).toBe("Ada Admin invited you to clinic-api");
    const listed = (await api("GET", "/api/auth/invitations", { token: adminToken })).body.data.map((item: { email: string }) => item.email);
    expect(listed).toEqual(expect.arrayContaining([invitee, member]));
    const [mail] = await smtp.waitFor(invitee, 1);
    expect(mail!.text).toContain(`${service.baseUrl}/accept-invitation?token=`);
    expect(mail!.text).toContain("as doctor");
    const accepted = await post("/api/auth/invitations/accept", { token: tokenOf(mail!), name: "Dr Ivy Invitee", password });
    expect(accepted.status).toBe(201);
    const me = await api("GET", "/api/auth/me", { token: accepted.body.data.access_token });
    expect(me.body).toMatchObject({ name: "Dr Ivy Invitee", email: invitee, role: "doctor" });
    expect((await post("/api/auth/invitations/accept", { token: tokenOf(mail!), name: "Again", password })).status).toBe(422);
    // A doctor invites, but never above its own role; a receptionist does not invite at all.
    const doctor = accepted.body.data.access_token as string;
    const above = await api("POST", "/api/auth/invitations", { token: doctor, body: { email: address("x"), role: "admin" } });
    expect(above.status).toBe(422);
    expect(above.body.errors).toEqual({ role: ["The role field must not be above your own role."] });
    const receptionist = await signUp(address("recep"));
    expect((await api("POST", "/api/auth/invitations", { token: receptionist, body: { email: address("y"), role: "receptionist" } })).status).toBe(403);
    expect((await api("GET", "/api/auth/invitations", { token: receptionist })).status).toBe(403);
  });

  it("voids a revoked invitation's link, and gates an invited admin until the second factor", async () => {
    currentClient = from();
    const revokedAddress = address("revoked");
    const revoked = (await api("POST", "/api/auth/invitations", { token: adminToken, body: { email: revokedAddress, role: "doctor" } })).body.data.hash as string;
    const [link] = await smtp.waitFor(revokedAddress, 1);
    expect((await api("DELETE", `/api/auth/invitations/${revoked}`, { token: adminToken })).status).toBe(200);
    expect((await api("DELETE", `/api/auth/invitations/${revoked}`, { token: adminToken })).status).toBe(404);
    const refused = await post("/api/auth/invitations/accept", { token: tokenOf(link!), name: "Rev", password });
    expect(refused.body.errors).toEqual({ token: ["This invitation is invalid, revoked or has expired."] });
    const adminAddress = address("newadmin");
    await api("POST", "/api/auth/invitations", { token: adminToken, body: { email: adminAddress, role: "admin" } });
    const [adminLink] = await smtp.waitFor(adminAddress, 1);
    const session = (await post("/api/auth/invitations/accept", { token: tokenOf(adminLink!), name: "Nia Newadmin", password })).body.data.access_token as string;
    expect((await api("GET", "/api/users", { token: session })).status).toBe(403);
    expect((await api("GET", "/api/auth/me", { token: session })).body.role).toBe("admin");
  });

  it("runs every flow through the project's typed client", async () => {
    currentClient = from();
    // The fixture project's own generated client (client/src), as an app would import it.
    const { createClient, unwrap } = await import(join(project.dir, "client/src/index.ts"));
    const headers = { "X-Forwarded-For": currentClient };
    const person = createClient({ baseUrl: service.baseUrl, headers });
    const email = address("typed");
    expect(unwrap(await person.auth.register({ name: "Tia Typed", email, password })).message).toBe("Check your email to finish signing up.");
    unwrap(await person.auth.verifyEmail(tokenOf((await smtp.waitFor(email, 1))[0]!)));
    const session = unwrap(await person.auth.login({ email, password }));
    expect(session.token_type).toBe("Bearer");
    expect(unwrap(await person.auth.me()).email).toBe(email);
    expect(unwrap(await person.auth.sessions())[0].current).toBe(true);
    unwrap(await person.auth.forgotPassword(email));
    const reset = (await smtp.waitFor(email, 3))[2]!;
    unwrap(await person.auth.resetPassword({ token: tokenOf(reset), password: "a typed new passphrase" }));
    expect((await person.auth.me()).error?.status).toBe(401);
    unwrap(await person.auth.login({ email, password: "a typed new passphrase" }));
    const moved = address("typed-moved");
    unwrap(await person.auth.changeEmail({ email: moved, password: "a typed new passphrase" }));
    unwrap(await person.auth.confirmEmail(tokenOf((await smtp.waitFor(moved, 1))[0]!)));
    // The admin: a challenge, then the second factor, then an invitation another client accepts.
    const staff = createClient({ baseUrl: service.baseUrl, headers });
    await execute(`DELETE FROM "login_throttles"`);
    const challenge = unwrap(await staff.auth.login({ email: admin.email, password: admin.password }));
    expect(challenge.mfa_required).toBe(true);
    unwrap(await staff.auth.verifyMfa(challenge.mfa_token, await freshCode(adminSecret)));
    const invitee = address("typed-invitee");
    const invitation = unwrap(await staff.auth.invite({ email: invitee, role: "receptionist" }));
    expect(unwrap(await staff.auth.invitations()).map((item: { hash: string }) => item.hash)).toContain(invitation.hash);
    const newcomer = createClient({ baseUrl: service.baseUrl, headers });
    unwrap(await newcomer.auth.acceptInvitation({ token: tokenOf((await smtp.waitFor(invitee, 1))[0]!), name: "Nico Newcomer", password }));
    expect(unwrap(await newcomer.auth.me())).toMatchObject({ email: invitee, role: "receptionist" });
  });

  it("sends the project's own mail (ctx.mail) after commit, retried through the server's refusals", async () => {
    smtp.failNext(2);
    const name = `Dermatology ${database} ${n}`;
    const created = await api("POST", "/api/specialties", { token: adminToken, body: { name } });
    expect(created.status).toBe(201);
    const [mail] = await smtp.waitFor("desk@clinic.example", 1, 20_000);
    expect(mail).toMatchObject({ subject: `New specialty: ${name}`, from: "no-reply@clinic.example" });
    expect(mail!.text).toBe("Add it to the signs.");
    // A refused write sends nothing.
    expect((await api("POST", "/api/specialties", { token: adminToken, body: { name } })).status).toBe(422);
    await new Promise((done) => setTimeout(done, 500));
    expect(smtp.to("desk@clinic.example")).toHaveLength(1);
  });

  it("refuses malformed payloads with Laravel's messages, and every link's route without a token", async () => {
    currentClient = from();
    const missing = await post("/api/auth/register", {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ name: ["The name field is required."], email: ["The email field is required."], password: ["The password field is required."] });
    expect((await post("/api/auth/forgot-password", { email: "not an address" })).body.errors).toEqual({ email: ["The email field must be a valid email address."] });
    for (const path of ["/api/auth/verify-email", "/api/auth/reset-password"]) {
      for (const token of ["", "x".repeat(201), 42, "A".repeat(43)]) {
        const answer = await post(path, path.endsWith("reset-password") ? { token, password: "a fine long passphrase" } : { token });
        expect(answer.status, `${path} ${String(token).slice(0, 10)}`).toBe(422);
        expect(Object.keys(answer.body.errors)).toEqual(["token"]);
      }
    }
    expect((await post("/api/auth/reset-password", { token: "A".repeat(43), password: "a fine long passphrase", extra: 1 })).status).toBe(422);
  });
});
