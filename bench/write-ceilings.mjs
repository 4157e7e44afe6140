#!/usr/bin/env node
// Writes against their two ceilings (issue 47, item 7), on SQLite and on PostgreSQL: the same
// hand-written Express server (bench/servers/express-ceiling.mjs) once as it is — a create is one
// INSERT … RETURNING in autocommit — and once writing the same event row the service's outbox
// writes, in the write's own transaction ("express-ceiling-events"). What the service loses to the
// second is hashapi's own cost; what the second loses to the first is what the event costs any
// server that keeps one. Alternating slices, the median of the per-pair ratios (bench/lib/slices.mjs).
//
//   node bench/write-ceilings.mjs [--database sqlite|postgresql|both] [--slices 8] [--seconds 2]
//                                 [--endpoints create,update] [--patients 10000] [--quick] [--json]
import { copyFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { login } from "./lib/http-client.mjs";
import { copyDatabase, seedPostgres } from "./lib/pg-seed.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";
import { prepareProject } from "./lib/prepare-project.mjs";
import { installExitHandlers, stopProcess } from "./lib/processes.mjs";
import { endpoint, endpointLabels } from "./lib/scenarios.mjs";
import { admin, seedDatabase } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";
import { alternate, describeRatio, log, sliceArguments } from "./lib/slices.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const ceilings = ["express-ceiling-events", "express-ceiling"];

function parseOptions(argv) {
  const { values, ...slicing } = sliceArguments(
    argv,
    { database: { type: "string" }, endpoints: { type: "string" }, patients: { type: "string" } },
    { slices: 8, quickSlices: 2 },
  );
  const database = values.database ?? "both";
  return {
    ...slicing,
    databases: database === "both" ? ["sqlite", "postgresql"] : [database],
    endpoints: (values.endpoints ?? "create,update").split(","),
    patients: Number(values.patients ?? 10_000),
  };
}

/** Each server on a database of its own, copied from the seeded one: `databaseFor(name)`. */
async function compareOn(database, projectDir, seeded, databaseFor, options) {
  const rows = [];
  for (const id of options.endpoints)
    for (const ceiling of ceilings) {
      const servers = [];
      try {
        for (const name of [ceiling, "service"]) {
          const server = await startServer(name, { projectDir, ...(await databaseFor(name)) });
          servers.push({ ...server, token: await login(server.baseUrl, admin) });
        }
        log(`${database}: ${endpointLabels[id]}, the service against ${ceiling} (${options.slices} slices of ${options.seconds} s)`);
        const contenders = servers.map((server) => {
          const scenario = endpoint(id, { seeded, token: server.token });
          return { label: server.name, url: server.baseUrl, pid: server.pid, next: () => scenario.next() };
        });
        rows.push({ database, id, ceiling, ...(await alternate(contenders, options)) });
      } finally {
        for (const server of servers) await stopProcess(server.handle);
      }
    }
  return rows;
}

async function onSqlite(options) {
  const { projectDir, templatePath } = await prepareProject({ repo, scratch, log });
  const seededPath = join(scratch, "write-ceilings-seeded.db");
  log(`seeding ${options.patients.toLocaleString("en")} patients`);
  const seeded = await seedDatabase(templatePath, seededPath, options.patients);
  const databaseFor = (name) => {
    const databasePath = join(scratch, `write-ceilings-${name}.db`);
    copyFileSync(seededPath, databasePath);
    return { databasePath };
  };
  return compareOn("sqlite", projectDir, seeded, databaseFor, options);
}

async function onPostgres(options) {
  const postgres = await startPostgres();
  try {
    await copyDatabase(postgres.url("postgres"), "template1", "bench_template");
    const { projectDir } = await prepareProject({ repo, scratch, log, database: "postgresql", migrateUrl: postgres.url("bench_template") });
    log(`seeding ${options.patients.toLocaleString("en")} patients`);
    const seeded = await seedPostgres(postgres.url("bench_template"), options.patients);
    let copies = 0;
    const databaseFor = async () => {
      const name = `bench_copy_${(copies += 1)}`;
      await copyDatabase(postgres.url("postgres"), "bench_template", name);
      return { databaseUrl: postgres.url(name) };
    };
    return await compareOn("postgresql", projectDir, seeded, databaseFor, options);
  } finally {
    await postgres.destroy();
  }
}

function report(rows) {
  const lines = ["", "| database | endpoint | ceiling | ceiling req/s | service req/s | service / ceiling | CPU µs a request, ceiling / service |", "|---|---|---|---:|---:|---|---|"];
  for (const row of rows)
    lines.push(
      `| ${row.database} | ${endpointLabels[row.id]} | ${row.ceiling} | ${Math.round(row.a).toLocaleString("en")} | ${Math.round(row.b).toLocaleString("en")} | ${describeRatio(row)} | ${row.cpu ? `${row.cpu.a.toFixed(0)} / ${row.cpu.b.toFixed(0)}` : "–"} |`,
    );
  return lines.join("\n");
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  installExitHandlers();
  await mkdir(scratch, { recursive: true });
  const rows = [];
  for (const database of options.databases) rows.push(...(database === "sqlite" ? await onSqlite(options) : await onPostgres(options)));
  process.stderr.write(`${report(rows)}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify({ date: new Date().toISOString(), options, rows }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`\nbench/write-ceilings.mjs failed: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
