import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode, totpStep } from "../../runtime/common/src/base/totp.js";
import { axeProblems, chromiumPath, launchBrowser, openAdmin, receivedKeys, screenshot, settled, signIn, visit } from "../support/admin-browser.js";
import { admin, client, prepareProject, repo, startService, startWebhookSink, type Project, type Request, type RunningService } from "../support/service.js";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.js";

/**
 * Issue 51: the admin of projects beside the example, in headless Chromium on SQLite: a reset link
 * asked for from the sign-in page; a role that must set up a second factor does it in the page and
 * signs in with it, and invites; a tenanted
 * project's tenant switcher, members, webhook deliveries and jobs; file fields uploaded from a form.
 */
const password = "a long password";
const skipped = !chromiumPath && !process.env.CI;

describe.skipIf(skipped)("the admin of other projects", () => {
  let browser: Browser;
  const axe: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  describe("with a second factor and invitations (test/fixtures/accounts)", () => {
    let project: Project;
    let service: RunningService;
    let smtp: SmtpSink;

    beforeAll(async () => {
      smtp = await startSmtpSink();
      project = await prepareProject({ name: "e2e-admin-accounts", extraSpecs: join(repo, "test/fixtures/accounts") });
      service = await startService({ cwd: project.dir, env: { ...project.env, MAIL_URL: smtp.url } });
    }, 300_000);

    afterAll(async () => {
      await service?.stop();
      await smtp?.close();
      await project?.cleanup();
    });

    // Each code works once: the service takes the step before now's, now's and the next.
    let lastStep = 0;
    const freshCode = async (secret: string) => {
      let step = Math.max(totpStep() - 1, lastStep + 1);
      while (step > totpStep() + 1) {
        await new Promise((done) => setTimeout(done, 500));
        step = Math.max(totpStep() - 1, lastStep + 1);
      }
      lastStep = step;
      return totpCode(secret, step);
    };

    it("sets a required second factor up in the page, then signs in with a code, and invites", async () => {
      const tab = await openAdmin(browser, service.baseUrl);
      const { page } = tab;
      // A forgotten password: the sign-in page asks the API for a reset link, which is mailed.
      await page.getByRole("button", { name: "Forgot your password?" }).click();
      await page.getByLabel("E-mail").fill(admin.email);
      await page.getByRole("button", { name: "Send me a link" }).click();
      await page.getByRole("status").filter({ hasText: /\w/ }).waitFor();
      expect((await smtp.waitFor(admin.email, 1))[0]!.text).toContain("reset");
      await page.getByRole("button", { name: "Back to signing in" }).click();
      await page.getByLabel("E-mail").fill(admin.email);
      await page.getByLabel("Password").fill(admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Set up a second factor" }).waitFor();
      axe.push(...(await axeProblems(page, "mfa-setup")));
      await page.getByLabel("Password").fill(admin.password);
      await page.getByRole("button", { name: "Continue" }).click();
      const secret = await page.locator("code.secret").innerText();
      await page.getByLabel("Code from the app").fill(await freshCode(secret));
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("heading", { name: "Recovery codes" }).waitFor();
      expect(await page.locator("ul.codes li").count()).toBe(10);
      await screenshot(page, "accounts", "recovery-codes");
      await page.getByRole("button", { name: "Continue" }).click();
      await page.locator("nav[aria-label=Sections]").waitFor();
      await page.getByRole("button", { name: "Sign out" }).click();
      const code = await freshCode(secret);
      await signIn(tab, admin.email, admin.password, () => code);
      axe.push(...(await axeProblems(page, "accounts-home")));

      await visit(tab, "#/-/invitations");
      await page.getByLabel("E-mail").fill("new.doctor@example.com");
      await page.getByLabel("Role").selectOption("doctor");
      await page.getByRole("button", { name: "Invite" }).click();
      await page.locator("main table").getByText("new.doctor@example.com").waitFor();
      await screenshot(page, "accounts", "invitations");
      axe.push(...(await axeProblems(page, "invitations")));
      await page.getByRole("button", { name: "Revoke" }).click();
      await page.getByText("None.").waitFor();
      expect(tab.scriptErrors).toEqual([]);
      await tab.close();
    }, 180_000);
  });

  describe("with tenants, webhooks and jobs (test/fixtures/tenancy)", () => {
    let project: Project;
    let service: RunningService;
    let stopSink: () => Promise<void>;
    let api: Request;
    let acme: string;
    let staff: string;

    beforeAll(async () => {
      project = await prepareProject({ name: "e2e-admin-tenancy", specs: join(repo, "test/fixtures/tenancy"), adminRole: "staff" });
      const sink = await startWebhookSink();
      stopSink = () => sink.close();
      const at = sink.env.FUZZ_WEBHOOK_URL_ADMIN!.replace(/\/admin$/, "");
      service = await startService({
        cwd: project.dir,
        env: { ...project.env, TENANCY_MEMBER_URL: `${at}/member`, TENANCY_FIRST_URL: `${at}/first`, TENANCY_HOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", TENANCY_FIRST_AGENCY: "AGY_22222222" },
      });
      api = client(service.baseUrl);
      staff = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
      const users: Record<string, string> = {};
      for (const name of ["olga", "mia"]) users[name] = (await api("POST", "/api/users", { token: staff, body: { name, email: `${name}@example.com`, password, role: "user" } })).body.data.hash;
      const olga = (await api("POST", "/api/auth/login", { body: { email: "olga@example.com", password } })).body.data.access_token;
      acme = (await api("POST", "/api/agencies", { token: olga, body: { name: "Acme" } })).body.data.hash;
      const opening = await api("POST", "/api/openings", { token: olga, headers: { "X-Tenant": acme }, body: { title: "Nurse", code: "N-1", budget: "1200.50" } });
      expect(opening.status, opening.text).toBe(201);
      expect((await api("POST", "/api/members", { token: staff, headers: { "X-Tenant": acme }, body: { user: users.mia, role: "member" } })).status).toBe(201);
    }, 300_000);

    afterAll(async () => {
      await service?.stop();
      await stopSink?.();
      await project?.cleanup();
    });

    it("gives the first role webhook deliveries and jobs, and users", async () => {
      const tab = await openAdmin(browser, service.baseUrl);
      await signIn(tab, admin.email, admin.password);
      const { page } = tab;
      const sections = await page.locator("nav[aria-label=Sections] a").allInnerTexts();
      expect(sections).toEqual(expect.arrayContaining(["Users", "Webhook deliveries", "Jobs"]));
      await visit(tab, "#/-/deliveries");
      await expect.poll(async () => (await visit(tab, "#/-/deliveries"), page.locator("main table tbody tr").count()), { timeout: 20_000 }).toBeGreaterThan(0);
      await screenshot(page, "tenancy", "deliveries");
      // Filtered by status, as the API filters (?status=).
      const [asked] = await Promise.all([page.waitForResponse((response) => response.url().includes("/api/webhooks/deliveries?") && response.url().includes("status=failed")), page.getByLabel("Status").selectOption("failed")]);
      expect(asked.status()).toBe(200);
      await settled(page);
      expect(await page.locator("main table tbody tr").count()).toBe(((await asked.json()) as { data: unknown[] }).data.length);
      axe.push(...(await axeProblems(page, "deliveries")));
      await visit(tab, "#/-/jobs");
      axe.push(...(await axeProblems(page, "jobs")));
      await tab.close();
    }, 120_000);

    it("switches tenants, shows the tenant's records and members, and hides what a member may not see", async () => {
      const tab = await openAdmin(browser, service.baseUrl);
      await signIn(tab, "olga@example.com", password);
      const { page } = tab;
      expect(await page.locator("nav[aria-label=Sections] a").allInnerTexts()).not.toContain("Openings");
      await page.getByLabel("Agency").selectOption(acme);
      await page.locator("nav[aria-label=Sections] a", { hasText: "Openings" }).waitFor();
      await settled(page);
      await visit(tab, "#/openings");
      expect(await page.locator("main table thead").innerText()).toContain("Budget");
      expect(await page.locator("main table tbody").innerText()).toContain("Nurse");
      await visit(tab, "#/-/members");
      expect(await page.locator("main table tbody").innerText()).toContain("olga");
      await screenshot(page, "tenancy", "members");
      // The owner re-roles a member in place; the API says so too.
      await page.getByLabel("Role of mia").selectOption("manager");
      await page.getByRole("status").filter({ hasText: "mia is now manager." }).waitFor();
      const members = (await api("GET", "/api/members", { token: staff, headers: { "X-Tenant": acme } })).body.data as { user: { name: string }; role: string }[];
      expect(members.find((member) => member.user.name === "mia")?.role).toBe("manager");
      await page.getByLabel("Role of mia").selectOption("member");
      await page.getByRole("status").filter({ hasText: "mia is now member." }).waitFor();
      axe.push(...(await axeProblems(page, "members")));
      await tab.close();

      const member = await openAdmin(browser, service.baseUrl);
      await signIn(member, "mia@example.com", password);
      await member.page.getByLabel("Agency").selectOption(acme);
      await member.page.locator("nav[aria-label=Sections] a", { hasText: "Openings" }).waitFor();
      await settled(member.page);
      await visit(member, "#/openings");
      expect(await member.page.locator("main table tbody").innerText()).toContain("Nurse");
      expect(await member.page.locator("main table thead").innerText()).not.toContain("Budget");
      expect(await member.page.getByRole("link", { name: "New opening" }).count()).toBe(0);
      await member.page.waitForTimeout(200);
      expect(receivedKeys(member.received).has("budget")).toBe(false);
      expect(member.received.map((answer) => answer.body).join("\n")).not.toContain("1200.50");
      expect(member.scriptErrors).toEqual([]);
      await member.close();
    }, 120_000);
  });

  describe("with file fields (test/fixtures/files)", () => {
    let project: Project;
    let service: RunningService;
    let api: Request;
    let token: string;

    beforeAll(async () => {
      project = await prepareProject({ name: "e2e-admin-files", specs: join(repo, "test/fixtures/files") });
      service = await startService({ cwd: project.dir, env: { ...project.env, STORAGE_DRIVER: "local" } });
      api = client(service.baseUrl);
      token = (await api("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } })).body.data.access_token;
      expect((await api("POST", "/api/users", { token, body: { name: "Rob", email: "rob@example.com", password, role: "recruiter" } })).status).toBe(201);
    }, 300_000);

    afterAll(async () => {
      await service?.stop();
      await project?.cleanup();
    });

    it("uploads a file from the form, refuses one its rules refuse under the field, and links it", async () => {
      const tab = await openAdmin(browser, service.baseUrl);
      await signIn(tab, admin.email, admin.password);
      const { page } = tab;
      await visit(tab, "#/candidates/new");
      await page.getByRole("textbox", { name: "Name", exact: true }).fill("Carla");
      // A PNG where a résumé (pdf, docx, txt) is asked: the upload's 422, under the field.
      const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
      await page.getByLabel("Resume").setInputFiles({ name: "cv.png", mimeType: "image/png", buffer: png });
      await page.getByRole("button", { name: "Create" }).click();
      const resumeErrors = page.locator(".field", { has: page.getByLabel("Resume") }).locator(".field-errors");
      await expect.poll(() => resumeErrors.innerText()).toMatch(/resume/i);
      await page.getByLabel("Resume").setInputFiles({ name: "cv.txt", mimeType: "text/plain", buffer: Buffer.from("Carla's résumé\n") });
      await page.getByRole("button", { name: "Create" }).click();
      await page.getByRole("link", { name: /cv\.txt/ }).waitFor();
      const hash = /#\/candidates\/(\w+)/.exec(page.url())![1]!;
      const record = (await api("GET", `/api/candidates/${hash}`, { token })).body.data;
      expect(record.resume).toMatchObject({ name: "cv.txt", type: "text/plain" });
      await screenshot(page, "files", "candidate");
      axe.push(...(await axeProblems(page, "candidate")));
      await tab.close();

      // A recruiter: the admin-only scan is absent from the form and from every answer.
      const recruiter = await openAdmin(browser, service.baseUrl);
      await signIn(recruiter, "rob@example.com", password);
      await visit(recruiter, `#/candidates/${hash}/edit`);
      expect(await recruiter.page.getByLabel("Resume").count()).toBe(1);
      expect(await recruiter.page.getByLabel("Scan").count()).toBe(0);
      expect(receivedKeys(recruiter.received).has("scan")).toBe(false);
      await recruiter.close();
    }, 120_000);
  });

  it("met no serious or critical axe violation on any page it visited", () => {
    expect(axe).toEqual([]);
  });
});
