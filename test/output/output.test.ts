import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  addManifest,
  checkOutput,
  createFileMap,
  formatChangeSet,
  formatDriftReport,
  formatFiles,
  isClean,
  parseManifest,
  previewOutput,
  writeOutput,
  type OutputFile,
} from "../../src/output/index.js";

const file = (path: string, content: string, ownership: OutputFile["ownership"] = "generated"): OutputFile => ({ path, content, ownership, source: "specs/" });
const build = (...files: OutputFile[]) => addManifest(createFileMap(files));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hashapi-output-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const kinds = (changes: { kind: string; path: string }[]) => changes.map((change) => `${change.kind} ${change.path}`);

describe("write", () => {
  it("creates everything in an empty directory, then writes nothing the second time", async () => {
    const map = build(file("src/a.ts", "a\n"), file("src/custom/p.ts", "mine\n", "user"));
    expect(kinds(await writeOutput(dir, map, { force: false }))).toEqual([
      "create hashapi.manifest.json",
      "create src/a.ts",
      "create src/custom/p.ts",
    ]);
    const before = (await stat(join(dir, "src/a.ts"))).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await writeOutput(dir, map, { force: false });
    expect(kinds(second)).toEqual(["unchanged hashapi.manifest.json", "unchanged src/a.ts", "keep-user src/custom/p.ts"]);
    expect((await stat(join(dir, "src/a.ts"))).mtimeMs).toBe(before);
  });

  it("rewrites only changed files, deletes orphans and the folders they leave empty", async () => {
    await writeOutput(dir, build(file("src/a.ts", "a\n"), file("src/old/b.ts", "b\n"), file("src/keep/c.ts", "c\n")), { force: false });
    await writeFile(join(dir, "src/keep/user-note.txt"), "not hashapi's");
    const changes = await writeOutput(dir, build(file("src/a.ts", "a2\n"), file("src/keep/c.ts", "c\n")), { force: false });
    expect(kinds(changes)).toEqual(["update hashapi.manifest.json", "update src/a.ts", "unchanged src/keep/c.ts", "delete src/old/b.ts"]);
    expect(await readdir(join(dir, "src"))).toEqual(["a.ts", "keep"]);
    expect(await readFile(join(dir, "src/keep/user-note.txt"), "utf8")).toBe("not hashapi's");
  });

  it("never overwrites nor deletes a user-owned file, nor rewrites a migration", async () => {
    await writeOutput(dir, build(file("src/custom/p.ts", "v1\n", "user"), file("prisma/migrations/0001_init/migration.sql", "v1", "migration")), { force: false });
    await writeFile(join(dir, "src/custom/p.ts"), "edited by the user\n");
    await writeOutput(dir, build(file("src/custom/p.ts", "v2\n", "user"), file("prisma/migrations/0001_init/migration.sql", "v2", "migration")), { force: false });
    expect(await readFile(join(dir, "src/custom/p.ts"), "utf8")).toBe("edited by the user\n");
    expect(await readFile(join(dir, "prisma/migrations/0001_init/migration.sql"), "utf8")).toBe("v1");
    // A user file no spec produces any more is never deleted silently: generation stops, naming it.
    await expect(writeOutput(dir, build(file("src/a.ts", "a\n")), { force: false })).rejects.toThrow(/src\/custom\/p\.ts[\s\S]*--prune-custom/);
    expect(await readFile(join(dir, "src/custom/p.ts"), "utf8")).toBe("edited by the user\n");
    expect(existsSync(join(dir, "src/a.ts"))).toBe(false);
    await writeOutput(dir, build(file("src/a.ts", "a\n")), { force: false, pruneCustom: true });
    expect(existsSync(join(dir, "src/custom/p.ts"))).toBe(false);
  });

  it("refuses a foreign non-empty directory unless forced, and leaves its files alone", async () => {
    await writeFile(join(dir, "README.txt"), "someone else's");
    await expect(writeOutput(dir, build(file("a.ts", "a\n")), { force: false })).rejects.toThrow(
      /refusing to write into ".*": it is not empty and has no hashapi\.manifest\.json.*pass --force/,
    );
    expect(await readdir(dir)).toEqual(["README.txt"]);
    await writeOutput(dir, build(file("a.ts", "a\n")), { force: true });
    expect((await readdir(dir)).sort()).toEqual(["README.txt", "a.ts", "hashapi.manifest.json"]);
  });

  it("previews without writing", async () => {
    const changes = await previewOutput(dir, build(file("a.ts", "a\n")), { force: false });
    expect(formatChangeSet(changes)).toBe("create a.ts\ncreate hashapi.manifest.json\n2 created, 0 updated, 0 deleted, 0 unchanged\n");
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("check", () => {
  it("reports a one-character edit with a unified diff, missing and orphaned files, and ignores user edits", async () => {
    await writeOutput(dir, build(file("src/a.ts", "const a = 1;\n"), file("src/b.ts", "b\n"), file("src/c.ts", "c\n"), file("src/custom/p.ts", "mine\n", "user")), { force: false });
    expect(isClean(await checkOutput(dir, build(file("src/a.ts", "const a = 1;\n"), file("src/b.ts", "b\n"), file("src/c.ts", "c\n"), file("src/custom/p.ts", "x\n", "user"))))).toBe(true);

    await writeFile(join(dir, "src/a.ts"), "const a = 2;\n");
    await writeFile(join(dir, "src/custom/p.ts"), "edited\n");
    await rm(join(dir, "src/b.ts"));
    const report = await checkOutput(dir, build(file("src/a.ts", "const a = 1;\n"), file("src/b.ts", "b\n"), file("src/custom/p.ts", "mine\n", "user")));
    expect(report.missing).toEqual(["src/b.ts"]);
    expect(report.orphaned).toEqual(["src/c.ts"]);
    expect(report.changed.map((change) => change.path)).toEqual(["hashapi.manifest.json", "src/a.ts"]);
    const text = formatDriftReport(report);
    expect(text).toContain("changed   src/a.ts");
    expect(text).toContain("--- a/src/a.ts");
    expect(text).toContain("-const a = 2;\n+const a = 1;");
    expect(text).not.toMatch(/^(changed|missing|orphaned) +src\/custom/m);
  });

  it("reports a user file whose resource is gone, naming --prune-custom", async () => {
    await writeOutput(dir, build(file("src/a.ts", "a\n"), file("src/custom/gone/gone.policy.ts", "mine\n", "user")), { force: false });
    const report = await checkOutput(dir, build(file("src/a.ts", "a\n")));
    expect(report.orphanedUser).toEqual(["src/custom/gone/gone.policy.ts"]);
    expect(isClean(report)).toBe(false);
    expect(formatDriftReport(report)).toContain("orphaned  src/custom/gone/gone.policy.ts (yours: its resource or job is gone; generate --prune-custom deletes it)");
  });
});

describe("manifest", () => {
  it("lists generated files with their hash and user files by name, never migrations", () => {
    const map = build(file("a.ts", "a\n"), file("src/custom/p.ts", "p\n", "user"), file("prisma/migrations/0001_init/migration.sql", "x", "migration"));
    const manifest = parseManifest(map.get("hashapi.manifest.json")!.content, "m");
    expect(manifest.files).toEqual({
      "a.ts": { ownership: "generated", source: "specs/", sha256: "87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7" },
      "src/custom/p.ts": { ownership: "user", source: "specs/" },
    });
  });

  it.each([
    ["{", /is not valid JSON/],
    ['{"generator":"other"}', /is not a hashapi manifest/],
  ])("refuses a corrupt manifest %s", async (text, message) => {
    await writeFile(join(dir, "hashapi.manifest.json"), text);
    await expect(writeOutput(dir, build(file("a.ts", "a\n")), { force: false })).rejects.toThrow(message);
  });
});

describe("format", () => {
  it("uses the options pinned in code, whatever the disk says, and is idempotent", async () => {
    await writeFile(join(dir, ".prettierrc"), JSON.stringify({ semi: false, singleQuote: true, tabWidth: 8 }));
    await mkdir(join(dir, "src"), { recursive: true });
    const map = createFileMap([file("src/a.ts", "const a = {b:'x'}\n"), file("b.json", '{"a":[1,2]}'), file("schema.prisma", "model  X {}\n")]);
    const once = await formatFiles(map);
    expect(once.get("src/a.ts")!.content).toBe('const a = { b: "x" };\n');
    expect(once.get("b.json")!.content).toBe('{ "a": [1, 2] }\n');
    expect(once.get("schema.prisma")!.content).toBe("model  X {}\n");
    const twice = await formatFiles(once);
    for (const [path, entry] of once) expect(twice.get(path)!.content).toBe(entry.content);
  });

  it("names the file when a template renders invalid code", async () => {
    await expect(formatFiles(createFileMap([file("src/bad.ts", "const = ;")]))).rejects.toThrow(/src\/bad\.ts does not parse after rendering \(template bug\)/);
  });
});
