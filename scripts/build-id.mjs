#!/usr/bin/env node
// Part of `npm run build`, last: dist/build-id.txt, a hash of everything this build generates from
// (its compiled code, templates, runtime and the spec schemas validation reads). A run's record of a clean output
// (src/pipeline/clean-record.ts) holds it, so a record left by another build never confirms anything.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const repo = new URL("..", import.meta.url).pathname;
const output = join(repo, "dist/build-id.txt");
const hash = createHash("sha256");
for (const folder of ["dist", "templates", "runtime", "schema"]) {
  const files = readdirSync(join(repo, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => path !== output)
    .sort();
  for (const path of files) hash.update(`${relative(repo, path)}\n`).update(readFileSync(path)).update("\n");
}
writeFileSync(output, `${hash.digest("hex")}\n`);
