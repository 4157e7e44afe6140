#!/usr/bin/env node
// What tenancy costs a request (issue 49): two projects of one resource shape, one without tenants
// and one whose items belong to the caller's tenant, compared in alternating slices (lib/slices.mjs):
// the median of the per-pair ratios of req/s and of the server CPU a request costs. A tenanted
// request names its tenant (X-Tenant), read with the user in the one statement every request makes;
// its reads carry one more condition; its writes read the writer's membership again under a lock,
// in a transaction (never issue 47's one-statement write).
//
//   node bench/tenancy.mjs [--slices 12] [--seconds 2] [--items 2000] [--quick] [--json]
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { exchange, login } from "./lib/http-client.mjs";
import { installExitHandlers, stopProcess } from "./lib/processes.mjs";
import { runCommand } from "./lib/run-command.mjs";
import { startServer } from "./lib/servers.mjs";
import { alternate, describeRatio, log, sliceArguments } from "./lib/slices.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench/tenancy");
const { values, json, slices, seconds } = sliceArguments(process.argv.slice(2), { items: { type: "string" } }, { slices: 12, quickSlices: 4 });
const items = Number(values.items ?? 2000);
const caller = { name: "Bench Owner", email: "owner@example.com", password: "a long bench password" };

const item = (tenant) => `name: Item
prefix: ITM
fields:
  title: { type: string, max: 120, search: true }
  code: { type: string, max: 40, unique: true }
  done: { type: boolean, default: false }
${tenant ? "tenant: true\n" : ""}`;
const variants = {
  plain: { "hashapi.yaml": "name: tenancy-bench\ndatabase: sqlite\n", "item.yaml": item(false) },
  tenanted: {
    "hashapi.yaml": "name: tenancy-bench\ndatabase: sqlite\ntenancy:\n  resource: Org\n  roles: [owner, member]\n",
    "org.yaml": "name: Org\nprefix: ORG\nfields:\n  name: { type: string, max: 120 }\n",
    "item.yaml": item(true),
  },
};

/** Generates, builds and migrates one variant; its project folder and database. */
async function prepare(name, files) {
  const specs = join(scratch, `${name}-specs`);
  const dir = join(scratch, name);
  await rm(specs, { recursive: true, force: true });
  await mkdir(specs, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(specs, file), text);
  log(`${name}: generate, build, migrate`);
  await runCommand(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", dir, "--force"], { cwd: repo });
  await runCommand("npm", ["run", "build", "--silent"], { cwd: dir });
  const databasePath = join(scratch, `${name}.db`);
  await rm(databasePath, { force: true });
  const env = { DATABASE_URL: `file:${databasePath}` };
  await runCommand("npm", ["run", "db:migrate", "--silent"], { cwd: dir, env });
  await runCommand("npm", ["run", "user:create", "--silent", "--", "--name", caller.name, "--email", caller.email, "--password", caller.password], { cwd: dir, env });
  return { dir, databasePath };
}

/** A signed-in caller (in its own new tenant, for the tenanted one) and `items` records to read. */
async function populate(server, tenanted) {
  const token = await login(server.baseUrl, { email: caller.email, password: caller.password });
  const headers = { authorization: `Bearer ${token}` };
  if (tenanted) {
    const org = await exchange(server.baseUrl, { method: "POST", path: "/api/orgs", token, body: { name: "Bench" } });
    headers["x-tenant"] = JSON.parse(org.text).data.hash;
  }
  const hashes = [];
  for (let index = 0; index < items; index += 1) {
    const reply = await exchange(server.baseUrl, { method: "POST", path: "/api/items", headers, body: { title: `Item ${index}`, code: `SEED-${index}` } });
    if (reply.status !== 201) throw new Error(`seeding answered ${reply.status}: ${reply.text}`);
    hashes.push(JSON.parse(reply.text).data.hash);
  }
  return { headers, hashes };
}

const scenarios = {
  show: ({ headers, hashes }) => {
    let turn = 0;
    return () => ({ method: "GET", path: `/api/items/${hashes[turn++ % hashes.length]}`, headers });
  },
  list: ({ headers, hashes }) => {
    const pages = Math.ceil(hashes.length / 15);
    let turn = 0;
    return () => ({ method: "GET", path: `/api/items?page=${(turn++ % pages) + 1}`, headers });
  },
  create: ({ headers }, label) => {
    let turn = 0;
    const body = () => JSON.stringify({ title: `New ${turn}`, code: `${label}-${process.hrtime.bigint()}-${turn++}` });
    return () => ({ method: "POST", path: "/api/items", headers: { ...headers, "content-type": "application/json" }, body: body() });
  },
  update: ({ headers, hashes }) => {
    let turn = 0;
    return () => ({ method: "PATCH", path: `/api/items/${hashes[turn++ % hashes.length]}`, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ done: turn % 2 === 0 }) });
  },
};

installExitHandlers();
await mkdir(scratch, { recursive: true });
const prepared = { plain: await prepare("plain", variants.plain), tenanted: await prepare("tenanted", variants.tenanted) };
const servers = [];
try {
  for (const name of ["plain", "tenanted"]) servers.push(await startServer("service", { projectDir: prepared[name].dir, databasePath: prepared[name].databasePath }));
  const callers = [await populate(servers[0], false), await populate(servers[1], true)];
  const rows = [];
  for (const [id, make] of Object.entries(scenarios)) {
    log(`${id}: ${slices} slices of ${seconds} s`);
    const contenders = ["plain", "tenanted"].map((label, index) => ({ label, url: servers[index].baseUrl, pid: servers[index].pid, next: make(callers[index], label) }));
    const result = await alternate(contenders, { slices, seconds });
    rows.push({ id, ...result });
  }
  if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    process.stdout.write(`${items} items per project; tenanted/untenanted, median of alternating pairs\n`);
    for (const row of rows)
      process.stdout.write(`${row.id.padEnd(7)} untenanted ${Math.round(row.a).toLocaleString("en")} req/s, tenanted ${Math.round(row.b).toLocaleString("en")} req/s: ${describeRatio(row)}${row.cpu ? `; server CPU a request ${row.cpu.a.toFixed(0)} µs vs ${row.cpu.b.toFixed(0)} µs (${describeRatio(row.cpu)})` : ""}\n`);
  }
} finally {
  for (const server of servers) await stopProcess(server.handle);
}
