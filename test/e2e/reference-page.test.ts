import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

  it("lets a browser app on a listed origin call the API across origins (CORS_ORIGINS), and keeps another origin's scripts out", async () => {
    // The app's page, served from its own origin: same host, another port.
    const pages = createServer((_req, res) => void res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>app</title>"));
    await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
    const port = (pages.address() as AddressInfo).port;
    const appOrigin = `http://127.0.0.1:${port}`;
    const cors = await startService({ cwd: project.dir, env: { ...project.env, CORS_ORIGINS: appOrigin } });
    const tab = await browser.newPage();
    try {
      const call = (origin: string) =>
        tab.goto(`${origin}/`).then(() =>
          tab.evaluate(
            async ({ api, bearer, cpf }) => {
              try {
                const response = await fetch(`${api}/api/patients`, { method: "POST", headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" }, body: JSON.stringify({ name: "Cross Origin", cpf }) });
                return { status: response.status, body: await response.text() };
              } catch (error) {
                return { status: 0, body: String(error) };
              }
            },
            { api: cors.baseUrl, bearer: token, cpf: String(80_000_000_000 + (Date.now() % 1_000_000_000)) },
          ),
        );
      // A preflighted request (Authorization, JSON): answered, then the POST itself, its body readable.
      const listed = await call(appOrigin);
      expect(listed.status, listed.body).toBe(201);
      expect(JSON.parse(listed.body).data.hash).toMatch(/^PAT_/);
      // localhost is another origin than 127.0.0.1: not listed, so the browser refuses the script.
      const other = await call(`http://localhost:${port}`);
      expect(other.status, other.body).toBe(0);
      expect(other.body).toMatch(/Failed to fetch/);
    } finally {
      await tab.close();
      await cors.stop();
      await new Promise((resolve) => pages.close(resolve));
    }
  }, 90_000);
});
