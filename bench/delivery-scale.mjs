#!/usr/bin/env node
// Issue 45: deliveries at the service's own write rate, on SQLite and PostgreSQL.
//
//   node bench/delivery-scale.mjs [--database sqlite|postgresql|both] [--quick] [--json]
//                                 [--hashapi <another build's bin/hashapi.js> --label <name>]
//
// The example with three webhooks on patient.* (bench/servers/webhook-sink.mjs answers in a
// process of its own, at once), one process of the service (WEB_CONCURRENCY=1). Rows:
//   drain, 8 hot records     10,000 events on 8 records written to the outbox, the service started:
//                            deliveries a second until all 30,000 are made
//   drain, 1,000 records     the same over 1,000 records
//   burst                    10,000 PATCHes over 1,000 records (32 at a time); then how long until
//                            the outbox lag (hashapi_outbox_lag_seconds) is under 2 s, and until
//                            every delivery is made
//   probes while draining    p50/p99 of GET /api/health/ready and GET /api/patients/{hash}, 100 a
//                            second each, idle against while a 50,000-delivery backlog drains
//   a receiver that hangs    200 creates, two of the three receivers never answering
//                            (WEBHOOK_TIMEOUT_MS 5 s): when the healthy one had them all, against
//                            all three answering
// `--hashapi` generates the project with another build (the issue's starting point: a worktree of
// main 0459517 built with npm run build), so both are measured by the same bench.
import { randomBytes } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { login } from "./lib/http-client.mjs";
import { freePort, installExitHandlers, startProcess, stopProcess, waitUntilAnswering } from "./lib/processes.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";
import { runCommand } from "./lib/run-command.mjs";
import { admin } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const { values: options } = parseArgs({
  options: {
    database: { type: "string", default: "both" },
    quick: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    hashapi: { type: "string", default: join(repo, "bin/hashapi.js") },
    label: { type: "string", default: "this build" },
    profile: { type: "boolean", default: false },
    rows: { type: "string", default: "hot,spread,burst,probes,hanging" },
  },
});
const scale = options.quick ? 0.2 : 1;
const counts = { events: Math.round(10_000 * scale), records: Math.round(1_000 * scale), backlog: Math.round(50_000 * scale), hanging: 200 };
const receivers = ["r1", "r2", "r3"];
const secret = `whsec_${randomBytes(32).toString("base64")}`;
const log = (line) => process.stderr.write(`${line}\n`);
installExitHandlers();

/** The example specs with three webhooks on patient.*, for `database`. */
function specsFor(database) {
  const specs = join(scratch, `delivery-specs-${database}`);
  rmSync(specs, { recursive: true, force: true });
  cpSync(join(repo, "specs"), specs, { recursive: true });
  const project = join(specs, "hashapi.yaml");
  const hooks = receivers.map((name) => `  - { name: ${name}, url: "\${SINK_${name.toUpperCase()}_URL}", secret: "\${SINK_SECRET}", events: [patient.*], as: admin }`).join("\n");
  writeFileSync(project, `${readFileSync(project, "utf8").replace(/^database: sqlite$/m, `database: ${database}`)}webhooks:\n${hooks}\n`);
  return specs;
}

async function prepare(database, databaseUrl) {
  const projectDir = join(scratch, `delivery-${database}-${options.label.replace(/\W+/g, "-")}`);
  rmSync(projectDir, { recursive: true, force: true });
  mkdirSync(join(projectDir, "src"), { recursive: true });
  cpSync(join(resolve(options.hashapi), "../../generated/src/custom"), join(projectDir, "src/custom"), { recursive: true });
  log(`generating (${database}, ${options.label})`);
  await runCommand(process.execPath, [resolve(options.hashapi), "generate", specsFor(database), "--out", projectDir, "--force"], { cwd: repo });
  await runCommand("npm", ["run", "build", "--silent"], { cwd: projectDir });
  await runCommand("npm", ["run", "db:migrate", "--silent"], { cwd: projectDir, env: { DATABASE_URL: databaseUrl } });
  await runCommand("npm", ["run", "user:create", "--silent", "--", "--name", "Bench Admin", "--email", admin.email, "--password", admin.password, "--role", "admin"], { cwd: projectDir, env: { DATABASE_URL: databaseUrl } });
  return projectDir;
}

/** Runs statements on the database past the service. */
async function sql(databaseUrl, statements) {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length));
    try {
      return statements.map(([text, values = []]) => {
        const prepared = db.prepare(text);
        return prepared.reader ? prepared.all(...values) : (prepared.run(...values), []);
      });
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const results = [];
    for (const [text, values = []] of statements) results.push((await client.query(text.replace(/\?/g, ((n) => () => `$${++n}`)(0)), values)).rows);
    return results;
  } finally {
    await client.end();
  }
}

async function startSink(hang = []) {
  const port = await freePort();
  const handle = startProcess({ name: "sink", command: process.execPath, args: [join(repo, "bench/servers/webhook-sink.mjs")], cwd: repo, env: { PORT: String(port), HANG: hang.join(",") } });
  // The receivers stand for other machines: on this one, they yield the cores to the service.
  setPriority(handle.pid, 19);
  await new Promise((done) => setTimeout(done, 300));
  const base = `http://127.0.0.1:${port}`;
  return {
    handle,
    env: { SINK_SECRET: secret, ...Object.fromEntries(receivers.map((name) => [`SINK_${name.toUpperCase()}_URL`, `${base}/${name}`])) },
    stats: async () => (await (await fetch(`${base}/stats`)).json()).stats,
  };
}

const profiles = join(scratch, "delivery-profiles");

/** The service on `databaseUrl`, with the sink's URLs (with --profile, each thread's CPU profile in .tmp/bench/delivery-profiles). */
async function serve(projectDir, databaseUrl, sink, env = {}) {
  const nodeArgs = options.profile ? ["--cpu-prof", "--cpu-prof-dir", profiles] : [];
  return startServer("service", { projectDir, databaseUrl, nodeArgs, env: { ...sink.env, WEBHOOK_RETRY_BASE_MS: "1000", METRICS_TOKEN: "bench-metrics-token-0123456789", ...env } });
}

async function until(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 100));
  }
  return true;
}

const distinctOf = async (sink, name) => (await sink.stats())[name]?.distinct ?? 0;
const allDistinct = async (sink) => Math.min(...(await Promise.all(receivers.map((name) => distinctOf(sink, name)))));

/** `count` patients made through the API; their creates' events are then marked as delivered, so rows start from an empty outbox. */
async function patients(projectDir, databaseUrl, count) {
  const sink = await startSink();
  const server = await serve(projectDir, databaseUrl, sink);
  const token = await login(server.baseUrl, admin);
  const hashes = [];
  for (let start = 0; start < count; start += 50) {
    const replies = await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, (_, offset) =>
        fetch(`${server.baseUrl}/api/patients`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ name: `Lane ${start + offset}`, cpf: String(70_000_000_000 + start + offset) }) }).then((reply) => reply.json()),
      ),
    );
    hashes.push(...replies.map((reply) => reply.data.hash));
  }
  await stopProcess(server.handle);
  await stopProcess(sink.handle);
  const lanes = existsLanes(databaseUrl);
  await sql(databaseUrl, [[`UPDATE "hashapi_events" SET "fanned_out" = ?`, [databaseUrl.startsWith("file:") ? 1 : true]], [`DELETE FROM "hashapi_deliveries"`], ...((await lanes) ? [[`DELETE FROM "hashapi_lanes"`]] : [])]);
  return hashes;
}

async function existsLanes(databaseUrl) {
  const found = databaseUrl.startsWith("file:")
    ? (await sql(databaseUrl, [[`SELECT name FROM sqlite_master WHERE name = 'hashapi_lanes'`]]))[0]
    : (await sql(databaseUrl, [[`SELECT tablename AS name FROM pg_tables WHERE tablename = 'hashapi_lanes'`]]))[0];
  return found.length > 0;
}

/** `count` patient.updated events written straight to the outbox, spread over `hashes`. */
async function fillOutbox(databaseUrl, hashes, count) {
  const at = databaseUrl.startsWith("file:") ? `${new Date().toISOString().slice(0, -1)}+00:00` : new Date().toISOString();
  const rows = [];
  for (let index = 0; index < count; index += 1) rows.push([hashes[index % hashes.length], JSON.stringify({ phone: [null, `555-${index}`] })]);
  const statements = [];
  for (let start = 0; start < rows.length; start += 500) {
    const slice = rows.slice(start, start + 500);
    statements.push([`INSERT INTO "hashapi_events" ("type", "record_hash", "actor_hash", "actor_name", "changes", "fanned_out", "created_at") VALUES ${slice.map(() => "(?, ?, NULL, NULL, ?, ?, ?)").join(", ")}`, slice.flatMap(([hash, changes]) => ["patient.updated", hash, changes, databaseUrl.startsWith("file:") ? 0 : false, at])]);
  }
  await sql(databaseUrl, statements);
}

/** Deliveries a second while `count` events (× 3 receivers) on `hashes` drain. */
async function drainRow(projectDir, copy, hashes, count) {
  const databaseUrl = await copy();
  await fillOutbox(databaseUrl, hashes, count);
  const sink = await startSink();
  const started = performance.now();
  const server = await serve(projectDir, databaseUrl, sink);
  const done = await until(async () => (await allDistinct(sink)) >= count, 600_000);
  const seconds = (performance.now() - started) / 1000;
  await stopProcess(server.handle);
  await stopProcess(sink.handle);
  return { deliveries: count * receivers.length, seconds, perSecond: done ? (count * receivers.length) / seconds : null };
}

async function lagOf(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: "Bearer bench-metrics-token-0123456789" } })).text();
  return Math.max(0, ...[...text.matchAll(/^hashapi_outbox_lag_seconds\{[^}]*\} (\S+)$/gm)].map((match) => Number(match[1])));
}

/** 10,000 PATCHes, 32 at a time; then seconds until the lag is under 2 s, and until every delivery is made. */
async function burstRow(projectDir, copy, hashes, count) {
  const databaseUrl = await copy();
  const sink = await startSink();
  const server = await serve(projectDir, databaseUrl, sink);
  const token = await login(server.baseUrl, admin);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let index = next++; index < count; index = next++)
        await fetch(`${server.baseUrl}/api/patients/${hashes[index % hashes.length]}`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ phone: `555-${index}` }) }).then((reply) => reply.arrayBuffer());
    }),
  );
  const burstSeconds = (performance.now() - started) / 1000;
  const ended = performance.now();
  const lagAtEnd = await lagOf(server.baseUrl);
  await until(async () => (await lagOf(server.baseUrl)) < 2, 600_000);
  const lagUnder2s = (performance.now() - ended) / 1000;
  await until(async () => (await allDistinct(sink)) >= count, 600_000);
  const allDelivered = (performance.now() - ended) / 1000;
  await stopProcess(server.handle);
  await stopProcess(sink.handle);
  return { writes: count, burstSeconds, writesPerSecond: count / burstSeconds, lagAtEnd, lagUnder2s, allDelivered };
}

/** p50/p99 of sequential probes of `path`, `rate` a second, for `seconds`. */
async function probe(baseUrl, path, token, seconds, rate = 100) {
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    await fetch(`${baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then((reply) => reply.arrayBuffer());
    latencies.push(performance.now() - started);
    const wait = 1000 / rate - (performance.now() - started);
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { p50: at(0.5), p99: at(0.99), count: latencies.length };
}

async function probes(server, token, hash, seconds) {
  const [ready, show] = await Promise.all([probe(server.baseUrl, "/api/health/ready", undefined, seconds), probe(server.baseUrl, `/api/patients/${hash}`, token, seconds)]);
  return { ready, show };
}

/** Probe latency idle, then while a backlog drains. */
async function probeRow(projectDir, copy, hashes, backlogEvents) {
  const databaseUrl = await copy();
  const sink = await startSink();
  let server = await serve(projectDir, databaseUrl, sink);
  const token = await login(server.baseUrl, admin);
  const idle = await probes(server, token, hashes[0], 8);
  await stopProcess(server.handle);
  await fillOutbox(databaseUrl, hashes, Math.ceil(backlogEvents / receivers.length));
  server = await serve(projectDir, databaseUrl, sink);
  const draining = await probes(server, token, hashes[0], 8);
  const drained = await allDistinct(sink);
  await stopProcess(server.handle);
  await stopProcess(sink.handle);
  return { idle, draining, deliveredMeanwhile: drained * receivers.length };
}

/** Seconds until the healthy receiver had `count` creates' events, with the others hanging or not. */
async function hangingRow(projectDir, copy, count, hang) {
  const databaseUrl = await copy();
  const sink = await startSink(hang);
  const server = await serve(projectDir, databaseUrl, sink, { WEBHOOK_TIMEOUT_MS: "5000" });
  const token = await login(server.baseUrl, admin);
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, (_, index) => fetch(`${server.baseUrl}/api/patients`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ name: `Hang ${index}`, cpf: String(80_000_000_000 + index) }) }).then((reply) => reply.arrayBuffer())));
  const done = await until(async () => (await distinctOf(sink, "r1")) >= count, 120_000);
  const seconds = (performance.now() - started) / 1000;
  await stopProcess(server.handle);
  await stopProcess(sink.handle);
  return { seconds: done ? seconds : null, received: await Promise.resolve(count) };
}

async function benchDatabase(database) {
  mkdirSync(scratch, { recursive: true });
  let postgres;
  let copy;
  let templateUrl;
  if (database === "sqlite") {
    const template = join(scratch, "delivery-template.db");
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${template}${suffix}`, { force: true });
    templateUrl = `file:${template}`;
    let copies = 0;
    copy = async () => {
      const path = join(scratch, `delivery-copy-${copies++ % 2}.db`);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
      copyFileSync(template, path);
      return `file:${path}`;
    };
  } else {
    postgres = await startPostgres();
    await sql(postgres.url("postgres"), [["CREATE DATABASE delivery_template"]]);
    templateUrl = postgres.url("delivery_template");
    let copies = 0;
    copy = async () => {
      const name = `delivery_copy_${copies++}`;
      await sql(postgres.url("postgres"), [[`CREATE DATABASE ${name} TEMPLATE delivery_template`]]);
      return postgres.url(name);
    };
  }
  try {
    const projectDir = await prepare(database, templateUrl);
    const hashes = await patients(projectDir, templateUrl, counts.records);
    const rows = {};
    const wanted = new Set(options.rows.split(","));
    if (wanted.has("hot")) {
      log(`${database}: drain, 8 hot records`);
      rows.hot = await drainRow(projectDir, copy, hashes.slice(0, 8), counts.events);
    }
    if (wanted.has("spread")) {
      log(`${database}: drain, ${counts.records} records`);
      rows.spread = await drainRow(projectDir, copy, hashes, counts.events);
    }
    if (wanted.has("burst")) {
      log(`${database}: burst of ${counts.events} writes`);
      rows.burst = await burstRow(projectDir, copy, hashes, counts.events);
    }
    if (wanted.has("probes")) {
      log(`${database}: probes while ${counts.backlog} deliveries drain`);
      rows.probes = await probeRow(projectDir, copy, hashes, counts.backlog);
    }
    if (wanted.has("hanging")) {
      log(`${database}: a receiver that hangs`);
      rows.hanging = { healthy: await hangingRow(projectDir, copy, counts.hanging, []), twoHang: await hangingRow(projectDir, copy, counts.hanging, ["r2", "r3"]) };
    }
    return rows;
  } finally {
    await postgres?.destroy?.();
  }
}

const fixed = (value, digits = 1) => (value === null || value === undefined ? "—" : value.toFixed(digits));
const results = {};
for (const database of options.database === "both" ? ["sqlite", "postgresql"] : [options.database]) results[database] = await benchDatabase(database);
if (options.json) process.stdout.write(`${JSON.stringify({ label: options.label, counts, results }, null, 2)}\n`);
for (const [database, rows] of Object.entries(results)) {
  log(`\n${database} (${options.label})`);
  if (rows.hot) log(`  drain, 8 hot records:   ${rows.hot.deliveries} deliveries in ${fixed(rows.hot.seconds)} s: ${fixed(rows.hot.perSecond, 0)}/s`);
  if (rows.spread) log(`  drain, ${counts.records} records: ${rows.spread.deliveries} deliveries in ${fixed(rows.spread.seconds)} s: ${fixed(rows.spread.perSecond, 0)}/s`);
  if (rows.burst) log(`  burst:                  ${rows.burst.writes} writes in ${fixed(rows.burst.burstSeconds)} s (${fixed(rows.burst.writesPerSecond, 0)}/s); lag ${fixed(rows.burst.lagAtEnd)} s at its end, under 2 s ${fixed(rows.burst.lagUnder2s)} s later, all delivered ${fixed(rows.burst.allDelivered)} s later`);
  if (rows.probes) {
    log(`  probes, idle:           ready p50 ${fixed(rows.probes.idle.ready.p50, 2)} p99 ${fixed(rows.probes.idle.ready.p99, 2)} ms; show p50 ${fixed(rows.probes.idle.show.p50, 2)} p99 ${fixed(rows.probes.idle.show.p99, 2)} ms`);
    log(`  probes, draining:       ready p50 ${fixed(rows.probes.draining.ready.p50, 2)} p99 ${fixed(rows.probes.draining.ready.p99, 2)} ms; show p50 ${fixed(rows.probes.draining.show.p50, 2)} p99 ${fixed(rows.probes.draining.show.p99, 2)} ms (${rows.probes.deliveredMeanwhile} delivered meanwhile)`);
  }
  if (rows.hanging) log(`  a receiver that hangs:  the healthy one had ${counts.hanging} in ${fixed(rows.hanging.healthy.seconds)} s with all answering, ${fixed(rows.hanging.twoHang.seconds)} s with two hanging`);
}
