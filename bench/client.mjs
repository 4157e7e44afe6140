#!/usr/bin/env node
// The typed client's costs (issue 34): the size of its types and tsc's time on them for 10 and 100
// synthetic resources, and what a `get` through it costs against a bare `fetch` of the same route
// (alternating slices against one running example service, the ratio of each pair, the median).
//
//   node bench/client.mjs [--sizes 10,100] [--slices 10] [--requests 400] [--skip-get] [--json]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { stopProcess } from "./lib/processes.mjs";
import { startServer } from "./lib/servers.mjs";
import { prepareProject } from "./lib/prepare-project.mjs";
import { login } from "./lib/http-client.mjs";
import { admin, seedDatabase } from "./lib/seed.mjs";
import { writeSyntheticSpecs } from "./synthetic-specs.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const sizes = option("--sizes", "10,100").split(",").map(Number);
const slices = Number(option("--slices", "10"));
const requests = Number(option("--requests", "400"));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function typesFigures(count) {
  const dir = join(scratch, `client-${count}`);
  rmSync(dir, { recursive: true, force: true });
  writeSyntheticSpecs(join(dir, "specs"), count);
  execFileSync(process.execPath, [join(repo, "bin/hashapi.js"), "generate", join(dir, "specs"), "--out", join(dir, "out")], { stdio: "pipe" });
  const client = join(dir, "out/client");
  symlinkSync(join(repo, "node_modules"), join(dir, "out/node_modules"));
  const times = [];
  for (let run = 0; run < 3; run += 1) {
    rmSync(join(client, "dist"), { recursive: true, force: true });
    const started = process.hrtime.bigint();
    execFileSync(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", join(client, "tsconfig.json")], { stdio: "pipe" });
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  const declarations = statSync(join(client, "dist/index.d.ts")).size;
  const source = statSync(join(client, "src/index.ts")).size;
  return { count, declarations, source, tsc: median(times) };
}

async function runtimeSize() {
  const bundled = await build({ entryPoints: [join(repo, "runtime/client/src/core.ts")], bundle: true, minify: true, format: "esm", platform: "neutral", write: false });
  const code = bundled.outputFiles[0].contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

async function getFigures() {
  const { projectDir, templatePath } = await prepareProject({ repo, scratch, log: () => undefined });
  const databasePath = join(scratch, "client-get.db");
  await seedDatabase(templatePath, databasePath, 100);
  const running = await startServer("service", { projectDir: resolve(projectDir), databasePath });
  try {
    const token = await login(running.baseUrl, admin);
    const { createClient } = await import(join(projectDir, "client/dist/index.js"));
    const api = createClient({ baseUrl: running.baseUrl, token });
    const created = await api.patients.create({ name: "Bench Client", cpf: "12312312312" });
    const hash = created.data.hash;
    const bare = async () => {
      const response = await fetch(`${running.baseUrl}/api/patients/${hash}`, { headers: { Accept: "application/json", Authorization: `Bearer ${token}` } });
      const body = JSON.parse(await response.text());
      if (!response.ok) throw new Error(String(response.status));
      return body.data;
    };
    const typed = async () => {
      const result = await api.patients.get(hash);
      if (result.error) throw new Error(String(result.error.status));
      return result.data;
    };
    const slice = async (call) => {
      const started = process.hrtime.bigint();
      for (let index = 0; index < requests; index += 1) await call();
      return Number(process.hrtime.bigint() - started) / requests / 1e3;
    };
    await slice(bare);
    await slice(typed);
    const ratios = [];
    const bareTimes = [];
    const typedTimes = [];
    for (let index = 0; index < slices; index += 1) {
      const order = index % 2 === 0 ? [bare, typed] : [typed, bare];
      const [first, second] = [await slice(order[0]), await slice(order[1])];
      const [b, t] = order[0] === bare ? [first, second] : [second, first];
      bareTimes.push(b);
      typedTimes.push(t);
      ratios.push(t / b);
    }
    return { bare: median(bareTimes), typed: median(typedTimes), ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
  } finally {
    await stopProcess(running.handle);
  }
}

mkdirSync(scratch, { recursive: true });
const json = args.includes("--json");
const say = (line) => {
  if (!json) console.log(line);
};
const figures = { runtime: await runtimeSize(), types: [], get: undefined };
say(`client runtime: ${figures.runtime.minified} B minified, ${figures.runtime.gzipped} B min+gzip`);
for (const count of sizes) {
  const types = typesFigures(count);
  figures.types.push(types);
  say(`${count} resources: client/src/index.ts ${(types.source / 1024).toFixed(1)} kB, dist/index.d.ts ${(types.declarations / 1024).toFixed(1)} kB, tsc -p client ${types.tsc.toFixed(2)} s (median of 3)`);
}
if (!args.includes("--skip-get")) {
  const get = (figures.get = await getFigures());
  say(`GET /api/patients/:hash, ${requests} sequential requests a slice, ${slices} slices: bare fetch ${get.bare.toFixed(0)} µs, through the client ${get.typed.toFixed(0)} µs, client / bare ${get.ratio.toFixed(3)}× (${get.low.toFixed(3)}–${get.high.toFixed(3)})`);
}
if (json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
