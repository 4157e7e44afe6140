import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, client, prepareProject, startService, type Project, type RunningService } from "../support/service.js";

/**
 * /api/docs in a real browser: Debian's `chromium` driven by playwright-core, offline (the page serves
 * its own assets). Every operation of openapi.json is listed; "Authorize" takes a real token; "Try it
 * out" creates a patient and lists it against the running service, on a port chosen at random.
 * Skipped only outside CI when no Chromium is installed (`apt-get install chromium`); .ci/run installs it.
 */
const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
const methods = ["get", "post", "put", "patch", "delete"];

describe.skipIf(!chromiumPath && !process.env.CI)("the reference page at /api/docs in headless Chromium", () => {
  let project: Project;
  let service: RunningService;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    if (!chromiumPath) throw new Error("CI needs Chromium for this suite: apt-get install chromium");
    project = await prepareProject({ name: "e2e-docs" });
    service = await startService({ cwd: project.dir, env: project.env });
    const login = await client(service.baseUrl)("POST", "/api/auth/login", { body: { email: admin.email, password: admin.password } });
    token = (login.body as { data: { access_token: string } }).data.access_token;
    browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
    page = await browser.newPage();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await project?.cleanup();
  });

  /** Expands one operation and presses "Try it out". */
  async function tryOut(operationId: string) {
    const block = page.locator(`[id$="-${operationId}"]`);
    await block.locator(".opblock-summary").first().click();
    await block.locator(".try-out__btn").click();
    return block;
  }

  async function execute(block: ReturnType<Page["locator"]>): Promise<{ status: number; body: string }> {
    await block.locator(".execute").click();
    const status = block.locator(".live-responses-table tbody .response-col_status").first();
    await status.waitFor({ timeout: 15_000 });
    const body = await block.locator(".live-responses-table .response-col_description pre").first().innerText();
    return { status: Number((await status.innerText()).trim()), body };
  }

  it("lists every operation of openapi.json, from its own assets", async () => {
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(service.baseUrl) && !request.url().startsWith("data:")) outside.push(request.url());
    });
    const response = await page.goto(`${service.baseUrl}/api/docs/`);
    expect(response?.status()).toBe(200);
    await page.locator(".opblock").first().waitFor({ timeout: 20_000 });
    const document = JSON.parse(await readFile(join(project.dir, "openapi.json"), "utf8")) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).filter((key) => methods.includes(key)).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const listed = await page.locator(".opblock").evaluateAll((blocks) =>
      blocks.map((block) => `${block.querySelector(".opblock-summary-method")?.textContent?.trim()} ${block.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`),
    );
    expect(listed.sort()).toEqual(expected);
    expect(outside, "requests that left the service").toEqual([]);
  }, 60_000);

  it("authorizes with a real token, creates a patient with Try it out and finds it in the list", async () => {
    await page.locator(".auth-wrapper .authorize").click();
    await page.locator(".auth-container input").first().fill(token);
    await page.locator(".auth-btn-wrapper .modal-btn.authorize").click();
    await page.locator(".auth-btn-wrapper .btn-done").click();

    const cpf = String(70_000_000_000 + (Date.now() % 1_000_000_000));
    const create = await tryOut("createPatient");
    await create.locator("textarea.body-param__text").fill(JSON.stringify({ name: "Browser Patient", cpf }));
    const created = await execute(create);
    expect(created.status, created.body).toBe(201);
    const hash = (JSON.parse(created.body) as { data: { hash: string } }).data.hash;
    expect(hash).toMatch(/^PAT_/);

    const list = await tryOut("listPatients");
    const listed = await execute(list);
    expect(listed.status, listed.body).toBe(200);
    expect(listed.body).toContain(hash);
  }, 90_000);
});
