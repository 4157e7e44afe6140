#!/usr/bin/env node
// List queries (issue 23): the generated service against the Express ceiling with the same queries
// written by hand (bench/servers/reference/lists.mjs), in alternating slices, on SQLite:
//   - a filtered list per operator family: a datetime range, `in` on an enum, `contains` on a string;
//   - `?search=`; a many-to-many `?with=` (doctors with their specialties, pivot dates included);
//   - cursor pages at several table sizes: the first page against pages from every position.
// Both servers are verified first (same bodies for the same requests), and the SQL the service
// runs for each scenario is captured and EXPLAINed.
//
//   node bench/service.mjs --quick   # or let this script build .tmp/bench/project itself
//   node bench/lists.mjs [--quick] [--json] [--reuse] [--slices 10] [--seconds 2] [--rows 10000]
//                        [--cursor-sizes 1000,10000,100000] [--only range,in,contains,search,with,cursor]
import { copyFileSync, existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { login } from "./lib/http-client.mjs";
import { captureListSql, explain } from "./lib/list-plans.mjs";
import { captureRequests, collectCursors, filteredIds, listLabels, listScenario, requests } from "./lib/list-scenarios.mjs";
import { seedLists } from "./lib/list-seed.mjs";
import { prepareProject, removeDatabase } from "./lib/prepare-project.mjs";
import { installExitHandlers, stopProcess } from "./lib/processes.mjs";
import { admin, seedDatabase } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";
import { alternate, describeRatio, log, sliceArguments } from "./lib/slices.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");

function parseOptions(argv) {
  const { values, ...slicing } = sliceArguments(
    argv,
    { reuse: { type: "boolean" }, rows: { type: "string" }, "cursor-sizes": { type: "string" }, only: { type: "string" } },
    { slices: 10, quickSlices: 4 },
  );
  return {
    ...slicing,
    reuse: values.reuse ?? false,
    rows: Number(values.rows ?? 10_000),
    cursorSizes: (values["cursor-sizes"] ?? "1000,10000,100000").split(",").map(Number),
    only: new Set((values.only ?? "range,in,contains,search,with,cursor").split(",")),
  };
}

async function startPair(projectDir, seededPath, label) {
  const servers = {};
  for (const name of ["service", "express-ceiling"]) {
    const databasePath = join(scratch, `lists-${label}-${name}.db`);
    await removeDatabase(databasePath);
    copyFileSync(seededPath, databasePath);
    const server = await startServer(name, { projectDir, databasePath });
    server.token = await login(server.baseUrl, admin);
    servers[name] = server;
  }
  return servers;
}

async function stopPair(servers) {
  for (const server of Object.values(servers)) await stopProcess(server.handle);
}

/** The body with this server's address and its sealed cursors taken out: what both must agree on. */
async function comparable(server, path, headers) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers });
  const text = (await response.text()).replaceAll(server.baseUrl, "BASE");
  if (response.status !== 200) throw new Error(`${server.name} answered ${response.status} to ${path}: ${text}`);
  return text.replace(/cursor=[A-Za-z0-9_-]+/g, "cursor=…").replace(/"(next|prev)_cursor":"[^"]+"/g, '"$1_cursor":"…"');
}

/** The first requests of each scenario, and a cursor walk forwards and back, answered alike by both servers. */
async function verify(servers, scenarioOf, ids) {
  let cases = 0;
  for (const id of ids) {
    const [service, ceiling] = [scenarioOf(id, servers.service), scenarioOf(id, servers["express-ceiling"])];
    for (let turn = 0; turn < 5; turn += 1) {
      const [left, right] = [
        await comparable(servers.service, service.path(turn), service.headers),
        await comparable(servers["express-ceiling"], ceiling.path(turn), ceiling.headers),
      ];
      if (left !== right) throw new Error(`the servers disagree on ${service.path(turn)}:\nservice: ${left}\nceiling: ${right}`);
      cases += 1;
    }
  }
  return cases;
}

/** Four pages forwards then one back, by each server's own cursors: the same records in the same order. */
async function verifyCursorWalk(servers) {
  const walk = async (server) => {
    const pages = [];
    let url = `${server.baseUrl}/api/patients?cursor=`;
    for (let step = 0; step < 5; step += 1) {
      const body = await (
        await fetch(url, {
          headers: { authorization: `Bearer ${server.token}` },
        })
      ).json();
      pages.push(JSON.stringify(body.data));
      url = step < 3 ? body.links.next : body.links.prev;
    }
    return pages.join("\n");
  };
  if ((await walk(servers.service)) !== (await walk(servers["express-ceiling"]))) throw new Error("the servers' cursor walks differ");
}

async function compareFiltered(projectDir, seededPath, seeded, options) {
  const ids = filteredIds.filter((id) => options.only.has(id));
  if (ids.length === 0) return [];
  const servers = await startPair(projectDir, seededPath, "filtered");
  try {
    const scenarioOf = (id, server) => listScenario(id, { seeded, token: server.token });
    log(`verifying ${ids.join(", ")}: both servers answer alike`);
    const cases = await verify(servers, scenarioOf, ids);
    log(`  ${cases} requests agree`);
    const results = [];
    for (const id of ids) {
      log(`${listLabels[id]}: ${options.slices} alternating slices of ${options.seconds} s`);
      const contenders = ["express-ceiling", "service"].map((name) => ({
        label: name,
        url: servers[name].baseUrl,
        next: requests(scenarioOf(id, servers[name])),
      }));
      results.push({
        id,
        label: listLabels[id],
        ...(await alternate(contenders, options)),
      });
    }
    return results;
  } finally {
    await stopPair(servers);
  }
}

async function compareCursors(projectDir, templatePath, rows, options) {
  const seededPath = join(scratch, `lists-cursor-${rows}.db`);
  const seeded = await seedDatabase(templatePath, seededPath, rows);
  const servers = await startPair(projectDir, seededPath, `cursor-${rows}`);
  try {
    await verifyCursorWalk(servers);
    for (const server of Object.values(servers)) server.cursors = await collectCursors(server.baseUrl, server.token);
    const scenarioOf = (id, server) =>
      listScenario(id, {
        seeded,
        token: server.token,
        cursors: server.cursors,
      });
    const contender = (id, name) => ({
      label: `${name} ${id}`,
      url: servers[name].baseUrl,
      next: requests(scenarioOf(id, servers[name])),
    });
    log(`${rows.toLocaleString("en")} rows: service, first page against every position (${servers.service.cursors.length} cursors)`);
    const depth = await alternate([contender("cursor-first", "service"), contender("cursor-deep", "service")], options);
    log(`${rows.toLocaleString("en")} rows: cursor pages, service against the Express ceiling`);
    const ceiling = await alternate([contender("cursor-deep", "express-ceiling"), contender("cursor-deep", "service")], options);
    return { rows, liveRows: seeded.liveCount, seededPath, depth, ceiling };
  } finally {
    await stopPair(servers);
  }
}

/** The service's statements per scenario, captured once, and their plans on each database given. */
async function plans(projectDir, seededPaths, seeded) {
  const capturePath = join(scratch, "lists-capture.db");
  await removeDatabase(capturePath);
  copyFileSync(seededPaths[0], capturePath);
  const statements = await captureListSql({
    projectDir,
    databasePath: capturePath,
    scratch,
    before: async (baseUrl) => ({ token: await login(baseUrl, admin) }),
    requests: ({ token }) => captureRequests(seeded, token),
  });
  return Object.fromEntries(seededPaths.map((path) => [path, explain(path, statements)]));
}

function report(filtered, cursors, planSets) {
  const lines = ["", "List queries, SQLite: service / Express ceiling with the same query by hand (alternating slices)", ""];
  lines.push("| query | ceiling req/s | service req/s | service / ceiling |", "|---|---:|---:|---|");
  for (const row of filtered) lines.push(`| ${row.label} | ${Math.round(row.a).toLocaleString("en")} | ${Math.round(row.b).toLocaleString("en")} | ${describeRatio(row)} |`);
  if (cursors.length > 0) {
    lines.push("", "| rows | service first page req/s | service any page req/s | any / first | ceiling any page req/s | service / ceiling |", "|---:|---:|---:|---|---:|---|");
    for (const row of cursors)
      lines.push(
        `| ${row.rows.toLocaleString("en")} | ${Math.round(row.depth.a).toLocaleString("en")} | ${Math.round(row.depth.b).toLocaleString("en")} | ${describeRatio(row.depth)} | ${Math.round(row.ceiling.a).toLocaleString("en")} | ${describeRatio(row.ceiling)} |`,
      );
  }
  for (const [path, byScenario] of Object.entries(planSets)) {
    lines.push("", `Query plans (${path.split("/").pop()}):`);
    for (const [id, statements] of Object.entries(byScenario))
      for (const { sql, plan } of statements) lines.push(`- ${id}: ${sql.replace(/^SELECT .*? FROM/, "SELECT … FROM").slice(0, 240)}`, `    ${plan.join("; ")}`);
  }
  return lines.join("\n");
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  installExitHandlers();
  await mkdir(scratch, { recursive: true });
  const prepared = options.reuse && existsSync(join(scratch, "project/dist/server.js")) && existsSync(join(scratch, "template.db"));
  const { projectDir, templatePath } = prepared
    ? {
        projectDir: join(scratch, "project"),
        templatePath: join(scratch, "template.db"),
      }
    : await prepareProject({ repo, scratch, log });
  log(`seeding ${options.rows.toLocaleString("en")} patients and appointments, 300 doctors with 3 specialties each`);
  const seededPath = join(scratch, "lists-seeded.db");
  const seeded = await seedLists(templatePath, seededPath, {
    patients: options.rows,
    appointments: options.rows,
  });
  const filtered = await compareFiltered(projectDir, seededPath, seeded, options);
  const cursors = [];
  if (options.only.has("cursor")) for (const rows of options.cursorSizes) cursors.push(await compareCursors(projectDir, templatePath, rows, options));
  log("capturing and explaining the service's statements");
  const planSets = await plans(projectDir, [seededPath, ...cursors.slice(-1).map((row) => row.seededPath)], seeded);
  process.stderr.write(`${report(filtered, cursors, planSets)}\n`);
  if (options.json)
    process.stdout.write(`${JSON.stringify({ date: new Date().toISOString(), options: { ...options, only: [...options.only] }, filtered, cursors, plans: planSets }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`\nbench/lists.mjs failed: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
