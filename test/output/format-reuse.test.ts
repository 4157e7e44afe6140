import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import {
  addManifest,
  checkOutput,
  createFileMap,
  formatFiles,
  formatterFingerprint,
  manifestPath,
  parseManifest,
  sha256,
  writeOutput,
  type FileMap,
  type OutputFile,
} from "../../src/output/index.js";

const repo = new URL("../..", import.meta.url).pathname;
const file = (path: string, content: string, ownership: OutputFile["ownership"] = "generated"): OutputFile => ({ path, content, ownership, source: "specs/" });

/** What a render gives before formatting: prettier turns it into `const a = { b: "x" };\n`. */
const rendered = () => createFileMap([file("src/a.ts", "const a = {b:'x'}\n"), file("src/custom/p.ts", "export const p = {mine:1}\n", "user")]);
const formattedA = 'const a = { b: "x" };\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hashapi-format-reuse-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function generateInto(outDir: string, map: FileMap): Promise<FileMap> {
  const full = addManifest(await formatFiles(map, { previousOutput: outDir, workers: 0 }));
  await writeOutput(outDir, full, { force: false });
  return full;
}

/**
 * Puts bytes that prettier would never print on disk and makes the manifest vouch for them: when
 * these come back, they were reused, not formatted.
 */
async function plantVouchedFile(path: string, bytes: string, manifestEdit: (entry: Record<string, unknown>, manifest: Record<string, unknown>) => void = () => {}) {
  await writeFile(join(dir, path), bytes);
  const manifest = JSON.parse(await readFile(join(dir, manifestPath), "utf8")) as Record<string, unknown> & { files: Record<string, Record<string, unknown>> };
  manifest.files[path]!.sha256 = sha256(bytes);
  manifestEdit(manifest.files[path]!, manifest);
  await writeFile(join(dir, manifestPath), JSON.stringify(manifest, null, 2));
}

const contentOf = async (path: string) => (await formatFiles(rendered(), { previousOutput: dir, workers: 0 })).get(path)!.content;

describe("manifest records what reuse needs", () => {
  it("keeps the hash of the rendered text and the formatter for every formatted generated file", async () => {
    const manifest = parseManifest((await generateInto(dir, rendered())).get(manifestPath)!.content, "m");
    expect(manifest.formatter).toBe(formatterFingerprint);
    expect(formatterFingerprint).toMatch(/^prettier \d+\.\d+\.\d+, options [0-9a-f]{12}$/);
    expect(manifest.files["src/a.ts"]).toEqual({
      ownership: "generated",
      source: "specs/",
      sha256: sha256(formattedA),
      renderSha256: sha256("const a = {b:'x'}\n"),
    });
    expect(manifest.files["src/custom/p.ts"]).toEqual({ ownership: "user", source: "specs/" });
  });
});

describe("reusing formatted bytes from the previous output", () => {
  beforeEach(async () => {
    await generateInto(dir, rendered());
  });

  it("reuses the bytes on disk when the rendered text is the same and the file still has the manifest's hash", async () => {
    await plantVouchedFile("src/a.ts", "reused bytes\n");
    expect(await contentOf("src/a.ts")).toBe("reused bytes\n");
  });

  it("formats for real when the file was edited after generation", async () => {
    await writeFile(join(dir, "src/a.ts"), "const a = 2;\n");
    expect(await contentOf("src/a.ts")).toBe(formattedA);
  });

  it("formats for real when the file was deleted", async () => {
    await rm(join(dir, "src/a.ts"));
    expect(await contentOf("src/a.ts")).toBe(formattedA);
  });

  it("formats for real when the rendered text changed", async () => {
    await plantVouchedFile("src/a.ts", "stale bytes\n", (entry) => (entry.renderSha256 = sha256("const a = {b:'other'}\n")));
    expect(await contentOf("src/a.ts")).toBe(formattedA);
  });

  it("formats for real when another formatter or other options made the previous output", async () => {
    await plantVouchedFile("src/a.ts", "stale bytes\n", (_, manifest) => (manifest.formatter = "prettier 2.8.8, options 000000000000"));
    expect(await contentOf("src/a.ts")).toBe(formattedA);
  });

  it("formats for real when the manifest predates render hashes, is missing or is corrupt", async () => {
    await plantVouchedFile("src/a.ts", "stale bytes\n", (entry) => delete entry.renderSha256);
    expect(await contentOf("src/a.ts")).toBe(formattedA);
    await writeFile(join(dir, manifestPath), "{");
    expect(await contentOf("src/a.ts")).toBe(formattedA);
    await rm(join(dir, manifestPath));
    expect(await contentOf("src/a.ts")).toBe(formattedA);
  });

  it("takes an existing user-owned file as it is, and formats one that is missing", async () => {
    await writeFile(join(dir, "src/custom/p.ts"), "edited by the user\n");
    expect(await contentOf("src/custom/p.ts")).toBe("edited by the user\n");
    await rm(join(dir, "src/custom/p.ts"));
    expect(await contentOf("src/custom/p.ts")).toBe("export const p = { mine: 1 };\n");
  });

  it("still reports an edited generated file in --check, and writes nothing the second time", async () => {
    const again = addManifest(await formatFiles(rendered(), { previousOutput: dir, workers: 0 }));
    expect((await writeOutput(dir, again, { force: false })).filter((change) => change.kind !== "unchanged" && change.kind !== "keep-user")).toEqual([]);

    await writeFile(join(dir, "src/a.ts"), "const a = {b:'x'} // edited\n");
    const report = await checkOutput(dir, addManifest(await formatFiles(rendered(), { previousOutput: dir, workers: 0 })));
    expect(report.changed.map((change) => change.path)).toEqual(["src/a.ts"]);
  });
});

describe("the example project", () => {
  it("gives the same bytes whether generated/ is reused or everything is formatted again", async () => {
    const fresh = await generate(join(repo, "specs"));
    const reusing = await generate(join(repo, "specs"), { previousOutput: join(repo, "generated") });
    expect([...reusing.keys()]).toEqual([...fresh.keys()]);
    for (const [path, entry] of fresh) {
      if (entry.ownership === "generated") expect(reusing.get(path)!.content, path).toBe(entry.content);
    }
  });

  it("formats nothing but the edited file when one generated file changed on disk", async () => {
    const fresh = await generate(join(repo, "specs"));
    for (const entry of fresh.values()) {
      await mkdir(dirname(join(dir, entry.path)), { recursive: true });
      await writeFile(join(dir, entry.path), entry.content);
    }
    const service = "src/resources/patient/patient.resource.ts";
    await writeFile(join(dir, service), "// edited\n");
    const again = await generate(join(repo, "specs"), { previousOutput: dir });
    expect(again.get(service)!.content).toBe(fresh.get(service)!.content);
    expect(again.get(manifestPath)!.content).toBe(fresh.get(manifestPath)!.content);
  });
});
