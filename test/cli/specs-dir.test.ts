import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repo } from "../support/service.js";

const cli = join(repo, "bin/hashapi.js");

/**
 * Commands run inside the generated project (its README suggests `npx hashapi generate` there) find
 * the specs it was generated from through its manifest, or say exactly where to run (issue 21).
 */
describe("hashapi run from inside the output folder", () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "hashapi-inside-"));
    await cp(join(repo, "specs"), join(work, "specs"), { recursive: true });
    // out: api, as `hashapi init` writes it; the manifest is the generated one (it names specs/).
    const project = join(work, "specs/hashapi.yaml");
    await writeFile(project, `${await readFile(project, "utf8")}\nout: api\n`);
    await mkdir(join(work, "api"));
    await cp(join(repo, "generated/hashapi.manifest.json"), join(work, "api/hashapi.manifest.json"));
    await mkdir(join(work, "elsewhere"));
    await cp(join(repo, "generated/hashapi.manifest.json"), join(work, "elsewhere/hashapi.manifest.json"));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it("finds ../specs through the manifest and says so", async () => {
    const run = await execa(process.execPath, [cli, "validate"], { cwd: join(work, "api"), reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("reading the specs in ../specs/ (this project was generated from them)");
  });

  it("says where to run when no specs folder above generates into this one", async () => {
    const run = await execa(process.execPath, [cli, "validate"], { cwd: join(work, "elsewhere"), reject: false });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe('this folder is a project hashapi generated from "specs/", and no "specs/" in the folders above it generates into it:\nrun hashapi from the folder that holds specs/, or name it (e.g. `hashapi generate ../specs`)');
  });

  it("leaves a folder that is no generated project to the usual message", async () => {
    const run = await execa(process.execPath, [cli, "validate"], { cwd: work, reject: false, env: { PATH: process.env.PATH ?? "" } });
    expect(run.exitCode).toBe(0);
    const bare = await execa(process.execPath, [cli, "validate"], { cwd: join(work, "specs"), reject: false });
    expect(bare.exitCode).toBe(1);
    expect(bare.stderr).toMatch(/specs folder "specs" does not exist; create one with `hashapi init specs`/);
  });
});
