#!/usr/bin/env node
// `npm run bench`: the service benchmark (bench/service.mjs), the list queries against the Express
// ceiling (bench/lists.mjs), the service on PostgreSQL against its peer and a raw `pg` reference
// (bench/postgresql.mjs), writes against both Express ceilings, plain and writing the same event
// row, on both databases (bench/write-ceilings.mjs), text matching's bounded cost on both databases (bench/text-match.mjs), the
// webhooks' deliveries at scale on both databases (bench/delivery-scale.mjs), then
// the generator benchmark (bench/generator.mjs), the dev loop's saved → served (bench/dev-loop.mjs)
// the typed client's sizes and cost (bench/client.mjs) and what tenancy costs a request
// (bench/tenancy.mjs) and the admin's weight and first page (bench/admin.mjs), each in its own process. Tables go to stderr; with --json one document
// { service, lists, postgresql, writeCeilings, textMatch, deliveries, generator, devLoop, client,
// tenancy, admin } goes to stdout.
//
//   npm run bench [-- --json] [-- --quick] [-- --skip-service | --skip-lists | --skip-postgresql | --skip-write-ceilings | --skip-text-match | --skip-deliveries | --skip-generator | --skip-dev-loop | --skip-client | --skip-tenancy | --skip-admin] [service options]
//
// --quick: 3 s runs, one round, generator at 10 and 100 resources, short slices (about 8 minutes in all).
// Other options go to bench/service.mjs (see `node bench/service.mjs --help`).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const argv = process.argv.slice(2);
const json = argv.includes("--json");
const quick = argv.includes("--quick");
const skipService = argv.includes("--skip-service");
const skipGenerator = argv.includes("--skip-generator");
const skipLists = argv.includes("--skip-lists");
const skipTextMatch = argv.includes("--skip-text-match");
const skipDevLoop = argv.includes("--skip-dev-loop");
const skipClient = argv.includes("--skip-client");
const skipTenancy = argv.includes("--skip-tenancy");
const skipAdmin = argv.includes("--skip-admin");
const skipDeliveries = argv.includes("--skip-deliveries");
const skipWriteCeilings = argv.includes("--skip-write-ceilings");
// PostgreSQL needs its server binaries (apt-get install postgresql): skipped with a note without them.
const skipPostgresql = argv.includes("--skip-postgresql") || !existsSync("/usr/lib/postgresql");
const serviceArgs = argv.filter((argument) => !argument.startsWith("--skip-"));
const commonArgs = [...(quick ? ["--quick"] : []), ...(json ? ["--json"] : [])];
const generatorArgs = [...(quick ? ["--sizes", "10,100"] : []), ...(json ? ["--json"] : [])];

/** Runs one benchmark script; resolves to its exit code and, with --json, its parsed figures. */
function run(script, args) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [here(script), ...args], { stdio: ["ignore", json ? "pipe" : "inherit", "inherit"] });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.on("error", fail);
    child.on("exit", (code, signal) => done({ code: code ?? (signal ? 1 : 0), figures: json && output.trim() ? JSON.parse(output) : undefined }));
  });
}

const results = {};
let exitCode = 0;
if (!skipService) {
  const { code, figures } = await run("./service.mjs", serviceArgs);
  results.service = figures;
  exitCode ||= code;
}
if (!skipLists) {
  // The service benchmark has just built .tmp/bench/project: reused.
  const { code, figures } = await run("./lists.mjs", [...commonArgs, ...(skipService ? [] : ["--reuse"])]);
  results.lists = figures;
  exitCode ||= code;
}
if (!skipPostgresql) {
  const { code, figures } = await run("./postgresql.mjs", commonArgs);
  results.postgresql = figures;
  exitCode ||= code;
} else if (!argv.includes("--skip-postgresql")) process.stderr.write("bench/postgresql.mjs skipped: PostgreSQL is not installed (apt-get install postgresql)\n");
if (!skipWriteCeilings) {
  const writeArgs = [...commonArgs, "--database", skipPostgresql ? "sqlite" : "both"];
  const { code, figures } = await run("./write-ceilings.mjs", writeArgs);
  results.writeCeilings = figures;
  exitCode ||= code;
}
if (!skipTextMatch) {
  const textArgs = [...(json ? ["--json"] : []), ...(quick ? ["--seconds", "1"] : []), ...(skipPostgresql ? ["--skip-postgresql"] : [])];
  const { code, figures } = await run("./text-match.mjs", textArgs);
  results.textMatch = figures;
  exitCode ||= code;
}
if (!skipDeliveries) {
  const deliveryArgs = [...commonArgs, "--database", skipPostgresql ? "sqlite" : "both"];
  const { code, figures } = await run("./delivery-scale.mjs", deliveryArgs);
  results.deliveries = figures;
  exitCode ||= code;
}
if (!skipGenerator) {
  const { code, figures } = await run("./generator.mjs", generatorArgs);
  results.generator = figures;
  exitCode ||= code;
}
if (!skipDevLoop) {
  const devLoopArgs = [...(json ? ["--json"] : []), ...(quick ? ["--saves", "3"] : []), ...(skipPostgresql ? ["--skip-postgresql"] : [])];
  const { code, figures } = await run("./dev-loop.mjs", devLoopArgs);
  results.devLoop = figures;
  exitCode ||= code;
}
if (!skipClient) {
  const clientArgs = [...(json ? ["--json"] : []), ...(quick ? ["--sizes", "10", "--slices", "6"] : [])];
  const { code, figures } = await run("./client.mjs", clientArgs);
  results.client = figures;
  exitCode ||= code;
}
if (!skipTenancy) {
  const { code, figures } = await run("./tenancy.mjs", [...commonArgs, ...(quick ? ["--items", "500"] : [])]);
  results.tenancy = figures;
  exitCode ||= code;
}
if (!skipAdmin) {
  const { code, figures } = await run("./admin.mjs", [...(json ? ["--json"] : []), ...(quick ? ["--runs", "3", "--patients", "1000"] : [])]);
  results.admin = figures;
  exitCode ||= code;
}
if (json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
process.exitCode = exitCode;
