import { join } from "node:path";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { emitFiles } from "../../src/emit/index.js";
import { formatJobs } from "../../src/output/format-jobs.js";
import { parserFor, prettierOptions } from "../../src/output/format-options.js";
import { loadModel } from "../../src/pipeline/generate.js";
import { planArtifacts } from "../../src/render/plan.js";
import { renderArtifacts } from "../../src/render/render.js";
import { loadTemplates } from "../../src/render/templates.js";

const repo = new URL("../..", import.meta.url).pathname;

describe("formatting many files to a prettier call (format-jobs.ts)", () => {
  it("gives every rendered file of the example exactly the bytes one call per file gives", async () => {
    const model = await loadModel(join(repo, "specs"));
    const files = [...emitFiles(model), ...renderArtifacts(planArtifacts(model, await loadTemplates()))].filter(
      (file) => !file.verbatim && parserFor(file.path) !== undefined,
    );
    const jobs = files.map((file) => ({ path: file.path, content: file.content, parser: parserFor(file.path)! }));
    expect(jobs.filter((job) => job.parser === "babel-ts").length).toBeGreaterThan(20);
    const batched = await formatJobs(jobs, 0);
    for (const [index, job] of jobs.entries()) {
      expect(batched[index], job.path).toBe(await format(job.content, { ...prettierOptions, parser: job.parser }));
    }
  });

  it("names the file that does not parse, even inside a batch", async () => {
    const jobs = [
      { path: "a.ts", content: "export const a = 1;\n", parser: "babel-ts" },
      { path: "broken.ts", content: "export const = ;\n", parser: "babel-ts" },
    ];
    await expect(formatJobs(jobs, 0)).rejects.toThrow(/broken\.ts does not parse after rendering/);
  });
});
