import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { layoutJson } from "../../src/emit/json-layout.js";
import { buildOpenApi } from "../../src/emit/openapi.js";
import { prettierOptions } from "../../src/output/format-options.js";
import { loadModel } from "../../src/pipeline/generate.js";

const repo = new URL("../..", import.meta.url).pathname;
const prettierJson = (value: unknown) => format(JSON.stringify(value, null, 2), { ...prettierOptions, parser: "json" });

describe("layoutJson: prettier's JSON layout without prettier", () => {
  it("lays out the example's and the every-type fixture's openapi.json byte for byte as prettier does", async () => {
    const withFixture = await mkdtemp(join(tmpdir(), "hashapi-layout-"));
    await cp(join(repo, "specs"), join(withFixture, "specs"), { recursive: true });
    await cp(join(repo, "test/fixtures/hostile-specs/measurement.yaml"), join(withFixture, "specs/measurement.yaml"));
    for (const specs of [join(repo, "specs"), join(withFixture, "specs")]) {
      const document = buildOpenApi(await loadModel(specs));
      expect(layoutJson(document), specs).toBe(await prettierJson(document));
    }
    await rm(withFixture, { recursive: true, force: true });
  });

  it("breaks an array exactly where its line (with the comma after it) passes 100 columns", async () => {
    const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`);
    for (let count = 10; count <= 30; count += 1) {
      const value = { list: words(count), after: [[], [1, 2], {}], nested: { deep: [{ a: 1 }, "x", [true, null]] } };
      expect(layoutJson(value)).toBe(await prettierJson(value));
    }
  });
});
