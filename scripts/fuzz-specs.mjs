#!/usr/bin/env node
// `npm run fuzz:specs -- --sets 50 --seed 7`: the spec-space tests on many sets, on SQLite and
// PostgreSQL (when installed): each drawn set that `hashapi validate` accepts is generated, passes its
// own tests, migrates and seeds (test/e2e/spec-space.test.ts), after the fast tier has rendered
// `--sets × 20` sets (test/spec-space/generate.test.ts). Without --seed, a random one (printed).
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { sets: { type: "string" }, seed: { type: "string" } } });
const sets = values.sets ?? "50";
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
process.stderr.write(`spec space: ${sets} sets per database, seed ${seed}\n`);
const env = { ...process.env, SPEC_SPACE_SETS: sets, SPEC_SPACE_SEED: seed, SPEC_SPACE_RUNS: String(Number(sets) * 20) };
const vitest = ["node_modules/vitest/vitest.mjs", "run", "test/spec-space/generate.test.ts", "test/e2e/spec-space.test.ts"];
const result = spawnSync(process.execPath, vitest, { stdio: "inherit", env, cwd: new URL("..", import.meta.url).pathname });
process.exitCode = result.status ?? 1;
