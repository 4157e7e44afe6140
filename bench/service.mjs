#!/usr/bin/env node
// The service benchmark (issue 6): the generated service against the practical limit of its stack
// (bench/servers/reference.mjs) and against what users would write by hand instead
// (bench/servers/peer.mjs), on the same endpoints, data and machine.
//
//   node bench/service.mjs [--duration 10] [--rounds 3] [--quick] [--json] [--skip-scaling]
//   node bench/service.mjs --profile [--endpoints show,list]   (where the service's CPU goes)
//
// Tables go to stderr; with --json all figures go to stdout as one JSON document. Scratch files
// live under .tmp/bench; every server started is killed on exit, error or Ctrl-C.
import { mkdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runMainBench } from "./lib/main-bench.mjs";
import { expectedSeconds, parseCommandLine, resolveOptions, usage } from "./lib/options.mjs";
import { prepareProject } from "./lib/prepare-project.mjs";
import { profileReport, profileService } from "./lib/profile-service.mjs";
import { installExitHandlers } from "./lib/processes.mjs";
import { errorSummary, mainTable, scalingTable } from "./lib/report.mjs";
import { runScaling } from "./lib/scaling.mjs";
import { seedDatabase } from "./lib/seed.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");

function logLine(text) {
  const clock = new Date().toISOString().slice(11, 19);
  process.stderr.write(`[${clock}] ${text}\n`);
}

/** Runs the whole benchmark and returns its figures; options as resolveOptions() takes them. */
export async function benchService(givenOptions = {}) {
  const options = resolveOptions(givenOptions);
  const log = givenOptions.log ?? logLine;
  installExitHandlers();
  const started = Date.now();
  log(`expected duration: about ${Math.ceil(expectedSeconds(options) / 60)} min (${expectedSeconds(options)} s)`);
  await mkdir(scratch, { recursive: true });

  const { projectDir, templatePath } = await prepareProject({ repo, scratch, log });
  log(`seeding ${options.patients.toLocaleString("en-US")} patients`);
  const seededPath = join(scratch, "main-seeded.db");
  const seeded = await seedDatabase(templatePath, seededPath, options.patients);

  if (options.profile) {
    const profiles = await profileService({ options, projectDir, scratch, seededPath, seeded, log });
    return { meta: { date: new Date().toISOString(), node: process.version, cpus: availableParallelism(), options: { ...options, log: undefined } }, profiles, errors: [] };
  }

  const main = await runMainBench({ options, projectDir, scratch, seededPath, seeded, log });

  let scaling;
  let serviceSql;
  if (!options.skipScaling) {
    log(`scaling: show and list at ${options.scalingSizes.join(", ")} rows, ${options.scalingDuration} s each`);
    ({ sizes: scaling, serviceSql } = await runScaling(options.scalingSizes, {
      projectDir,
      templatePath,
      scratch,
      seconds: options.scalingDuration,
      warmupSeconds: options.warmup,
      connections: options.connections,
      log,
    }));
  }

  const figures = {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: availableParallelism(),
      options: { ...options, log: undefined },
      patients: options.patients,
      livePatients: seeded.liveCount,
      elapsedSeconds: Math.round((Date.now() - started) / 1000),
    },
    verification: main.verification,
    loginTiming: main.loginTiming,
    endpoints: main.endpoints,
    scaling,
    serviceSql,
  };
  figures.errors = errorSummary(figures);
  return figures;
}

async function main() {
  let options;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\n${usage}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const figures = await benchService(options);
  if (figures.profiles) {
    process.stderr.write(`\n${profileReport(figures.profiles)}\n`);
    if (options.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return 0;
  }
  const { meta } = figures;
  process.stderr.write(
    `\nService benchmark: ${meta.patients.toLocaleString("en-US")} patients (${meta.livePatients.toLocaleString("en-US")} live), ` +
      `${options.connections} connections, ${options.duration} s per run after ${options.warmup} s warm-up, ` +
      `${options.rounds} round(s) (medians; RSS = max), Node ${meta.node}, ${meta.cpus} CPUs, ${meta.elapsedSeconds} s in all\n\n`,
  );
  process.stderr.write(`${mainTable(figures)}\n`);
  if (figures.loginTiming) {
    const { knownMs, unknownMs, unknownToKnown, samples } = figures.loginTiming;
    process.stderr.write(`\nLogin time, one request at a time (median of ${samples}): known e-mail ${knownMs.toFixed(0)} ms, unknown e-mail ${unknownMs.toFixed(0)} ms (${unknownToKnown.toFixed(2)}×; 1.00× means no account can be told from its timing)\n`);
  }
  if (figures.scaling) process.stderr.write(`\nScaling (${options.scalingDuration} s per run, 1 round):\n${scalingTable(figures.scaling, figures.serviceSql)}\n`);
  if (figures.errors.length > 0) process.stderr.write(`\n!!! RUNS WITH ERRORS (non-2xx or socket errors):\n${figures.errors.join("\n")}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  return figures.errors.length > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`\nbench/service.mjs failed: ${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
