import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { chromium, type Browser, type Page } from "playwright-core";
import { repo } from "./service.js";

/**
 * The admin (/admin) in a real browser: Debian's Chromium driven by playwright-core, every response
 * of the API recorded (what a hidden field must be absent from), axe-core's verdict on each page,
 * screenshots kept under .tmp/artifacts/admin/ (CI keeps .tmp/artifacts).
 */
export const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));

export const artifactsDir = join(repo, ".tmp/artifacts/admin");

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error("the admin's browser tests need Chromium: apt-get install chromium");
  return chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
}

/** One answer the page received from the API, its body as text. */
export interface Received {
  readonly url: string;
  readonly status: number;
  readonly body: string;
}

/** A tab on the admin, with what it received and the script errors it met. */
export interface AdminTab {
  readonly page: Page;
  readonly received: Received[];
  readonly scriptErrors: string[];
  close(): Promise<void>;
}

export async function openAdmin(browser: Browser, baseUrl: string, options: { width?: number } = {}): Promise<AdminTab> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1200, height: 900 } });
  const page = await context.newPage();
  const received: Received[] = [];
  const scriptErrors: string[] = [];
  page.on("pageerror", (error) => scriptErrors.push(error.message));
  page.on("response", (response) => {
    if (!new URL(response.url()).pathname.startsWith("/api/")) return;
    void response.text().then(
      (body) => received.push({ url: response.url(), status: response.status(), body }),
      () => received.push({ url: response.url(), status: response.status(), body: "" }),
    );
  });
  await page.goto(`${baseUrl}/admin/`);
  return { page, received, scriptErrors, close: () => context.close() };
}

/** Signs in through the page (and its second step, given a code); waits for the navigation. */
export async function signIn(tab: AdminTab, email: string, password: string, code?: () => string): Promise<void> {
  const { page } = tab;
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (code) {
    await page.getByLabel(/Code from your authenticator app/).fill(code());
    await page.getByRole("button", { name: "Verify" }).click();
  }
  await page.locator("nav[aria-label=Sections]").waitFor({ timeout: 15_000 });
}

/** Goes to an admin address (`#/patients`, as the pages write it) and waits until it is drawn. */
export async function visit(tab: AdminTab, hash: string): Promise<void> {
  await tab.page.evaluate((target) => (location.hash = target), hash);
  await settled(tab.page, hash);
}

/** Waits until the page shows `hash` (any, without it) and every load it asked for is drawn. */
export async function settled(page: Page, hash?: string): Promise<void> {
  await page.waitForFunction(
    (route) => (route === null || document.querySelector("main")?.getAttribute("data-route") === route) && document.documentElement.dataset.loads === "0",
    hash ?? null,
    { timeout: 15_000 },
  );
}

/** axe-core's serious and critical violations on the page as it is, one line each. */
export async function axeProblems(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${where}: ${violation.id} (${violation.impact}) at ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
}

export async function screenshot(page: Page, folder: string, name: string): Promise<void> {
  const dir = join(artifactsDir, folder);
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name.replace(/[^A-Za-z0-9_-]+/g, "-")}.png`), fullPage: true });
}

/**
 * Keys that appear anywhere in the JSON the page received (a hidden field's must not); with
 * `recordsOnly`, only in the records of the resources' own answers (their `data`), where a field's
 * key cannot be taken for an envelope's or the manifest's.
 */
export function receivedKeys(received: readonly Received[], options: { recordsOnly?: boolean } = {}): Set<string> {
  const keys = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null)
      for (const [key, inner] of Object.entries(value)) {
        keys.add(key);
        walk(inner);
      }
  };
  for (const { url, body } of received) {
    const path = new URL(url).pathname;
    if (options.recordsOnly && (path.startsWith("/api/admin/") || path.startsWith("/api/auth/"))) continue;
    try {
      const parsed = JSON.parse(body) as { data?: unknown };
      walk(options.recordsOnly ? parsed.data : parsed);
    } catch {
      // Not JSON (the pages themselves): nothing of a record's.
    }
  }
  return keys;
}

/** Whether the page is readable at its width: nothing but a table's own region scrolls sideways. */
export async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
