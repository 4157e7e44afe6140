import pg from "pg";
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { admin, client, prepareProject, repo, type Project, type Reply, type Request, type RunningService, startService } from "../support/service.js";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink.js";

/**
 * Issue 48: the account flows, end to end through a real SMTP server (STARTTLS and AUTH) from the
 * mail's link, on SQLite and PostgreSQL. The fixture signs people up as receptionists with their
 * address confirmed first, passwords of at least 12 characters, and limits of 3 mails per address
 * and 30 requests per client a minute.
 */
const password = "a long password";
const tokenOf = (mail: ReceivedMail) => /[?&]token=([A-Za-z0-9_-]{43})\b/.exec(mail.text)?.[1] ?? "";

describe.each(databaseTargets)("accounts on $label", ({ database }) => {
  let project: Project;
  let postgres: PostgresServer | undefined;
  let service: RunningService;
  let smtp: SmtpSink;
  let api: Request;
  let adminToken: string;
  /** Runs a statement on the service's database (to age a token past its expiry). */
  let execute: (text: string) => Promise<void>;
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
    project = await prepareProject({ name: `e2e-accounts-${database}`, database, databaseUrl, extraSpecs: join(repo, "test/fixtures/accounts") });
    service = await startService({ cwd: project.dir, env: { ...project.env, MAIL_URL: smtp.url, TRUST_PROXY: "loopback", WEB_CONCURRENCY: "2", WEBHOOK_RETRY_BASE_MS: "50" } });
    api = client(service.baseUrl);
    adminToken = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
    if (database === "postgresql") {
      const connection = new pg.Client({ connectionString: project.databaseUrl });
      await connection.connect();
      execute = async (text) => void (await connection.query(text));
      closeDatabase = () => connection.end();
    } else {
      const connection = new Database(join(project.dir, project.databaseUrl.slice("file:".length)));
      connection.pragma("busy_timeout = 5000");
      execute = async (text) => void connection.exec(text);
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
    const staff = address("staff");
    const user = (await api("POST", "/api/users", { token: adminToken, body: { name: "Sam Staff", email: staff, password, role: "doctor" } })).body.data;
    await post("/api/auth/forgot-password", { email: staff });
    const [link] = await smtp.waitFor(staff, 1);
    // A manager sets a new password after the link was sent: the link no longer works.
    await new Promise((done) => setTimeout(done, 5));
    expect((await api("PATCH", `/api/users/${user.hash}`, { token: adminToken, body: { password: "a manager's new password" } })).status).toBe(200);
    expect((await post("/api/auth/reset-password", { token: tokenOf(link!), password: "the owner's new password" })).status).toBe(422);
    // An expired link, even unused, is refused.
    await post("/api/auth/forgot-password", { email: staff });
    const [, second] = await smtp.waitFor(staff, 2);
    await execute(`UPDATE "account_tokens" SET "expires_at" = '2000-01-01T00:00:00.000+00:00'`);
    expect((await post("/api/auth/reset-password", { token: tokenOf(second!), password: "the owner's new password" })).status).toBe(422);
    expect((await post("/api/auth/login", { email: staff, password: "a manager's new password" })).status).toBe(200);
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
