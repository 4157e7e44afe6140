#!/usr/bin/env node
// The admin's costs (issue 51): what its pages weigh as built (dist/admin-ui: raw and gzipped, as
// the service sends them), and how soon they are usable in headless Chromium against the example
// service on 10,000 patients: the sign-in page ready (its form takes input), signing in, the first
// list drawn (the patients' first page, every load answered), and a signed-in reload of the list's
// address (page, script, session, list), each the median of fresh browser contexts.
//
//   node bench/admin.mjs [--runs 10] [--patients 10000] [--json]
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { prepareProject } from "./lib/prepare-project.mjs";
import { admin, seedDatabase } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";
import { stopProcess } from "./lib/processes.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const runs = Number(option("--runs", "10"));
const patients = Number(option("--patients", "10000"));
const json = args.includes("--json");
/** The budget the admin's files keep to, gzipped (docs/decisions.md, "The admin"). */
const budgetBytes = 32 * 1024;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));

function sizes(projectDir) {
  const dir = join(projectDir, "dist/admin-ui");
  const files = ["index.html", "app.js", "app.css"].map((name) => {
    const raw = statSync(join(dir, name)).size;
    const gzipped = existsSync(join(dir, `${name}.gz`)) ? statSync(join(dir, `${name}.gz`)).size : raw;
    return { name, raw, gzipped };
  });
  const total = files.reduce((sum, file) => sum + file.gzipped, 0);
  return { files, gzipped: total, budget: budgetBytes, withinBudget: total <= budgetBytes };
}

async function timings(baseUrl) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const signInReady = [];
  const signedIn = [];
  const firstList = [];
  const reloaded = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      let started = performance.now();
      await page.goto(`${baseUrl}/admin/`);
      await page.getByLabel("E-mail").waitFor();
      signInReady.push(performance.now() - started);
      await page.getByLabel("E-mail").fill(admin.email);
      await page.getByLabel("Password").fill(admin.password);
      started = performance.now();
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator("nav[aria-label=Sections]").waitFor();
      signedIn.push(performance.now() - started);
      const listDrawn = () => page.waitForFunction(() => document.querySelector("main")?.getAttribute("data-route") === "#/patients" && document.documentElement.dataset.loads === "0" && document.querySelectorAll("main tbody tr").length > 0);
      started = performance.now();
      await page.evaluate(() => (location.hash = "#/patients"));
      await listDrawn();
      firstList.push(performance.now() - started);
      // A signed-in reload of the list's address: the page, its script, the session and the list.
      started = performance.now();
      await page.reload();
      await listDrawn();
      reloaded.push(performance.now() - started);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { runs, signInReadyMs: median(signInReady), signInMs: median(signedIn), firstListMs: median(firstList), reloadedListMs: median(reloaded) };
}

const { projectDir, templatePath } = await prepareProject({ repo, scratch, log: (line) => process.stderr.write(`${line}\n`) });
const figures = { sizes: sizes(projectDir) };
if (chromiumPath) {
  const databasePath = join(scratch, "admin.db");
  await seedDatabase(templatePath, databasePath, patients);
  const running = await startServer("service", { projectDir: resolve(projectDir), databasePath });
  try {
    figures.timings = { patients, ...(await timings(running.baseUrl)) };
  } finally {
    await stopProcess(running.handle);
  }
} else process.stderr.write("bench/admin.mjs: the timings need Chromium (apt-get install chromium)\n");

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
process.stderr.write(`\nThe admin as built (dist/admin-ui)\n`);
for (const file of figures.sizes.files) process.stderr.write(`  ${file.name.padEnd(11)} ${kb(file.raw).padStart(9)} raw  ${kb(file.gzipped).padStart(9)} gzipped\n`);
process.stderr.write(`  all         ${kb(figures.sizes.gzipped).padStart(24)} gzipped, budget ${kb(budgetBytes)}: ${figures.sizes.withinBudget ? "within" : "OVER"}\n`);
if (figures.timings)
  process.stderr.write(
    `  medians of ${runs} fresh contexts, ${patients} patients: the sign-in page ready ${figures.timings.signInReadyMs.toFixed(0)} ms; ` +
      `signing in (the password's hash, the view, me) ${figures.timings.signInMs.toFixed(0)} ms; the first list drawn ${figures.timings.firstListMs.toFixed(0)} ms; ` +
      `a signed-in reload of the list, page to rows ${figures.timings.reloadedListMs.toFixed(0)} ms\n`,
  );
if (json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
if (!figures.sizes.withinBudget) process.exitCode = 1;
