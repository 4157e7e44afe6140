#!/usr/bin/env node
// The service at scale (issue 52): the example's patients at 1,000,000 rows on SQLite and
// 10,000,000 on PostgreSQL (seeded with COPY), each endpoint under load against the raw-driver
// reference server (bench/servers/reference.mjs, the same answers byte for byte), with the
// service's memory while it runs, and the plans of its text matches. Figures: bench/README.md,
// "Issue 52". A documented command, not part of `npm run bench` (seeding ten million rows takes
// a quarter of an hour here).
//
//   node bench/scale.mjs [--json] [--sqlite-rows 1000000] [--postgresql-rows 10000000]
//                        [--skip-sqlite] [--skip-postgresql] [--seconds 5] [--connections 8]
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { login } from "./lib/http-client.mjs";
import { captureListSql, explain, explainPostgres } from "./lib/list-plans.mjs";
import { measure } from "./lib/load.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";
import { prepareProject } from "./lib/prepare-project.mjs";
import { installExitHandlers, stopProcess } from "./lib/processes.mjs";
import { lastNames, scaleHash, scalePatient, seedPostgresPatients, seedSqlitePatients } from "./lib/scale-seed.mjs";
import { uniqueCpf } from "./lib/scenarios.mjs";
import { admin, seedDatabase } from "./lib/seed.mjs";
import { seedPostgres } from "./lib/pg-seed.mjs";
import { startServer } from "./lib/servers.mjs";
import { log } from "./lib/slices.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench-scale");
const { values } = parseArgs({
  options: {
    json: { type: "boolean" },
    "sqlite-rows": { type: "string" },
    "postgresql-rows": { type: "string" },
    "skip-sqlite": { type: "boolean" },
    "skip-postgresql": { type: "boolean" },
    seconds: { type: "string" },
    connections: { type: "string" },
  },
});
const seconds = Number(values.seconds ?? 5);
const connections = Number(values.connections ?? 8);

/**
 * The measured requests, each rotating over its own values so no answer comes from a warm page
 * alone. `rows`: the seed's size; hashes and cpfs are the seed's own (scale-seed.mjs).
 */
function scenarios(rows, token, farCursor) {
  const headers = () => ({ authorization: `Bearer ${token}` });
  const get = (path) => ({ method: "GET", path, headers: headers() });
  const live = (index) => (index % 50 === 49 ? index + 1 : index);
  // Spread over the whole table: a show or update of any row, not of recent ones.
  const spread = (turn) => live(Math.floor(((turn * 2_654_435_761) % 4_294_967_296) / 4_294_967_296 * (rows - 2)));
  let turn = 0;
  const next = () => turn++;
  const cpf = (index) => scalePatient(index, 0).cpf;
  // Surnames of three characters or more: a shorter pattern has no trigram and is scanned (a "le").
  const surnames = lastNames.filter((name) => [...name].length >= 3).map((name) => name[0].toUpperCase() + name.slice(1));
  return {
    show: { label: "GET /api/patients/:hash", next: () => get(`/api/patients/${scaleHash(spread(next()))}`) },
    page: { label: "GET /api/patients?page=N (N ≤ 100, with its total)", next: () => get(`/api/patients?page=${(next() % 100) + 1}`) },
    "deep-cursor": { label: "GET ?sort=-created_at&cursor=… (the table's far end)", next: () => get(`/api/patients?sort=-created_at&cursor=${farCursor}`) },
    filtered: { label: "GET /api/patients?filter[cpf][in]=a,b,c", next: () => get(`/api/patients?filter[cpf][in]=${[0, 1, 2].map((offset) => cpf(spread(next()) + offset)).join(",")}`) },
    contains: { label: "GET ?filter[cpf][contains]=<7 digits> (a few rows)", next: () => get(`/api/patients?filter[cpf][contains]=${cpf(spread(next())).slice(2, 9)}`) },
    "contains-pair": { label: "GET ?filter[name][contains]=<first last> (≈ 0.01 % of rows)", next: () => get(`/api/patients?filter[name][contains]=${encodeURIComponent(scalePatient(spread(next()), 0).name)}&page=1`) },
    "contains-common": { label: "GET ?filter[name][contains]=<a surname> (≈ 1 % of rows)", next: () => get(`/api/patients?filter[name][contains]=${encodeURIComponent(surnames[next() % surnames.length])}&page=1`) },
    search: { label: "GET ?search=<first> <last> (≈ 0.01 % of rows)", next: () => get(`/api/patients?search=${encodeURIComponent(scalePatient(spread(next()), 0).name)}&page=1`) },
    create: {
      label: "POST /api/patients",
      next: () => ({ method: "POST", path: "/api/patients", headers: { ...headers(), "content-type": "application/json" }, body: JSON.stringify({ name: `Scale Writer ${next()}`, cpf: uniqueCpf() }) }),
    },
    update: {
      label: "PUT /api/patients/:hash",
      next: () => {
        const index = spread(next());
        return { method: "PUT", path: `/api/patients/${scaleHash(index)}`, headers: { ...headers(), "content-type": "application/json" }, body: JSON.stringify({ name: `Updated ${index}`, cpf: scalePatient(index, 0).cpf }) };
      },
    },
  };
}

/** Each scenario on the service, then on the reference where it answers the same route. */
async function measureServers(database, rows, { projectDir, databasePath, databaseUrl }) {
  const results = {};
  for (const name of ["service", "reference"]) {
    const server = await startServer(name, { projectDir, databasePath, ...(databaseUrl ? { databaseUrl } : {}) });
    try {
      const token = await login(server.baseUrl, admin);
      const first = await fetch(`${server.baseUrl}/api/patients?sort=-created_at&cursor=`, { headers: { authorization: `Bearer ${token}` } });
      const farCursor = first.status === 200 ? (await first.json()).meta.next_cursor : "";
      for (const [id, endpoint] of Object.entries(scenarios(rows, token, farCursor))) {
        // The reference answers the patients. show, pages, create and update (its lists scan).
        if (name === "reference" && !["show", "page", "create", "update"].includes(id)) continue;
        log(`${database}, ${rows} rows: ${name} ${id}`);
        const run = await measure({ baseUrl: server.baseUrl, pid: server.pid, endpoint, connections, warmupSeconds: 1, seconds });
        results[id] ??= { label: endpoint.label };
        results[id][name] = { requestsPerSecond: run.requestsPerSecond, p50Ms: run.p50Ms, p99Ms: run.p99Ms, errors: run.errors, statusCounts: run.statusCounts, rssMiB: run.rssMiB };
        // A request's own time, with no queue in front of it: one connection.
        const alone = await measure({ baseUrl: server.baseUrl, pid: server.pid, endpoint, connections: 1, warmupSeconds: 0, seconds: Math.max(1, seconds / 2) });
        results[id][name].aloneP50Ms = alone.p50Ms;
      }
    } finally {
      await stopProcess(server.handle);
    }
  }
  return results;
}

/** The plans of the service's own statements for a contains and a search. */
async function plansOf(target) {
  const requests = ({ token }) => [
    { id: "contains", request: () => ({ path: `/api/patients?filter[cpf][contains]=${scalePatient(4321, 0).cpf.slice(2, 9)}`, token }) },
    { id: "search", request: () => ({ path: `/api/patients?search=${encodeURIComponent(scalePatient(4321, 0).name)}`, token }) },
  ];
  const before = async (baseUrl) => ({ token: await login(baseUrl, admin) });
  const captured = await captureListSql({ ...target, scratch, requests, before });
  return target.databaseUrl ? explainPostgres(target.databaseUrl, captured) : explain(target.databasePath, captured);
}

async function onSqlite(rows) {
  const project = await prepareProject({ repo, scratch, log });
  const databasePath = join(scratch, `scale-${rows}.db`);
  const started = performance.now();
  await seedDatabase(project.templatePath, databasePath, 0);
  seedSqlitePatients(databasePath, rows, Date.UTC(2010, 0, 1));
  const seedSeconds = (performance.now() - started) / 1000;
  log(`SQLite: ${rows} patients seeded in ${seedSeconds.toFixed(0)} s`);
  const target = { projectDir: project.projectDir, databasePath };
  return { database: "sqlite", rows, seedSeconds, plans: await plansOf(target), endpoints: await measureServers("SQLite", rows, target) };
}

async function onPostgres(rows) {
  const postgres = await startPostgres();
  try {
    const owner = new pg.Client({ connectionString: postgres.url("postgres") });
    await owner.connect();
    await owner.query(`CREATE DATABASE "scale"`);
    await owner.end();
    const databaseUrl = postgres.url("scale");
    const project = await prepareProject({ repo, scratch, log, database: "postgresql", migrateUrl: databaseUrl });
    const started = performance.now();
    await seedPostgres(databaseUrl, 0);
    const indexSeconds = await seedPostgresPatients(databaseUrl, rows, Date.UTC(2010, 0, 1), scratch, log);
    const seedSeconds = (performance.now() - started) / 1000;
    log(`PostgreSQL: ${rows} patients seeded in ${seedSeconds.toFixed(0)} s`);
    const target = { projectDir: project.projectDir, databaseUrl };
    return { database: "postgresql", rows, seedSeconds, indexSeconds, plans: await plansOf(target), endpoints: await measureServers("PostgreSQL", rows, target) };
  } finally {
    await postgres.destroy();
  }
}

installExitHandlers();
await mkdir(scratch, { recursive: true });
const results = [];
if (!values["skip-sqlite"]) results.push(await onSqlite(Number(values["sqlite-rows"] ?? 1_000_000)));
if (!values["skip-postgresql"] && existsSync("/usr/lib/postgresql")) results.push(await onPostgres(Number(values["postgresql-rows"] ?? 10_000_000)));

if (values.json) console.log(JSON.stringify(results, null, 2));
else
  for (const result of results) {
    console.log(`\n### ${result.database}, ${result.rows.toLocaleString("en")} patients (seeded in ${result.seedSeconds.toFixed(0)} s)\n`);
    if (result.indexSeconds) console.log(`Index builds: ${Object.entries(result.indexSeconds).map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(", ")}\n`);
    console.log(`| request | service req/s (${connections} connections) | p50 | p99 | p50 alone | reference req/s | p99 | p50 alone | service RSS |`);
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const entry of Object.values(result.endpoints)) {
      const { service, reference } = entry;
      const statuses = (run) => Object.entries(run.statusCounts).map(([status, count]) => `${count}×${status}`).join(" ");
      console.log(`| ${entry.label} | ${service.requestsPerSecond.toFixed(0)} (${statuses(service)}) | ${service.p50Ms} ms | ${service.p99Ms} ms | ${service.aloneP50Ms} ms | ${reference ? `${reference.requestsPerSecond.toFixed(0)} (${statuses(reference)})` : "—"} | ${reference ? `${reference.p99Ms} ms` : "—"} | ${reference ? `${reference.aloneP50Ms} ms` : "—"} | ${service.rssMiB.toFixed(0)} MiB |`);
    }
    for (const [id, statements] of Object.entries(result.plans))
      for (const { sql, plan } of statements) console.log(`\n${id}: ${sql}\n  ${plan.join("\n  ")}`);
  }
