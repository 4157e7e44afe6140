import { describe, expect, it } from "vitest";
import { loadModel } from "../../src/pipeline/generate.js";
import { createFileMap, formatFiles, type OutputFile } from "../../src/output/index.js";
import { defaultWorkerCount } from "../../src/output/format-pool.js";
import { planArtifacts } from "../../src/render/plan.js";
import { renderArtifacts } from "../../src/render/render.js";
import { loadTemplates } from "../../src/render/templates.js";

const repo = new URL("../..", import.meta.url).pathname;
const file = (path: string, content: string): OutputFile => ({ path, content, ownership: "generated", source: "specs/" });

async function renderedExample() {
  const model = await loadModel(`${repo}specs`);
  return createFileMap(renderArtifacts(planArtifacts(model, await loadTemplates())));
}

describe("formatting on worker threads", () => {
  it("gives the same bytes as formatting in this thread, for every file of the example", async () => {
    const rendered = await renderedExample();
    const here = await formatFiles(rendered, { workers: 0 });
    const pooled = await formatFiles(rendered, { workers: 2 });
    expect([...pooled.keys()]).toEqual([...here.keys()]);
    for (const [path, entry] of here) expect(pooled.get(path)!.content, path).toBe(entry.content);
    expect([...pooled.values()].map((entry) => entry.renderSha256)).toEqual([...here.values()].map((entry) => entry.renderSha256));
  });

  it("names the first file in path order that does not parse, whichever thread met it", async () => {
    const map = createFileMap([
      ...Array.from({ length: 12 }, (_, index) => file(`src/ok-${String(index).padStart(2, "0")}.ts`, `export const a${index} = {b:1}\n`)),
      file("src/z-bad.ts", "const = ;"),
      file("src/b-bad.json", "{"),
    ]);
    await expect(formatFiles(map, { workers: 3 })).rejects.toThrow(/: src\/b-bad\.json does not parse after rendering \(template bug\)/);
  });

  it("uses threads only when there are cores and files enough to pay for them", () => {
    expect(defaultWorkerCount(1000, 2)).toBe(0);
    expect(defaultWorkerCount(10, 8)).toBe(0);
    expect(defaultWorkerCount(1000, 4)).toBe(2);
    expect(defaultWorkerCount(1000, 64)).toBe(4);
  });
});
