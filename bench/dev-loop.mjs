#!/usr/bin/env node
// The daily loop (issue 33): `hashapi generate --watch` beside the project's `npm run dev`, and how
// long from saving a spec until the API serves it, on SQLite and on PostgreSQL (a server of the
// benchmark's own). Two changes, each saved several times, the median reported:
//   a new resource: saved until GET /api/<its collection> answers 200 (404 before);
//   a new field on it: saved until a POST naming the field answers 201 (422 before, unknown key).
// The resource's index and store are public, so no token is involved. Figures, not pass/fail.
//
//   npm run build && node bench/dev-loop.mjs [--saves 5] [--skip-postgresql] [--json]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cp, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { installExitHandlers, freePort, startProcess, waitUntilAnswering } from "./lib/processes.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";
import { runCommand } from "./lib/run-command.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench/dev-loop");
const log = (text) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${text}\n`);

function parseArguments(argv) {
  const options = { saves: 5, json: false, postgresql: existsSync("/usr/lib/postgresql") };
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] === "--saves") options.saves = Math.min(26, Number.parseInt(argv[++index], 10));
    else if (argv[index] === "--skip-postgresql") options.postgresql = false;
    else if (argv[index] === "--json") options.json = true;
    else throw new Error(`unknown argument ${argv[index]}; usage: node bench/dev-loop.mjs [--saves 5] [--skip-postgresql] [--json]`);
  }
  return options;
}

/** Save number `save`'s resource, with `fields` extra nullable fields: public index and store. */
function noteSpec(fields, save, collection) {
  const letter = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[save % 26];
  const extra = Array.from({ length: fields }, (_, index) => `  extra_${index}: { type: string, max: 40, nullable: true }\n`).join("");
  return `name: BenchNote${letter}\ncollection: ${collection}\nprefix: BN${letter}\nfields:\n  title: { type: string, max: 80 }\n${extra}auth:\n  public: [index, store]\n`;
}

async function until(check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`not served within ${timeoutMs / 1000} s`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measureDatabase(database, { saves, databaseUrl }) {
  const root = join(scratch, database);
  const specs = join(root, "specs");
  const project = join(root, "project");
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp(join(repo, "specs"), specs, { recursive: true });
  const projectFile = join(specs, "hashapi.yaml");
  writeFileSync(projectFile, readFileSync(projectFile, "utf8").replace(/^database: sqlite$/m, `database: ${database}`));
  log(`${database}: generating the example`);
  await runCommand(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", project], { cwd: repo });
  const port = await freePort();
  const env = { PORT: String(port), HOST: "127.0.0.1", JWT_SECRET: "a-bench-secret-of-at-least-thirty-two-chars", DATABASE_URL: databaseUrl ?? `file:${join(root, "app.db")}`, LOG_LEVEL: "warn", NO_COLOR: "1" };
  const dev = startProcess({ name: `npm run dev (${database})`, command: process.execPath, args: [join(repo, "node_modules/tsx/dist/cli.mjs"), "src/app/dev-server.ts"], cwd: project, env });
  const watch = startProcess({ name: "generate --watch", command: process.execPath, args: [join(repo, "bin/hashapi.js"), "generate", specs, "--out", project, "--watch"], cwd: repo, env: { NO_COLOR: "1" } });
  const base = `http://127.0.0.1:${port}`;
  const figures = { resource: [], field: [] };
  try {
    await waitUntilAnswering(dev, `${base}/api/health`, 60_000);
    await until(async () => watch.output().includes("Watching "), 60_000);
    for (let save = 0; save < saves; save += 1) {
      const collection = `bench-notes-${save}`;
      const file = join(specs, `bench-note-${save}.yaml`);
      let started = performance.now();
      writeFileSync(file, noteSpec(0, save, collection));
      await until(async () => (await fetch(`${base}/api/${collection}`)).status === 200);
      figures.resource.push(performance.now() - started);
      started = performance.now();
      writeFileSync(file, noteSpec(1, save, collection));
      const body = JSON.stringify({ title: "a note", extra_0: "served" });
      await until(async () => (await fetch(`${base}/api/${collection}`, { method: "POST", headers: { "content-type": "application/json" }, body })).status === 201);
      figures.field.push(performance.now() - started);
      log(`${database}: save ${save + 1}: new resource ${Math.round(figures.resource.at(-1))} ms, new field ${Math.round(figures.field.at(-1))} ms`);
    }
  } catch (error) {
    throw new Error(`${error.message}\n--- npm run dev:\n${dev.output()}\n--- generate --watch:\n${watch.output()}`);
  } finally {
    for (const handle of [watch, dev]) handle.child.kill("SIGTERM");
    await Promise.all([watch.exited, dev.exited]);
  }
  return { database, resourceMs: median(figures.resource), fieldMs: median(figures.field), samples: figures };
}

installExitHandlers();
const options = parseArguments(process.argv.slice(2));
if (!existsSync(join(repo, "dist/cli/main.js"))) throw new Error("the CLI is not built: run `npm run build` first");
const results = [await measureDatabase("sqlite", options)];
if (options.postgresql) {
  const postgres = await startPostgres();
  try {
    results.push(await measureDatabase("postgresql", { ...options, databaseUrl: postgres.url("postgres") }));
  } finally {
    await postgres.destroy();
  }
}
await rm(scratch, { recursive: true, force: true });
const rows = results.map(({ database, resourceMs, fieldMs }) => `${database.padEnd(10)}  ${String(Math.round(resourceMs)).padStart(14)}  ${String(Math.round(fieldMs)).padStart(11)}`);
process.stderr.write(`\nsaved → served, median of ${options.saves} saves (ms): generate --watch beside npm run dev\ndatabase    new resource  new field\n${rows.join("\n")}\n`);
if (options.json) process.stdout.write(`${JSON.stringify({ saves: options.saves, results }, null, 2)}\n`);
