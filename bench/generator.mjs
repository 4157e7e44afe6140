#!/usr/bin/env node
// The generator benchmark (issue 6): how long the built CLI takes, and how much memory, to generate N
// synthetic resources into an empty directory, to regenerate them with nothing changed, and to
// `--check` them. Figures, not pass/fail: the targets are in docs/decisions.md.
//
//   npm run build && node bench/generator.mjs [--sizes 10,100,500] [--json] [--cli bin/hashapi.js]
//
// Each step is its own process (`node bin/hashapi.js generate …`), so start-up, wall time and peak
// memory are what a user gets. Peak RSS and CPU come from GNU time (`/usr/bin/time`) when it is
// installed, else from the process's own resource usage, read at exit by a preloaded hook. The table
// goes to stderr; with --json the figures go to stdout. Scratch files live in .tmp/bench/gen-N and
// are removed at the end.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, rm, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { watchTimings } from "./lib/watch-timing.mjs";
import { writeSyntheticSpecs } from "./synthetic-specs.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const gnuTime = "/usr/bin/time";
const usageHook =
  'data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(process.env.HASHAPI_BENCH_USAGE,JSON.stringify(process.resourceUsage())))';

function logLine(text) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

/** Runs one CLI invocation to completion: exit code, wall seconds, CPU seconds, peak RSS in MB. */
async function measure(cli, args, usageFile, env = {}) {
  const node = [process.execPath, cli, ...args];
  const command = existsSync(gnuTime)
    ? [gnuTime, "-o", usageFile, "-f", "%e %U %S %M", ...node]
    : [process.execPath, "--import", usageHook, cli, ...args];
  const started = performance.now();
  const { code, output } = await run(command, { ...env, HASHAPI_BENCH_USAGE: usageFile });
  const wallMs = performance.now() - started;
  const usage = await readFile(usageFile, "utf8");
  if (existsSync(gnuTime)) {
    // GNU time puts "Command exited with non-zero status N" before the figures when the command fails.
    const [elapsed, user, system, maxKb] = usage.trim().split("\n").at(-1).split(" ").map(Number);
    return { code, output, seconds: elapsed, cpuSeconds: user + system, peakMb: maxKb / 1024 };
  }
  const { userCPUTime, systemCPUTime, maxRSS } = JSON.parse(usage);
  return { code, output, seconds: wallMs / 1000, cpuSeconds: (userCPUTime + systemCPUTime) / 1e6, peakMb: maxRSS / 1024 };
}

function run([command, ...args], env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repo, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** Modification time and inode of every file: an atomic rewrite changes both, even within one clock tick. */
async function fileStamps(dir) {
  const stamps = new Map();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const { mtimeNs, ino } = await stat(path, { bigint: true });
    stamps.set(relative(dir, path), `${mtimeNs}:${ino}`);
  }
  return stamps;
}

function filesTouched(before, after) {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path));
}

async function benchSize(size, cli) {
  const root = join(scratch, `gen-${size}`);
  const specs = join(root, "specs");
  const out = join(root, "out");
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  writeSyntheticSpecs(specs, size);
  const usageFile = join(root, "usage.txt");
  const generate = ["generate", specs, "--out", out];
  const steps = [];
  const problems = [];
  const step = async (name, args, env = {}) => {
    logLine(`${size} resources: ${name}…`);
    const result = await measure(cli, args, usageFile, env);
    const expectCode = 0;
    if (result.code !== expectCode) problems.push(`${size} resources, ${name}: exit ${result.code}\n${result.output.slice(-2000)}`);
    const figures = { step: name, seconds: result.seconds, cpuSeconds: result.cpuSeconds, peakMb: result.peakMb, exitCode: result.code };
    steps.push(figures);
    return figures;
  };

  await step("generate (empty dir)", generate);
  const before = await fileStamps(out);
  const second = await step("generate (unchanged)", generate);
  const touched = filesTouched(before, await fileStamps(out));
  second.filesWritten = touched.length;
  if (touched.length > 0) problems.push(`${size} resources: the unchanged regeneration wrote ${touched.length} files: ${touched.slice(0, 5).join(", ")}`);
  await step("generate --check", [...generate, "--check"]);
  // A fresh checkout (CI) has no record of a clean run (src/pipeline/clean-record.ts): an empty
  // temporary folder stands for it, and the check renders everything.
  const noRecords = join(root, "no-records");
  await mkdir(noRecords, { recursive: true });
  await step("generate --check, no record (a fresh checkout)", [...generate, "--check"], { TMPDIR: noRecords });
  logLine(`${size} resources: generate --watch, one spec saved…`);
  try {
    // The first save, then the median of the next ones (warm: the process has run once already).
    const [first, ...warm] = await watchTimings({ cli, specs, out, saves: 6 });
    const median = [...warm].sort((a, b) => a - b)[Math.floor(warm.length / 2)];
    steps.push({ step: "--watch: first save → written", seconds: first / 1000 });
    steps.push({ step: "--watch: a save → written (median)", seconds: median / 1000 });
  } catch (error) {
    problems.push(`${size} resources, --watch: ${error.message}`);
  }
  return { resources: size, files: before.size, steps, problems };
}

function table(results, method) {
  const rows = [["resources", "files", "step", "wall s", "cpu s", "peak MB", "files written"]];
  for (const { resources, files, steps } of results) {
    for (const { step, seconds, cpuSeconds, peakMb, filesWritten } of steps) {
      rows.push([String(resources), String(files), step, seconds.toFixed(2), cpuSeconds?.toFixed(2) ?? "", peakMb?.toFixed(0) ?? "", filesWritten === undefined ? "" : String(filesWritten)]);
    }
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  "));
  return [`hashapi generate (each step a separate process; peak RSS and CPU from ${method}; --watch: one process, save → files and migration written)`, ...lines, ""].join("\n");
}

/**
 * Benchmarks the built CLI for each number of resources and returns the figures. `cli` is the
 * hashapi entry point to run (another build can be compared with the same specs).
 */
export async function benchGenerator({ sizes = [10, 100, 500], json = false, cli = join(repo, "bin/hashapi.js") } = {}) {
  if (!existsSync(join(repo, "dist/cli/main.js"))) throw new Error("the CLI is not built: run `npm run build` first");
  const method = existsSync(gnuTime) ? "GNU time (/usr/bin/time)" : "process.resourceUsage() at exit";
  const results = [];
  try {
    for (const size of sizes) results.push(await benchSize(size, cli));
  } finally {
    for (const size of sizes) await rm(join(scratch, `gen-${size}`), { recursive: true, force: true });
  }
  process.stderr.write(`\n${table(results, method)}`);
  const problems = results.flatMap((result) => result.problems);
  for (const problem of problems) process.stderr.write(`PROBLEM: ${problem}\n`);
  const figures = { node: process.version, measuredWith: method, results };
  if (json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  return figures;
}

function parseArguments(argv) {
  const options = { json: false };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === "--json") options.json = true;
    else if (argument === "--sizes") options.sizes = argv[++index].split(",").map((size) => Number.parseInt(size, 10));
    else if (argument === "--cli") options.cli = argv[++index];
    else throw new Error(`unknown argument ${argument}; usage: node bench/generator.mjs [--sizes 10,100,500] [--json] [--cli bin/hashapi.js]`);
  }
  if (options.sizes?.some((size) => !(size > 0))) throw new Error("--sizes takes positive numbers, e.g. --sizes 10,100");
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchGenerator(parseArguments(process.argv.slice(2)));
  if (figures.results.some((result) => result.problems.length > 0)) process.exitCode = 1;
}
