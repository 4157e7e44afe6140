#!/usr/bin/env node
// Beyond one process (issue 36 item 8): two instances of the generated service (separate processes,
// each a supervisor of 2 workers) behind a small round-robin proxy, on PostgreSQL through PgBouncer
// in transaction mode, with one streaming replica for their GET reads; against one instance of 2
// workers straight on the primary. Then chaos through the proxy under a create load: kill -9 a
// worker, restart the replica, kill -9 a whole instance, start it again; every create acknowledged
// (201) must be on the primary afterwards.
//
//   node bench/multi-instance.mjs [--seconds 5] [--connections 16]
//
// On this 2-core machine the five server processes, PostgreSQL twice, PgBouncer, the proxy and the
// load generator share two cores: the figures say what the layout costs per request here, not what
// it gains on machines of their own.
import { join } from "node:path";
import pg from "pg";
import { prepareProject } from "./lib/prepare-project.mjs";
import { startPgBouncer } from "./lib/pgbouncer.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";
import { installExitHandlers, stopProcess } from "./lib/processes.mjs";
import { startProxy } from "./lib/round-robin-proxy.mjs";
import { runCommand } from "./lib/run-command.mjs";
import { admin } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const seconds = option("--seconds", 5);
const connections = option("--connections", 16);
const log = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
installExitHandlers();

let cpf = 20_000_000_000 + (Date.now() % 1_000_000) * 1000;
const created = [];

async function call(baseUrl, method, path, token, body) {
  const response = await fetch(`${baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function login(baseUrl) {
  const response = await fetch(`${baseUrl}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: admin.email, password: admin.password }) });
  return (await response.json()).data.access_token;
}

const requests = {
  show: (baseUrl, token) => call(baseUrl, "GET", `/api/patients/${created[Math.floor(Math.random() * created.length)]}`, token),
  list: (baseUrl, token) => call(baseUrl, "GET", "/api/patients?per_page=15", token),
  create: async (baseUrl, token) => {
    const reply = await call(baseUrl, "POST", "/api/patients", token, { name: "Load", cpf: String((cpf += 1)) });
    if (reply.status === 201) created.push(reply.body.data.hash);
    return reply;
  },
};

/** `connections` callers for `seconds`: answered requests per second, and how many were not 2xx. */
async function load(baseUrl, token, endpoint, during = seconds) {
  let ok = 0;
  let failed = 0;
  const until = Date.now() + during * 1000;
  const caller = async () => {
    while (Date.now() < until) {
      const reply = await requests[endpoint](baseUrl, token).catch(() => ({ status: 0 }));
      if (reply.status >= 200 && reply.status < 300) ok += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, caller));
  return { perSecond: ok / during, failed };
}

const postgres = await startPostgres();
let replica;
let bouncer;
let proxy;
const servers = [];
try {
  const { projectDir } = await prepareProject({ repo, scratch, log, database: "postgresql", migrateUrl: postgres.url("postgres") });
  await runCommand("npm", ["run", "user:create", "--silent", "--", "--name", "Bench Admin", "--email", admin.email, "--password", admin.password, "--role", "admin"], { cwd: projectDir, env: { DATABASE_URL: postgres.url("postgres") } });
  log("starting a streaming replica (pg_basebackup -R) and PgBouncer (transaction mode)");
  replica = await postgres.replicate();
  bouncer = await startPgBouncer(postgres);
  const scaledEnv = { WEB_CONCURRENCY: "2", DIRECT_DATABASE_URL: postgres.url("postgres"), DATABASE_REPLICA_URLS: replica.url("postgres"), DATABASE_POOL_SIZE: "5" };
  const startScaled = () => startServer("service", { projectDir, databaseUrl: bouncer.url("postgres"), env: scaledEnv });

  const single = await startServer("service", { projectDir, databaseUrl: postgres.url("postgres"), env: { WEB_CONCURRENCY: "2" } });
  servers.push(single);
  const token = await login(single.baseUrl);
  for (let index = 0; index < 300; index += 1) await requests.create(single.baseUrl, token);

  const results = [];
  log(`one instance on the primary: ${connections} callers, ${seconds} s per endpoint`);
  for (const endpoint of ["show", "list", "create"]) results.push({ endpoint, single: await load(single.baseUrl, token, endpoint) });
  await stopProcess(single.handle);

  const instances = [await startScaled(), await startScaled()];
  servers.push(...instances);
  const upstreams = instances.map((instance) => ({ port: Number(new URL(instance.baseUrl).port) }));
  proxy = await startProxy(upstreams);
  const scaledToken = await login(proxy.baseUrl);
  log("two instances through the proxy, PgBouncer and the replica");
  for (const row of results) row.scaled = await load(proxy.baseUrl, scaledToken, row.endpoint);

  console.log(`Throughput, ${connections} callers, ${seconds} s each (2xx per second; non-2xx in brackets)`);
  console.log("endpoint  one instance, primary   two instances, proxy + PgBouncer + replica   ratio");
  for (const { endpoint, single: one, scaled } of results)
    console.log(`${endpoint.padEnd(9)} ${Math.round(one.perSecond).toLocaleString("en").padStart(8)} (${one.failed})          ${Math.round(scaled.perSecond).toLocaleString("en").padStart(8)} (${scaled.failed})                          ${(scaled.perSecond / one.perSecond).toFixed(2)}×`);

  // Chaos under a create load through the proxy; every acknowledged create is then looked up.
  log("chaos: kill -9 a worker, restart the replica, kill -9 an instance, start it again");
  const acknowledged = [];
  let sent = 0;
  const statuses = {};
  let stop = false;
  const writer = async () => {
    while (!stop) {
      sent += 1;
      const reply = await call(proxy.baseUrl, "POST", "/api/patients", scaledToken, { name: "Chaos", cpf: String((cpf += 1)) }).catch(() => ({ status: 0 }));
      if (reply.status === 201) acknowledged.push(reply.body.data.hash);
      statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
    }
  };
  const writers = Array.from({ length: connections }, writer);
  const workerOf = async (instance) => {
    const { stdout } = await import("node:child_process").then(({ execFileSync }) => ({ stdout: execFileSync("ps", ["-o", "pid=", "--ppid", String(instance.pid)]).toString() }));
    return Number(stdout.trim().split(/\s+/)[0]);
  };
  await sleep(1500);
  process.kill(await workerOf(instances[0]), "SIGKILL");
  await sleep(1500);
  await replica.stop("immediate");
  await sleep(1000);
  await replica.start();
  await sleep(1500);
  process.kill(instances[0].pid, "SIGKILL");
  await sleep(2000);
  const restarted = await startScaled();
  servers.push(restarted);
  upstreams[0].port = Number(new URL(restarted.baseUrl).port);
  await sleep(2000);
  stop = true;
  await Promise.all(writers);
  const primary = new pg.Client({ connectionString: postgres.url("postgres") });
  await primary.connect();
  const found = Number((await primary.query(`SELECT COUNT(*) AS "n" FROM "patients" WHERE "hash" = ANY($1)`, [acknowledged])).rows[0].n);
  await primary.end();
  console.log(`Chaos: ${sent} creates sent, ${acknowledged.length} acknowledged (201), by status ${JSON.stringify(statuses)} (0: the connection to the proxy failed; 502: the proxy's upstream died mid-request), ${acknowledged.length - found} acknowledged and lost`);
  if (acknowledged.length !== found) process.exitCode = 1;
} finally {
  for (const server of servers) await stopProcess(server.handle).catch(() => undefined);
  await proxy?.close();
  await bouncer?.stop();
  await replica?.destroy();
  await postgres.destroy();
}
