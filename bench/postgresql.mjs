#!/usr/bin/env node
// The service on PostgreSQL (issue 23): a server this script starts (initdb in a temporary
// directory, 127.0.0.1, a free port), the example generated with `database: postgresql`, 10,000
// patients, and three contenders on their own copies of that database:
//   service    the generated project (pg pool of 10, statements prepared per connection)
//   reference  bench/servers/reference.mjs on `pg` (bench/servers/reference/pg-database.mjs): bare
//              node:http and hand-written statements, the practical limit of this stack
//   peer       bench/servers/peer.mjs on Prisma's pg adapter: what users write by hand instead
// All three are verified to answer alike first (bench/lib/verify.mjs), then compared in
// alternating slices (service/peer and service/reference, the median of per-pair ratios).
// Then the list queries of bench/lists.mjs on the service (no hand-written PostgreSQL ceiling for
// them: their figures stand alone), cursor pages at 10,000 and 100,000 rows (first page against
// every position, alternating), and EXPLAIN ANALYZE of the statements the service ran for each.
//
//   node bench/postgresql.mjs [--quick] [--json] [--slices 6] [--seconds 2] [--patients 10000] [--large-rows 100000]
//                             [--endpoints show,list,create,update]
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { login } from "./lib/http-client.mjs";
import { captureListSql, explainPostgres } from "./lib/list-plans.mjs";
import { captureRequests, collectCursors, filteredIds, listLabels, listScenario, requests } from "./lib/list-scenarios.mjs";
import { verifyAlike } from "./lib/main-bench.mjs";
import { copyDatabase, markRevokedPg, resetWritesPg, seedListsPostgres, seedPostgres } from "./lib/pg-seed.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";
import { prepareProject } from "./lib/prepare-project.mjs";
import { installExitHandlers, stopProcess } from "./lib/processes.mjs";
import { endpoint, endpointLabels } from "./lib/scenarios.mjs";
import { admin } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";
import { alternate, describeRatio, fire, log, median, sliceArguments } from "./lib/slices.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const contenders = ["service", "reference", "peer"];

function parseOptions(argv) {
  const { values, ...slicing } = sliceArguments(
    argv,
    { patients: { type: "string" }, "large-rows": { type: "string" }, endpoints: { type: "string" } },
    { slices: 6, quickSlices: 2 },
  );
  return {
    ...slicing,
    patients: Number(values.patients ?? 10_000),
    largeRows: Number(values["large-rows"] ?? 100_000),
    endpoints: (values.endpoints ?? "show,list,create,update").split(","),
  };
}

const pgStore = {
  markRevoked: (server, jti) => markRevokedPg(server.databaseUrl, jti),
  resetWrites: (server, seeded) => resetWritesPg(server.databaseUrl, seeded),
};

/** req/s of one scenario on one server: the median of three runs after a warm-up. */
async function throughput(url, next, seconds) {
  await fire(url, next, seconds);
  const rates = [];
  for (let run = 0; run < 3; run += 1) {
    const result = await fire(url, next, seconds);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx and ${result.errors} socket errors on ${url}`);
    rates.push(result.requests.total / result.duration);
  }
  return median(rates);
}

/** The list queries on the service over PostgreSQL, cursor depth at two sizes, and the plans. */
async function listQueries(postgres, projectDir, seeded, options) {
  const adminUrl = postgres.url("postgres");
  await copyDatabase(adminUrl, "bench_template", "bench_lists");
  const listSeeded = await seedListsPostgres(postgres.url("bench_lists"), seeded, { appointments: options.patients });
  await copyDatabase(adminUrl, "bench_empty", "bench_cursor_large");
  const large = await seedPostgres(postgres.url("bench_cursor_large"), options.largeRows);
  const rows = [];
  const cursors = [];
  for (const [database, rowCount] of [
    ["bench_lists", options.patients],
    ["bench_cursor_large", options.largeRows],
  ]) {
    const server = await startServer("service", { projectDir, databaseUrl: postgres.url(database) });
    try {
      const token = await login(server.baseUrl, admin);
      const scenarioOf = (id, extra = {}) => listScenario(id, { seeded: listSeeded, token, ...extra });
      if (database === "bench_lists")
        for (const id of filteredIds) {
          log(`${listLabels[id]} (service alone)`);
          rows.push({ id, label: listLabels[id], requestsPerSecond: await throughput(server.baseUrl, requests(scenarioOf(id)), options.seconds) });
        }
      log(`${rowCount.toLocaleString("en")} rows: cursor pages, the first against every position`);
      const all = await collectCursors(server.baseUrl, token);
      const contender = (id) => ({ label: id, url: server.baseUrl, next: requests(scenarioOf(id, { cursors: all })) });
      cursors.push({
        rows: rowCount,
        liveRows: database === "bench_lists" ? seeded.liveCount : large.liveCount,
        ...(await alternate([contender("cursor-first"), contender("cursor-deep")], options)),
      });
    } finally {
      await stopProcess(server.handle);
    }
  }
  log("capturing and explaining the service's statements");
  const statements = await captureListSql({
    projectDir,
    databaseUrl: postgres.url("bench_lists"),
    scratch,
    before: async (baseUrl) => ({ token: await login(baseUrl, admin) }),
    requests: ({ token }) => captureRequests(listSeeded, token),
  });
  return { rows, cursors, plans: await explainPostgres(postgres.url("bench_lists"), statements) };
}

function listReport({ rows, cursors, plans }) {
  const lines = ["", "List queries on PostgreSQL, the service alone (median of 3 runs)", "", "| query | service req/s |", "|---|---:|"];
  for (const row of rows) lines.push(`| ${row.label} | ${Math.round(row.requestsPerSecond).toLocaleString("en")} |`);
  lines.push("", "| rows | first page req/s | any page req/s | any / first |", "|---:|---:|---:|---|");
  for (const row of cursors)
    lines.push(`| ${row.rows.toLocaleString("en")} | ${Math.round(row.a).toLocaleString("en")} | ${Math.round(row.b).toLocaleString("en")} | ${describeRatio(row)} |`);
  lines.push("", "Query plans (EXPLAIN ANALYZE, the values the service sent):");
  for (const [id, statements] of Object.entries(plans))
    for (const { sql, plan } of statements) lines.push(`- ${id}: ${sql.replace(/^SELECT .*? FROM/s, "SELECT … FROM").slice(0, 200)}`, ...plan.map((line) => `    ${line}`));
  return lines.join("\n");
}

function report(rows) {
  const lines = ["", "PostgreSQL 15 (a server of the benchmark's own), one worker each, alternating slices", ""];
  lines.push("| endpoint | service req/s | peer req/s | service / peer | reference req/s | service / reference |", "|---|---:|---:|---|---:|---|");
  for (const row of rows)
    lines.push(
      `| ${row.label} | ${Math.round(row.peer.b).toLocaleString("en")} | ${Math.round(row.peer.a).toLocaleString("en")} | ${describeRatio(row.peer)} | ${Math.round(row.reference.a).toLocaleString("en")} | ${describeRatio(row.reference)} |`,
    );
  return lines.join("\n");
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  installExitHandlers();
  await mkdir(scratch, { recursive: true });
  log("starting PostgreSQL");
  const postgres = await startPostgres();
  const servers = [];
  try {
    const template = "bench_template";
    await copyDatabase(postgres.url("postgres"), "template1", template);
    const { projectDir } = await prepareProject({
      repo,
      scratch,
      log,
      database: "postgresql",
      migrateUrl: postgres.url(template),
    });
    // Migrated and empty: where the large cursor table is seeded.
    await copyDatabase(postgres.url("postgres"), template, "bench_empty");
    log(`seeding ${options.patients.toLocaleString("en")} patients`);
    const seeded = await seedPostgres(postgres.url(template), options.patients);
    for (const name of contenders) {
      const database = `bench_${name}`;
      await copyDatabase(postgres.url("postgres"), template, database);
      const server = await startServer(name, {
        projectDir,
        databaseUrl: postgres.url(database),
      });
      servers.push({
        ...server,
        databasePath: undefined,
        databaseUrl: postgres.url(database),
        token: await login(server.baseUrl, admin),
      });
    }
    log("verifying that the servers answer alike");
    const verification = await verifyAlike(servers, seeded, pgStore);
    log(`  ${verification.cases} cases agree`);
    const byName = Object.fromEntries(servers.map((server) => [server.name, server]));
    const contender = (name, id) => {
      const scenario = endpoint(id, { seeded, token: byName[name].token });
      return {
        label: name,
        url: byName[name].baseUrl,
        next: () => scenario.next(),
      };
    };
    const rows = [];
    for (const id of options.endpoints) {
      log(`${endpointLabels[id]}: service against the peer, then against the reference (${options.slices} slices of ${options.seconds} s)`);
      const peer = await alternate([contender("peer", id), contender("service", id)], options);
      const reference = await alternate([contender("reference", id), contender("service", id)], options);
      rows.push({ id, label: endpointLabels[id], peer, reference });
    }
    process.stderr.write(`${report(rows)}\n`);
    for (const server of servers.splice(0)) await stopProcess(server.handle);
    const lists = await listQueries(postgres, projectDir, seeded, options);
    process.stderr.write(`${listReport(lists)}\n`);
    if (options.json) process.stdout.write(`${JSON.stringify({ date: new Date().toISOString(), options, verification, endpoints: rows, lists }, null, 2)}\n`);
  } finally {
    for (const server of servers) await stopProcess(server.handle);
    await postgres.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`\nbench/postgresql.mjs failed: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
