import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The record of the last clean run (src/pipeline/clean-record.ts) stands in for rendering only while
 * it is true: the built CLI, --verbose to see whether the specs were read. Every case checks the
 * answer a full run gives, and that the record did not hide anything.
 */
const repo = new URL("../..", import.meta.url).pathname;
const cli = join(repo, "bin/hashapi.js");

async function hashapi(cwd: string, ...args: string[]) {
  const result = await execa(process.execPath, [cli, ...args, "--verbose"], { cwd, reject: false, env: { NO_COLOR: "1" } });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr, rendered: result.stderr.includes("reading and validating the specs") };
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hashapi-clean-record-"));
  await cp(join(repo, "specs"), join(work, "specs"), { recursive: true });
  const first = await hashapi(work, "generate", "specs", "--out", "out");
  expect(first.code, first.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("an unchanged generate and --check, confirmed by the record of the last clean run", () => {
  it("answers as a full run would, without reading the specs", async () => {
    const check = await hashapi(work, "generate", "specs", "--out", "out", "--check");
    expect(check).toMatchObject({ code: 0, stdout: "out is up to date with specs.", rendered: false });
    const again = await hashapi(work, "generate", "specs", "--out", "out");
    expect(again.code).toBe(0);
    expect(again.rendered).toBe(false);
    expect(again.stdout).toMatch(/^0 created, 0 updated, 0 deleted, \d+ unchanged$/);
  });

  it("never hides a generated file changed on disk: the diff, from a full run", async () => {
    const app = join(work, "out/src/app.ts");
    const original = await readFile(app, "utf8");
    await writeFile(app, `${original}// edited by hand\n`);
    const check = await hashapi(work, "generate", "specs", "--out", "out", "--check");
    expect(check.code).toBe(1);
    expect(check.rendered).toBe(true);
    expect(check.stdout).toContain("-// edited by hand");
    const repaired = await hashapi(work, "generate", "specs", "--out", "out");
    expect(repaired.stdout).toContain("update src/app.ts");
    expect(await readFile(app, "utf8")).toBe(original);
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(false);
  });

  it("never hides a missing file of yours, nor a deleted generated one", async () => {
    const custom = join(work, "out/src/custom/patient/patient.controller.ts");
    const kept = await readFile(custom, "utf8");
    await rm(custom);
    const check = await hashapi(work, "generate", "specs", "--out", "out", "--check");
    expect(check).toMatchObject({ code: 1, rendered: true });
    expect(check.stdout).toContain("src/custom/patient/patient.controller.ts");
    await writeFile(custom, kept);
    await rm(join(work, "out/openapi.json"));
    expect(await hashapi(work, "generate", "specs", "--out", "out", "--check")).toMatchObject({ code: 1, rendered: true });
    await hashapi(work, "generate", "specs", "--out", "out");
  });

  it("renders again for a changed spec, a new file in the specs folder, or a migration added by hand", async () => {
    const patient = join(work, "specs/patient.yaml");
    const spec = await readFile(patient, "utf8");
    await writeFile(patient, `${spec}\n# a comment changes no output, but it is another input\n`);
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(true);
    await writeFile(patient, spec);
    await writeFile(join(work, "specs/notes.txt"), "not a spec\n");
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(true);
    await rm(join(work, "specs/notes.txt"));
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(true);
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(false);
    const lock = join(work, "out/prisma/migrations/migration_lock.toml");
    const locked = await readFile(lock, "utf8");
    await writeFile(lock, `${locked}# edited\n`);
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(true);
    await writeFile(lock, locked);
  });

  it("takes the same relative --out from another folder for the other output it is", async () => {
    await hashapi(work, "generate", "specs", "--out", "out", "--check");
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(false);
    const elsewhere = join(work, "elsewhere");
    await cp(join(work, "specs"), join(elsewhere, "unused"), { recursive: true });
    const check = await hashapi(elsewhere, "generate", join(work, "specs"), "--out", "out", "--check");
    expect(check).toMatchObject({ code: 1, rendered: true });
    expect((await hashapi(work, "generate", "specs", "--out", "out", "--check")).rendered).toBe(false);
  });

  it("under --typecheck renders, as the type check needs the files", async () => {
    const run = await execa(process.execPath, [cli, "generate", "specs", "--out", "out", "--typecheck", "--verbose"], { cwd: work, reject: false, env: { NO_COLOR: "1" } });
    expect(run.stderr).toContain("reading and validating the specs");
  }, 60_000);
});
