#!/usr/bin/env node
// Regenerates the per-feature golden scenarios: each test/golden/scenarios/<feature>/ holds a spec
// set about one feature and, under expected/, the few output files it pins (listed in pinned.txt),
// small enough to review a change of that feature in. Part of `npm run golden:update`;
// test/golden/scenarios.test.ts checks them.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generate } from "../dist/index.js";

const scenarios = new URL("../test/golden/scenarios/", import.meta.url).pathname;
for (const name of readdirSync(scenarios).sort()) {
  const dir = join(scenarios, name);
  const pinned = readFileSync(join(dir, "pinned.txt"), "utf8").split("\n").filter(Boolean);
  const map = await generate(join(dir, "specs"));
  rmSync(join(dir, "expected"), { recursive: true, force: true });
  for (const path of pinned) {
    const file = map.get(path);
    if (!file) throw new Error(`${name}: the output has no ${path} (pinned.txt)`);
    const target = join(dir, "expected", path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
  process.stdout.write(`golden scenario ${name}: ${pinned.length} files\n`);
}
