import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { layoutJson } from "../../src/emit/json-layout.js";
import { buildOpenApi } from "../../src/emit/openapi.js";
import { buildResourceDeclaration } from "../../src/emit/resource-declaration.js";
import { prettierOptions } from "../../src/output/format-options.js";
import { loadModel } from "../../src/pipeline/generate.js";

const repo = new URL("../..", import.meta.url).pathname;
const prettierJson = (value: unknown) => format(JSON.stringify(value, null, 2), { ...prettierOptions, parser: "json" });
const prettierAgain = (text: string) => format(text, { ...prettierOptions, parser: "json" });

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

  it("with inline objects, lays out every resource's declaration as a fixed point of prettier", async () => {
    const withFixture = await mkdtemp(join(tmpdir(), "hashapi-layout-"));
    await cp(join(repo, "specs"), join(withFixture, "specs"), { recursive: true });
    await cp(join(repo, "test/fixtures/hostile-specs/measurement.yaml"), join(withFixture, "specs/measurement.yaml"));
    for (const resource of (await loadModel(join(withFixture, "specs"))).resources) {
      const text = layoutJson(buildResourceDeclaration(resource), { inlineObjects: true });
      expect(text, resource.name).toBe(await prettierAgain(text));
      expect(JSON.parse(text)).toEqual(buildResourceDeclaration(resource));
    }
    await rm(withFixture, { recursive: true, force: true });
  });

  it("keeps an object inline only where it fits, and breaks lists of several multi-entry lists or objects", async () => {
    const value = {
      short: { type: "string", maxLength: 5 },
      long: { description: "x".repeat(80), other: 1 },
      pairs: [["a", "b"], ["c", "d"]],
      single: [["a"]],
      objects: [{ a: 1, b: 2 }, { a: 3, b: 4 }],
      lone: [{ a: 1 }],
    };
    const text = layoutJson(value, { inlineObjects: true });
    expect(text).toBe(await prettierAgain(text));
    expect(text).toContain('"short": { "type": "string", "maxLength": 5 },');
    expect(text).toContain('"pairs": [\n    ["a", "b"],\n    ["c", "d"]\n  ],');
    expect(text).toContain('"lone": [{ "a": 1 }]');
    expect(layoutJson(value)).toBe(await prettierJson(value));
  });

  it("breaks an array exactly where its line (with the comma after it) passes 100 columns", async () => {
    const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`);
    for (let count = 10; count <= 30; count += 1) {
      const value = { list: words(count), after: [[], [1, 2], {}], nested: { deep: [{ a: 1 }, "x", [true, null]] } };
      expect(layoutJson(value)).toBe(await prettierJson(value));
    }
  });
});
