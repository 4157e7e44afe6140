#!/usr/bin/env node
// Text matching's cost (issue 30): `contains` on a long text field and `?search=` at 1,000 and
// 100,000 rows, the worst pattern the service accepts (63 × "a" + "b") over texts of 5,000 "a"s, and
// /api/health's latency while that worst query runs four at a time, on SQLite and PostgreSQL,
// through the generated service with its default DATABASE_STATEMENT_TIMEOUT_MS (2,000 ms; on SQLite
// text matches run on a reader thread of their own). Figures: bench/README.md, "Issue 30".
//
//   node bench/text-match.mjs [--json] [--sizes 1000,100000] [--skip-postgresql] [--seconds 3]
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { login } from "./lib/http-client.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";
import { prepareProject } from "./lib/prepare-project.mjs";
import { installExitHandlers, stopProcess } from "./lib/processes.mjs";
import { admin, seedDatabase } from "./lib/seed.mjs";
import { seedPostgres } from "./lib/pg-seed.mjs";
import { startServer } from "./lib/servers.mjs";
import { log, median } from "./lib/slices.mjs";
import { newHash } from "./servers/shared/hash-id.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const worst = `${"a".repeat(63)}b`;
// Words of the summaries, so that a contains or a search finds some rows and reads all of them.
const words = ["fever", "cough", "rash", "fracture", "migraine", "asthma", "anemia", "insomnia"];

const { values } = parseArgs({
  options: { json: { type: "boolean" }, sizes: { type: "string" }, "skip-postgresql": { type: "boolean" }, seconds: { type: "string" } },
});
const sizes = (values.sizes ?? "1000,100000").split(",").map(Number);
const seconds = Number(values.seconds ?? 3);

/** A summary of about 600 characters, or 5,000 "a"s for one record in `longEvery`. */
const summaryOf = (index, longEvery) =>
  index % longEvery === 0 ? "a".repeat(5000) : Array.from({ length: 80 }, (_, at) => words[(index * 7 + at * 3) % words.length]).join(" ");

/** The example's medical records: `rows` of them, one in ten of 5,000 "a"s. */
function seedRecordsSqlite(path, rows) {
  const db = new Database(path);
  try {
    db.prepare(`UPDATE "users" SET "role" = 'admin'`).run();
    const patient = db.prepare(`SELECT "id" FROM "patients" LIMIT 1`).get().id;
    const insert = db.prepare(`INSERT INTO "medical_records" ("hash", "summary", "recorded_on", "patient_id", "created_at", "updated_at") VALUES (?, ?, '2026-01-15', ?, ?, ?)`);
    db.transaction(() => {
      for (let index = 0; index < rows; index += 1) {
        const created = new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString().replace("Z", "+00:00");
        insert.run(newHash("MRE"), summaryOf(index, 10), patient, created, created);
      }
    })();
  } finally {
    db.close();
  }
}

async function seedRecordsPostgres(url, rows) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`UPDATE "users" SET "role" = 'admin'`);
    const patient = (await client.query(`SELECT "id" FROM "patients" LIMIT 1`)).rows[0].id;
    for (let start = 0; start < rows; start += 5000) {
      const batch = Array.from({ length: Math.min(5000, rows - start) }, (_, offset) => start + offset);
      await client.query(
        `INSERT INTO "medical_records" ("hash", "summary", "recorded_on", "patient_id", "created_at", "updated_at")
         SELECT h, s, '2026-01-15', $3, t::timestamptz, t::timestamptz FROM unnest($1::text[], $2::text[], $4::text[]) AS u(h, s, t)`,
        [batch.map(() => newHash("MRE")), batch.map((index) => summaryOf(index, 10)), patient, batch.map((index) => new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString())],
      );
    }
    await client.query("VACUUM ANALYZE");
  } finally {
    await client.end();
  }
}

/** One request's status and milliseconds. */
async function timed(baseUrl, path, token) {
  const started = performance.now();
  const reply = await fetch(`${baseUrl}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  await reply.arrayBuffer();
  return { status: reply.status, ms: performance.now() - started };
}

/** Sequential requests for `seconds`: the median and the worst latency, and the statuses seen. */
async function measure(baseUrl, path, token) {
  const times = [];
  const statuses = {};
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until || times.length < 3) {
    const { status, ms } = await timed(baseUrl, path, token);
    times.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return { median: median(times), max: Math.max(...times), statuses };
}

/** /api/health's latency while `concurrent` clients send `path` again and again. */
async function healthDuring(baseUrl, path, token, concurrent = 4) {
  let running = true;
  const statuses = {};
  const load = Array.from({ length: concurrent }, async () => {
    while (running) {
      const { status } = await timed(baseUrl, path, token);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const health = await measure(baseUrl, "/api/health");
  running = false;
  await Promise.all(load);
  return { health, load: statuses };
}

const scenarios = {
  contains: "/api/medical-records?filter[summary][contains]=migraine&per_page=15",
  search: "/api/patients?search=silva%20ana&per_page=15",
  worst: `/api/medical-records?filter[summary][contains]=${worst}&per_page=1`,
};

async function runOn(database, rows, project, postgres) {
  let server;
  if (database === "sqlite") {
    const path = join(scratch, `text-match-${rows}.db`);
    await seedDatabase(project.templatePath, path, rows);
    seedRecordsSqlite(path, rows);
    server = await startServer("service", { projectDir: project.projectDir, databasePath: path });
  } else {
    const name = `text_match_${rows}`;
    const owner = new pg.Client({ connectionString: postgres.url("postgres") });
    await owner.connect();
    await owner.query(`CREATE DATABASE "${name}" TEMPLATE "text_match_template"`);
    await owner.end();
    const url = postgres.url(name);
    await seedPostgres(url, rows);
    await seedRecordsPostgres(url, rows);
    server = await startServer("service", { projectDir: project.projectDir, databaseUrl: url });
  }
  try {
    const token = await login(server.baseUrl, admin);
    const result = { database, rows };
    for (const [name, path] of Object.entries(scenarios)) result[name] = await measure(server.baseUrl, path, token);
    result.healthIdle = await measure(server.baseUrl, "/api/health");
    result.healthDuringWorst = await healthDuring(server.baseUrl, scenarios.worst, token);
    return result;
  } finally {
    await stopProcess(server.handle);
  }
}

installExitHandlers();
await mkdir(scratch, { recursive: true });
const results = [];
const sqlite = await prepareProject({ repo, scratch, log });
for (const rows of sizes) {
  log(`SQLite, ${rows} rows`);
  results.push(await runOn("sqlite", rows, sqlite));
}
if (!values["skip-postgresql"] && existsSync("/usr/lib/postgresql")) {
  const postgres = await startPostgres();
  try {
    const client = new pg.Client({ connectionString: postgres.url("postgres") });
    await client.connect();
    await client.query(`CREATE DATABASE "text_match_template"`);
    await client.end();
    const project = await prepareProject({ repo, scratch, log, database: "postgresql", migrateUrl: postgres.url("text_match_template") });
    for (const rows of sizes) {
      log(`PostgreSQL, ${rows} rows`);
      results.push(await runOn("postgresql", rows, project, postgres));
    }
  } finally {
    await postgres.destroy();
  }
} else log("PostgreSQL skipped (not installed, or --skip-postgresql)");

if (values.json) console.log(JSON.stringify(results, null, 2));
else {
  const ms = (value) => `${value.toFixed(1)} ms`;
  const statuses = (counts) => Object.entries(counts).map(([status, count]) => `${count}×${status}`).join(" ");
  console.log("| database | rows | contains (median) | search (median) | worst pattern (median, max, statuses) | /api/health idle | /api/health during 4 worst (median, max) |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of results)
    console.log(`| ${r.database} | ${r.rows} | ${ms(r.contains.median)} ${statuses(r.contains.statuses)} | ${ms(r.search.median)} | ${ms(r.worst.median)}, ${ms(r.worst.max)}, ${statuses(r.worst.statuses)} | ${ms(r.healthIdle.median)} | ${ms(r.healthDuringWorst.health.median)}, ${ms(r.healthDuringWorst.health.max)} |`);
}
