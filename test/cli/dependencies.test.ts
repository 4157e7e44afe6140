import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { dependencyNotice } from "../../src/cli/dependencies.js";
import { dependencyChanges } from "../../src/pipeline/dependencies.js";
import { repo } from "../support/service.js";

const manifest = (dependencies: Record<string, string>, devDependencies: Record<string, string> = {}) => JSON.stringify({ dependencies, devDependencies });

describe("dependency changes of a regeneration (issue 21)", () => {
  it("lists packages added, removed and given another range, and nothing on a first run or without change", () => {
    expect(dependencyChanges(manifest({ a: "1", "better-sqlite3": "^11" }, { x: "1" }), manifest({ a: "2", pg: "^8" }, { x: "1" }))).toEqual(["a 1 → 2", "-better-sqlite3", "+pg"]);
    expect(dependencyChanges(undefined, manifest({ pg: "^8" }))).toEqual([]);
    expect(dependencyChanges(manifest({ pg: "^8" }), manifest({ pg: "^8" }))).toEqual([]);
    expect(dependencyNotice("api", ["+pg"])).toBe("\nDependencies changed (+pg): run `npm install` in api.\n");
    expect(dependencyNotice("api", [])).toBe("");
  });

  it("says so when the database switches, in text and in --json", async () => {
    const work = await mkdtemp(join(tmpdir(), "hashapi-deps-"));
    try {
      await cp(join(repo, "specs"), join(work, "specs"), { recursive: true });
      const cli = (...args: string[]) => execa(process.execPath, [join(repo, "bin/hashapi.js"), ...args], { cwd: work, reject: false });
      expect((await cli("generate", "specs")).exitCode).toBe(0);
      // A switch of database starts a new migration history (generate says how); then the dependencies change.
      await rm(join(work, "generated/prisma/migrations"), { recursive: true });
      const project = join(work, "specs/hashapi.yaml");
      await writeFile(project, (await readFile(project, "utf8")).replace(/^database: sqlite$/m, "database: postgresql"));
      const dry = await cli("generate", "specs", "--dry-run", "--json");
      expect(JSON.parse(dry.stdout).dependenciesChanged).toEqual(expect.arrayContaining(["+pg", "-better-sqlite3", "+@prisma/adapter-pg", "-@prisma/adapter-better-sqlite3"]));
      const written = await cli("generate", "specs");
      expect(written.exitCode, written.stderr).toBe(0);
      expect(written.stdout).toMatch(/Dependencies changed \(.*\+pg.*\): run `npm install` in generated\./);
      expect((await cli("generate", "specs")).stdout).not.toMatch(/Dependencies changed/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 120_000);
});
