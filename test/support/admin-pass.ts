import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { axeProblems, openAdmin, receivedKeys, screenshot, signIn, visit, type AdminTab } from "./admin-browser.js";
import { client, startService } from "./service.js";

/**
 * The admin of a drawn spec set, in the browser (issue 51): each reader the fuzz made (a user of
 * every role, with tenancy a member of each tenant role in the first tenant) signs in through the
 * page and opens every list, a record, its edit form and an empty create, with axe on each. What
 * fails: a script error, a 5xx, a page that cannot draw what the API answered, a field the role
 * may not see in any answer the page received, a 422 message missing from the form, axe's serious
 * or critical violations.
 */
interface ManifestField {
  key: string;
  label: string;
  output: boolean;
  visibleTo?: string[];
}
interface ManifestResource {
  collection: string;
  tenant?: string;
  fields: ManifestField[];
  actions: Record<string, unknown>;
}

export async function adminPass(browser: Browser, dir: string, env: Record<string, string>, name: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, "src/admin/admin.json"), "utf8")) as { roles: string[]; resources: ManifestResource[]; extras: { tenancy?: { roles: string[] } } };
  const service = await startService({ cwd: dir, env: { ...env, WEB_CONCURRENCY: "1" } });
  const problems: string[] = [];
  try {
    const readers = manifest.roles.map((role) => ({ label: role, email: `fuzz-${role}@example.com` }));
    for (const role of manifest.extras.tenancy?.roles ?? []) readers.push({ label: `${role}-member`, email: `fuzz-${role}-member@example.com` });
    const before = visitedPages;
    for (const reader of readers) problems.push(...(await readerPass(browser, service.baseUrl, manifest.resources, reader, name)));
    // A pass that drew no page checked nothing.
    if (visitedPages === before) problems.push("the admin: no page was drawn for any reader");
  } finally {
    await service.stop();
  }
  return problems;
}

async function readerPass(browser: Browser, baseUrl: string, resources: ManifestResource[], reader: { label: string; email: string }, name: string): Promise<string[]> {
  const tab = await openAdmin(browser, baseUrl);
  const problems: string[] = [];
  const where = (page: string) => `${reader.label} at ${page}`;
  try {
    await signIn(tab, reader.email, "a long password").catch(async () => {
      throw new Error(`signing in: ${await tab.page.locator("body").innerText()}`);
    });
    const token = await tab.page.evaluate(() => sessionStorage.getItem("hashapi-admin-token"));
    const tenants = (await client(baseUrl)("GET", "/api/auth/tenants", { token: token ?? undefined })).body?.data as { hash: string }[] | undefined;
    if (tenants?.[0]) {
      await tab.page.getByRole("combobox").first().selectOption(tenants[0].hash).catch(() => undefined);
      await tab.page.waitForTimeout(300);
    }
    const view = (await client(baseUrl)("GET", "/api/admin/manifest", { token: token ?? undefined, headers: tenants?.[0] ? { "X-Tenant": tenants[0].hash } : {} })).body.data as { role: string; tenantRole?: string; resources: ManifestResource[] };
    for (const resource of view.resources) problems.push(...(await resourcePass(tab, resource, where, `${name}/${reader.label}`)));
    problems.push(...hiddenReceived(tab, resources, view));
    const failed = tab.received.filter((answer) => answer.status >= 500);
    if (failed.length > 0) problems.push(where(`answers: ${failed.map((answer) => `${answer.status} ${answer.url}`).join(", ")}`));
    if (tab.scriptErrors.length > 0) problems.push(where(`script errors: ${tab.scriptErrors.join("; ")}`));
  } catch (error) {
    problems.push(where(String(error)));
  } finally {
    await tab.close();
  }
  return problems;
}

/** Pages drawn by the passes of this process (reported by adminPass). */
let visitedPages = 0;

/** A resource's pages for one reader: list, first record, edit, an empty create. */
async function resourcePass(tab: AdminTab, resource: ManifestResource, where: (page: string) => string, name: string): Promise<string[]> {
  const { page } = tab;
  const problems: string[] = [];
  const drawn = async (label: string) => {
    const heading = await page.locator("main h1").first().innerText();
    const failure = await page.locator("main .error-summary").count();
    if (heading === "Not found" || failure > 0) problems.push(where(`${label}: ${heading} ${failure ? await page.locator("main .error-summary").innerText() : ""}`));
    problems.push(...(await axeProblems(page, where(label))));
  };
  if (resource.actions.index) {
    await visit(tab, `#/${resource.collection}`);
    await drawn(`#/${resource.collection}`);
    await screenshot(page, `spec-space-${name}`, `${resource.collection}-list`);
    visitedPages += 1;
    const first = page.locator("main table tbody tr td:first-child a").first();
    if ((await first.count()) > 0) {
      const hash = await first.innerText();
      await visit(tab, `#/${resource.collection}/${hash}`);
      await drawn(`#/${resource.collection}/${hash}`);
      if (resource.actions.update) {
        await visit(tab, `#/${resource.collection}/${hash}/edit`);
        await drawn(`#/${resource.collection}/${hash}/edit`);
      }
    }
  }
  if (resource.actions.store) {
    await visit(tab, `#/${resource.collection}/new`);
    await drawn(`#/${resource.collection}/new`);
    visitedPages += 1;
    problems.push(...(await emptyCreate(tab, resource, where)));
  }
  return problems;
}

/** An empty create: a record (nothing required), or each 422 message under its input or in the summary. */
async function emptyCreate(tab: AdminTab, resource: ManifestResource, where: (page: string) => string): Promise<string[]> {
  const { page } = tab;
  const answer = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === `/api/${resource.collection}`, { timeout: 15_000 });
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const response = await answer.catch(() => undefined);
  if (!response) return [where(`#/${resource.collection}/new: no create was sent`)];
  if (response.status() !== 422) return [];
  const errors = ((await response.json()) as { errors?: Record<string, string[]> }).errors ?? {};
  await page.locator("main .error-summary").waitFor({ timeout: 10_000 });
  const text = await page.locator("main").innerText();
  return Object.values(errors)
    .flat()
    .filter((message) => !text.includes(message))
    .map((message) => where(`#/${resource.collection}/new: the 422 message "${message}" is not shown`));
}

/**
 * Keys of fields the reader's role may not see anywhere (hidden in one resource, shown in none)
 * that appeared in an answer the page received.
 */
function hiddenReceived(tab: AdminTab, resources: ManifestResource[], view: { role: string; tenantRole?: string; resources: ManifestResource[] }): string[] {
  const shown = new Set(view.resources.flatMap((resource) => resource.fields.map((field) => field.key)));
  const roleOf = (resource: ManifestResource) => (resource.tenant === "member" ? view.tenantRole : view.role);
  const hidden = resources.flatMap((resource) => resource.fields.filter((field) => field.visibleTo && !field.visibleTo.includes(roleOf(resource) ?? "")).map((field) => field.key)).filter((key) => !shown.has(key));
  const received = receivedKeys(tab.received, { recordsOnly: true });
  return hidden.filter((key) => received.has(key)).map((key) => `${view.role}: the hidden field ${key} was in an answer the page received`);
}
