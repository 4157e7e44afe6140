import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeProblems, chromiumPath, launchBrowser, openAdmin, overflowsSideways, receivedKeys, screenshot, settled, signIn, visit, type AdminTab } from "../support/admin-browser.js";
import { databaseTargets } from "../support/hostile.js";
import { admin, startClinic, type ClinicSession } from "../support/service.js";

/**
 * Issue 51: the example's admin (/admin) in headless Chromium, on SQLite and PostgreSQL, per
 * resource and role on seeded data: sign-in, search, sort, every filter operator, a cursor past page
 * 1, Laravel's messages under the fields, edit, history, delete with what restricts it, trash and
 * restore, a picker over 100+ records, a pivot, hidden fields absent from the page and from every
 * response, read-only fields, actions not offered, another's record not found, 320 px, and axe.
 */
interface ManifestField {
  key: string;
  label: string;
  type: string;
  operators?: string[];
  output: boolean;
  create?: object;
  update?: object;
}
type Row = Record<string, unknown>;

describe.skipIf(!chromiumPath && !process.env.CI).each(databaseTargets)("the admin at /admin on $label", ({ database }) => {
  let clinic: ClinicSession;
  let browser: Browser;
  let dora: string;
  const hashes: Record<string, string> = {};
  const axe: string[] = [];
  const shots = `example-${database}`;

  const api = (method: string, path: string, token: string | undefined, body?: unknown) => clinic.api(method as "GET", path, { token, body });
  const data = async (path: string, token = clinic.admin) => {
    const reply = await api("GET", path, token);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data as Row[];
  };

  beforeAll(async () => {
    clinic = await startClinic("admin", database);
    browser = await launchBrowser();
    const created = async (path: string, body: unknown) => {
      const reply = await api("POST", path, clinic.admin, body);
      expect(reply.status, reply.text).toBe(201);
      return reply.body.data.hash as string;
    };
    const doraUser = await created("/api/users", { name: "Dora Doctor", email: "dora@example.com", password: "a long password", role: "doctor" });
    hashes.doraDoctor = await created("/api/doctors", { name: "Dr. Dora Own", crm: "CRM-ADM-1", user: doraUser });
    hashes.otherDoctor = await created("/api/doctors", { name: "Dr. Otto Other", crm: "CRM-ADM-2" });
    await created("/api/specialties", { name: "Neurology Admin" });
    // More than a hundred patients: a picker must reach past its first page.
    for (let start = 0; start < 110; start += 22)
      await Promise.all(
        Array.from({ length: 22 }, (_, offset) => start + offset).map(async (index) => {
          hashes[`patient${index}`] = await created("/api/patients", { name: `Picker Person ${String(index).padStart(3, "0")}`, cpf: String(90_000_000_000 + index), ...(index % 2 === 0 ? { phone: `+55 11 ${index}` } : {}) });
        }),
      );
    hashes.mine = await created("/api/appointments", { patient: hashes.patient0, doctor: hashes.doraDoctor, scheduled_at: "2026-03-01T09:30:00.000Z", notes: "secret note mine" });
    hashes.other = await created("/api/appointments", { patient: hashes.patient1, doctor: hashes.otherDoctor, scheduled_at: "2026-03-02T10:00:00.000Z", status: "completed", notes: "secret note other" });
    dora = (await api("POST", "/api/auth/login", undefined, { email: "dora@example.com", password: "a long password" })).body.data.access_token;
    // Written by their doctor: only doctors write a diagnosis.
    for (const [index, day] of [[0, "2026-02-01"], [2, "2026-02-15"], [4, "2026-03-10"]] as const) {
      const reply = await api("POST", "/api/medical-records", dora, { patient: hashes[`patient${index}`], doctor: hashes.doraDoctor, summary: `Summary ${index}`, recorded_on: day, weight_kg: `${70 + index}.50`, diagnosis: "secret diagnosis" });
      expect(reply.status, reply.text).toBe(201);
      hashes[`record${index}`] = reply.body.data.public_id;
    }
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await clinic?.stop();
  });

  async function tab(email = admin.email, password = admin.password, width?: number): Promise<AdminTab> {
    const opened = await openAdmin(browser, clinic.service.baseUrl, width ? { width } : {});
    await signIn(opened, email, password);
    return opened;
  }

  /** Does `act`, then waits for the answer of the collection's list it asks for and its drawing. */
  async function listed(page: Page, collection: string, act: () => Promise<unknown>): Promise<string[]> {
    await Promise.all([page.waitForResponse((response) => new URL(response.url()).pathname === `/api/${collection}`), act()]);
    await settled(page);
    return page.locator("main table tbody tr td:first-child").allInnerTexts();
  }

  const ids = async (path: string, token = clinic.admin) => (await data(path, token)).map((row) => String(row.hash ?? row.public_id));

  async function check(page: Page, where: string) {
    axe.push(...(await axeProblems(page, where)));
    await screenshot(page, shots, where);
  }

  it("signs in through the page, shows the API's refusal, and signs out", async () => {
    const opened = await openAdmin(browser, clinic.service.baseUrl);
    const { page } = opened;
    await check(page, "sign-in");
    await page.getByLabel("E-mail").fill(admin.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toMatch(/credentials|password/i);
    await signIn(opened, admin.email, admin.password);
    expect(await page.locator("nav[aria-label=Sections] a").allInnerTexts()).toEqual(["Appointments", "Doctors", "Medical records", "Patients", "Specialties", "Users"]);
    await check(page, "home");
    // A reload keeps the session (this tab's storage); signing out ends it on the server too.
    await page.reload();
    await page.locator("nav[aria-label=Sections]").waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(opened.scriptErrors).toEqual([]);
    await opened.close();
  }, 120_000);

  it("lists with search, sort and a cursor past page 1, as the API lists", async () => {
    const opened = await tab();
    const { page } = opened;
    await visit(opened, "#/patients");
    await check(page, "patients-list");
    expect(await listed(page, "patients", async () => {
      await page.getByLabel("Search", { exact: true }).fill("Picker Person 10");
      await page.getByRole("button", { name: "Apply" }).click();
    })).toEqual(await ids("/api/patients?search=Picker%20Person%2010"));
    await visit(opened, "#/patients");
    const header = page.getByRole("button", { name: /^Name/ });
    expect(await listed(page, "patients", () => header.click())).toEqual(await ids("/api/patients?sort=name"));
    expect(await page.locator("th[aria-sort=ascending]").innerText()).toContain("Name");
    expect(await listed(page, "patients", () => page.getByRole("button", { name: /^Name/ }).click())).toEqual(await ids("/api/patients?sort=-name"));
    // Cursors: the second page is the API's second page.
    await listed(page, "patients", () => page.getByLabel("Paging").selectOption("cursor"));
    const first = await api("GET", "/api/patients?sort=-name&cursor=", clinic.admin);
    const second = await ids(`/api/patients?sort=-name&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect(await listed(page, "patients", () => page.getByRole("button", { name: "Next" }).click())).toEqual(second);
    expect(page.url()).toContain("cursor=");
    await check(page, "patients-cursor-page-2");
    expect(opened.scriptErrors).toEqual([]);
    await opened.close();
  }, 180_000);

  it("filters with every operator of every filterable field, as the API filters", async () => {
    const opened = await tab();
    const { page } = opened;
    const manifest = (await api("GET", "/api/admin/manifest", clinic.admin)).body.data as { resources: { collection: string; fields: ManifestField[] }[] };
    let exercised = 0;
    for (const collection of ["patients", "appointments", "medical-records"]) {
      const resource = manifest.resources.find((candidate) => candidate.collection === collection)!;
      const rows = await data(`/api/${collection}?per_page=100`);
      for (const field of resource.fields.filter((candidate) => candidate.operators?.length)) {
        const values = [...new Set(rows.map((row) => operand(row[field.key])).filter((value): value is string => value !== undefined))].sort();
        if (values.length < 2) continue;
        for (const op of field.operators!) {
          const value = valueFor(op, values);
          await visit(opened, `#/${collection}`);
          await page.getByRole("button", { name: "Add a filter" }).click();
          await page.getByLabel("Field of filter 1").selectOption(field.key);
          await page.getByLabel("Operator of filter 1").selectOption(op);
          const input = page.getByLabel("Value of filter 1");
          if ((await input.evaluate((element) => element.tagName)) === "SELECT") await input.selectOption(value);
          else await input.fill(value);
          const shown = await listed(page, collection, () => page.getByRole("button", { name: "Apply" }).click());
          const expected = await ids(`/api/${collection}?${new URLSearchParams({ [`filter[${field.key}][${op}]`]: value })}`);
          expect(shown, `${collection} ${field.key} ${op} ${value}`).toEqual(expected);
          exercised += 1;
        }
      }
    }
    // Every operator of each field of the three lists, the ones with two values or more to compare.
    expect(exercised).toBeGreaterThan(40);
    expect(opened.scriptErrors).toEqual([]);
    await opened.close();
  }, 600_000);

  it("creates with Laravel's messages under the fields, edits, and shows the history", async () => {
    const opened = await tab();
    const { page } = opened;
    await visit(opened, "#/patients/new");
    await page.getByRole("button", { name: "Create" }).click();
    // By role: a label's required mark is aria-hidden, so the accessible name is the label alone.
    const input = (label: string) => page.getByRole("textbox", { name: label, exact: true });
    const errorsOf = (label: string) => page.locator(".field", { has: input(label) }).locator(".field-errors");
    await expect.poll(() => errorsOf("Name").innerText()).toBe("The name field is required.");
    expect(await errorsOf("Cpf").innerText()).toBe("The cpf field is required.");
    expect(await input("Name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("alert").innerText()).toContain("The name field is required.");
    await check(page, "patient-create-invalid");
    await input("Name").fill("Browser Patient");
    await input("Cpf").fill("123");
    await page.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => errorsOf("Cpf").innerText()).toBe("The cpf field must be 11 digits.");
    await input("Cpf").fill("98765432100");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: /Browser Patient/ }).waitFor();
    hashes.browserPatient = /#\/patients\/(PAT_\w+)/.exec(page.url())![1]!;
    await page.getByRole("link", { name: "Edit" }).click();
    await input("Phone").fill("+55 11 5555");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator("dl.record").getByText("+55 11 5555").waitFor();
    const history = page.locator("ol.history");
    await expect.poll(() => history.innerText()).toContain("patient.updated");
    expect(await history.innerText()).toContain("+55 11 5555");
    await check(page, "patient-record-history");
    expect((await data(`/api/patients?filter[cpf][eq]=98765432100`))[0]).toMatchObject({ name: "Browser Patient", phone: "+55 11 5555" });
    await opened.close();
  }, 120_000);

  it("deletes after a confirmation naming what restricts it, and restores from the trash", async () => {
    const opened = await tab();
    const { page } = opened;
    await visit(opened, `#/patients/${hashes.patient0}`);
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    expect(await dialog.innerText()).toContain("It is refused while appointments refer to it.");
    expect(await dialog.innerText()).toContain("It is refused while medical records refer to it.");
    await check(page, "patient-delete-dialog");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => dialog.getByRole("alert").innerText()).toMatch(/\w/);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await api("GET", `/api/patients/${hashes.patient0}`, clinic.admin)).status).toBe(200);

    await visit(opened, `#/patients/${hashes.patient109}`);
    await page.getByRole("button", { name: "Delete" }).click();
    expect(await page.getByRole("dialog").innerText()).toContain("It goes to the trash, where it can be restored.");
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Patients", exact: true }).waitFor();
    await visit(opened, "#/patients/trash");
    expect(await page.locator("main table tbody").innerText()).toContain(hashes.patient109);
    // The trash is the API's `?only_trashed=true`: the deleted alone, to signed-in callers only.
    expect(await ids("/api/patients?only_trashed=true")).toEqual([hashes.patient109]);
    expect((await api("GET", "/api/patients?only_trashed=true", undefined)).status).toBe(401);
    const unsupported = await api("GET", "/api/doctors?only_trashed=true", clinic.admin);
    expect([unsupported.status, unsupported.body.errors]).toEqual([422, { only_trashed: ["The only trashed parameter is not supported here."] }]);
    await check(page, "patients-trash");
    await page.getByRole("button", { name: `Restore ${hashes.patient109}` }).click();
    await page.getByRole("status").filter({ hasText: "Restored" }).waitFor();
    expect((await api("GET", `/api/patients/${hashes.patient109}`, clinic.admin)).status).toBe(200);
    await opened.close();
  }, 120_000);

  it("picks a related record by searching the server, past the first page of 100+", async () => {
    const opened = await tab();
    const { page } = opened;
    await visit(opened, "#/appointments/new");
    const patient = page.getByRole("combobox", { name: "Patient" });
    await patient.fill("Picker Person");
    const options = page.locator(`#${await patient.getAttribute("aria-controls")} [role=option]`);
    await expect.poll(() => options.count()).toBe(21);
    await options.filter({ hasText: "More results" }).dispatchEvent("mousedown");
    await expect.poll(() => options.count()).toBe(41);
    await check(page, "appointment-picker-open");
    await patient.fill("Picker Person 107");
    await expect.poll(() => options.allInnerTexts()).toEqual([`Picker Person 107 ${hashes.patient107}`]);
    await patient.press("ArrowDown");
    await patient.press("Enter");
    await page.getByRole("combobox", { name: "Doctor" }).fill("Dora");
    await page.getByRole("option", { name: /Dr\. Dora Own/ }).dispatchEvent("mousedown");
    await page.getByLabel("Scheduled at").fill("2026-04-01T08:15");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("link", { name: "Picker Person 107" }).waitFor();
    const created = /#\/appointments\/(APT_\w+)/.exec(page.url())![1]!;
    expect((await api("GET", `/api/appointments/${created}`, clinic.admin)).body.data).toMatchObject({ scheduled_at: "2026-04-01T08:15:00.000Z", patient: { hash: hashes.patient107 }, doctor: { hash: hashes.doraDoctor } });
    await opened.close();
  }, 120_000);

  it("links a belongsToMany with its pivot field, and unlinks it", async () => {
    const opened = await tab();
    const { page } = opened;
    await visit(opened, `#/doctors/${hashes.otherDoctor}`);
    await page.getByRole("combobox", { name: "Link specialty" }).fill("Neuro");
    await page.getByRole("option", { name: /Neurology Admin/ }).dispatchEvent("mousedown");
    await page.getByLabel("Since").fill("2024-01-31");
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await page.locator("ul.links").getByText("Since: 2024-01-31").waitFor();
    const linked = (await api("GET", `/api/doctors/${hashes.otherDoctor}/specialties`, clinic.admin)).body.data as Row[];
    expect(linked.map((row) => [row.name, row.pivot])).toEqual([["Neurology Admin", { since: "2024-01-31" }]]);
    await check(page, "doctor-specialties");
    await page.getByRole("button", { name: "Unlink Neurology Admin" }).click();
    await page.locator("ul.links").getByText("None.").waitFor();
    expect((await api("GET", `/api/doctors/${hashes.otherDoctor}/specialties`, clinic.admin)).body.data).toEqual([]);
    await opened.close();
  }, 120_000);

  it("gives a receptionist only what the role may see and do: hidden fields absent from the page and every response", async () => {
    const opened = await tab("rita@example.com", "a long password");
    const { page } = opened;
    expect(await page.locator("nav[aria-label=Sections] a").allInnerTexts()).toEqual(["Appointments", "Doctors", "Patients", "Specialties"]);
    await visit(opened, "#/appointments");
    expect(await page.locator("main table thead").innerText()).not.toContain("Notes");
    await check(page, "receptionist-appointments");
    await visit(opened, `#/appointments/${hashes.other}`);
    await visit(opened, `#/appointments/${hashes.other}/edit`);
    for (const [where, hash] of [["medical records", "#/medical-records"], ["a medical record", `#/medical-records/${hashes.record0}`], ["users", "#/users"]]) {
      await visit(opened, hash!);
      expect(await page.locator("main h1").innerText(), where).toBe("Not found");
    }
    // Actions the role may not take are not offered.
    await visit(opened, `#/patients/${hashes.patient2}`);
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Edit" }).count()).toBe(1);
    await visit(opened, "#/doctors");
    expect(await page.getByRole("link", { name: "New doctor" }).count()).toBe(0);
    await visit(opened, `#/doctors/${hashes.otherDoctor}`);
    // Each page's heading takes the focus once drawn: a screen reader announces the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toContain("Dr. Otto Other");
    expect(await page.getByRole("link", { name: "Edit" }).count()).toBe(0);
    expect(await page.getByRole("combobox", { name: "Link specialty" }).count()).toBe(0);
    await check(page, "receptionist-doctor");
    await page.waitForTimeout(300);
    const html = await page.content();
    const keys = receivedKeys(opened.received);
    const bodies = opened.received.map((answer) => answer.body).join("\n");
    expect(keys.has("notes") || keys.has("diagnosis"), "a hidden field's key in a response").toBe(false);
    expect(bodies).not.toMatch(/secret note|secret diagnosis|"notes"|"diagnosis"/);
    expect(html).not.toMatch(/secret note|Notes|Diagnosis/);
    expect(opened.received.some((answer) => answer.url.includes("/api/appointments/"))).toBe(true);
    expect(opened.scriptErrors).toEqual([]);
    await opened.close();
  }, 120_000);

  it("shows a doctor their own records only, another's by URL as not found, and fields only they write as theirs", async () => {
    const opened = await tab("dora@example.com", "a long password");
    const { page } = opened;
    expect(await listed(page, "appointments", () => visit(opened, "#/appointments"))).toEqual(await ids("/api/appointments", dora));
    expect(await page.locator("main table tbody").innerText()).toContain(hashes.mine);
    expect(await page.locator("main table tbody").innerText()).not.toContain(hashes.other);
    await visit(opened, `#/appointments/${hashes.other}`);
    expect(await page.locator("main h1").innerText()).toBe("Not found");
    await check(page, "doctor-not-found");
    // diagnosis: writable by doctors only; an admin sees it read-only.
    await visit(opened, `#/medical-records/${hashes.record0}/edit`);
    expect(await page.getByLabel("Diagnosis").getAttribute("readonly")).toBeNull();
    await opened.close();
    const asAdmin = await tab();
    await visit(asAdmin, `#/medical-records/${hashes.record0}/edit`);
    expect(await asAdmin.page.getByLabel("Diagnosis").getAttribute("readonly")).not.toBeNull();
    expect(await asAdmin.page.getByLabel("Summary").getAttribute("readonly")).toBeNull();
    await check(asAdmin.page, "admin-medical-record-edit");
    await asAdmin.close();
  }, 120_000);

  it("manages users for the managing role, and reads at 320 px wide", async () => {
    const opened = await tab(admin.email, admin.password, 320);
    const { page } = opened;
    await visit(opened, "#/users");
    expect(await page.locator("main table tbody").innerText()).toContain("rita@example.com");
    for (const [name, hash] of [["users", "#/users"], ["patients", "#/patients"], ["patient", `#/patients/${hashes.patient2}`], ["appointment-edit", `#/appointments/${hashes.mine}/edit`], ["medical-records", "#/medical-records"]]) {
      await visit(opened, hash!);
      expect(await overflowsSideways(page), `${name} at 320 px`).toBe(false);
      await check(page, `narrow-${name}`);
    }
    await opened.close();
  }, 120_000);

  it("met no serious or critical axe violation on any page it visited", () => {
    expect(axe).toEqual([]);
  });
});

/** A cell's value as a filter's operand: a related record by its hash, a scalar as text. */
function operand(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "object") return String((value as Row).hash ?? (value as Row).public_id);
  return String(value);
}

/** An operand for `op` from the values a list holds (two at least, sorted). */
function valueFor(op: string, values: string[]): string {
  const [low, high] = [values[0]!, values[values.length - 1]!];
  switch (op) {
    case "in":
    case "nin":
    case "between":
      return `${low},${high}`;
    case "null":
      return "false";
    case "contains":
      return low.slice(1, 4);
    case "starts_with":
      return low.slice(0, 3);
    case "ends_with":
      return low.slice(-3);
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return values[Math.floor(values.length / 2)]!;
    default:
      return low;
  }
}
