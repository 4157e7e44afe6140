#!/usr/bin/env node
// Regenerates generated-postgresql/: the example specs with `database: postgresql`, stored as the
// files that differ from generated/ (scripts/postgres-golden.mjs), so that a change of what
// PostgreSQL projects get is reviewed like any other, and once. Part of `npm run golden:update`
// (after generated/); test/golden/golden.test.ts checks it for drift.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { assemblePostgresProject, storePostgresDifference } from "./postgres-golden.mjs";

const repo = new URL("..", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "hashapi-golden-pg-"));
try {
  const specs = join(work, "specs");
  cpSync(join(repo, "specs"), specs, { recursive: true });
  const project = join(specs, "hashapi.yaml");
  writeFileSync(project, readFileSync(project, "utf8").replace(/^database: sqlite$/m, "database: postgresql"));
  // The project as it stands (its migration history included), generated again over itself.
  const out = join(work, "project");
  assemblePostgresProject(repo, out);
  execFileSync(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", out, ...process.argv.slice(2)], { stdio: "inherit" });
  // The example's own overrides (user-owned: generate never touches them), so both goldens are one project.
  cpSync(join(repo, "generated/src/custom"), join(out, "src/custom"), { recursive: true });
  storePostgresDifference(repo, out);
} finally {
  rmSync(work, { recursive: true, force: true });
}
