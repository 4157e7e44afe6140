#!/usr/bin/env node
// Two servers compared in alternating short slices, the ratio of each pair of slices taken, and the
// median of those ratios reported: on this machine two runs of one build differ by 10–40 %, so
// figures from separate runs (bench/service.mjs) can move a ratio more than a change does. Slices
// alternate their order (AB, BA, …) so that neither server always runs on a warmer machine.
// Each pair also gives the server CPU each request cost (from /proc): steadier than req/s, which
// moves with the load generator on the same cores and with the machine's neighbours.
//
//   node bench/service.mjs --quick   # once: builds .tmp/bench/project and the seeded database
//   node bench/pairs.mjs A B [--endpoints show,list,create,update] [--slices 12] [--seconds 2]
//   node bench/pairs.mjs A B --endpoints range,in,with --database .tmp/bench/lists-seeded.db
//                        (the list queries of bench/lists.mjs, on the database it seeded)
//   node bench/pairs.mjs P P --env-b METRICS_PORT=9464 --endpoints show
//                        (one build against itself with a setting: what the setting costs)
//
// A and B: `reference`, `express-ceiling`, `express-ceiling-events`, or the folder of a built generated project (e.g.
// .tmp/bench/project, or the output of another build of hashapi to compare with).
import { copyFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { login } from "./lib/http-client.mjs";
import { stopProcess } from "./lib/processes.mjs";
import { endpoint } from "./lib/scenarios.mjs";
import { listFigures } from "./lib/list-seed.mjs";
import { filteredIds, listScenario } from "./lib/list-scenarios.mjs";
import { alternate, describeRatio } from "./lib/slices.mjs";
import { admin } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";

const scratch = new URL("../.tmp/bench/", import.meta.url).pathname;
const named = new Set(["reference", "express-ceiling", "express-ceiling-events"]);

function parseArguments(argv) {
  const options = { servers: [], endpoints: ["show", "list", "create", "update"], slices: 12, seconds: 2, env: [{}, {}] };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === "--endpoints") options.endpoints = argv[++index].split(",");
    else if (argument === "--slices") options.slices = Number.parseInt(argv[++index], 10);
    else if (argument === "--seconds") options.seconds = Number.parseInt(argv[++index], 10);
    else if (argument === "--database") options.database = resolve(argv[++index]);
    else if (argument === "--env-a" || argument === "--env-b") {
      const [name, ...value] = argv[++index].split("=");
      options.env[argument === "--env-a" ? 0 : 1][name] = value.join("=");
    }
    else options.servers.push(argument);
  }
  if (options.servers.length !== 2) throw new Error("usage: node bench/pairs.mjs A B [--endpoints show,list] [--slices 12] [--seconds 2]");
  return options;
}

async function start(server, label, seededPath, env) {
  const databasePath = join(scratch, `pairs-${label}.db`);
  copyFileSync(seededPath, databasePath);
  return named.has(server)
    ? startServer(server, { databasePath, env })
    : startServer("service", { projectDir: resolve(server), databasePath, env });
}

async function compare(options, id, seeded, seededPath) {
  const servers = [];
  try {
    for (const [index, [label, server]] of [["A", options.servers[0]], ["B", options.servers[1]]].entries()) {
      const running = await start(server, label, seededPath, options.env[index]);
      const token = await login(running.baseUrl, admin);
      servers.push({ running, scenario: scenarioOf(id, seeded, token) });
    }
    const [a, b] = servers.map(({ running, scenario }, index) => ({ label: options.servers[index], url: running.baseUrl, pid: running.pid, next: () => scenario.next() }));
    return { endpoint: id, ...(await alternate([a, b], options)) };
  } finally {
    for (const { running } of servers) await stopProcess(running.handle);
  }
}

/** A service endpoint of scenarios.mjs, or a list query of list-scenarios.mjs (on a database bench/lists.mjs seeded). */
function scenarioOf(id, seeded, token) {
  if (!filteredIds.includes(id)) return endpoint(id, { seeded, token });
  const list = listScenario(id, { seeded, token });
  let turn = 0;
  return { next: () => ({ method: "GET", path: list.path(turn++), headers: list.headers }) };
}

const options = parseArguments(process.argv.slice(2));
const seededPath = options.database ?? join(scratch, "main-seeded.db");
if (!existsSync(seededPath)) throw new Error(`${seededPath} is missing: run \`node bench/service.mjs --quick\` once first`);
const db = new Database(seededPath, { readonly: true });
const liveHashes = db.prepare("SELECT hash FROM patients WHERE deleted_at IS NULL").pluck().all();
const doctorCount = db.prepare("SELECT COUNT(*) FROM doctors").pluck().get();
const appointments = db.prepare("SELECT COUNT(*) FROM appointments").pluck().get();
db.close();
const seeded = { liveHashes, liveCount: liveHashes.length, doctorCount, ...listFigures({ appointments, doctors: doctorCount }) };
process.stdout.write(`A = ${options.servers[0]}, B = ${options.servers[1]}; ${options.slices} slices of ${options.seconds} s each, alternating\n`);
for (const id of options.endpoints) {
  const result = await compare(options, id, seeded, seededPath);
  process.stdout.write(`${id.padEnd(7)} A ${Math.round(result.a).toLocaleString("en")} req/s, B ${Math.round(result.b).toLocaleString("en")} req/s, B/A ${describeRatio(result)}\n`);
  if (result.cpu)
    process.stdout.write(`${"".padEnd(7)} server CPU a request: A ${result.cpu.a.toFixed(1)} µs, B ${result.cpu.b.toFixed(1)} µs, A/B ${describeRatio(result.cpu)}\n`);
}
