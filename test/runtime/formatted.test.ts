import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { prettierOptions } from "../../src/output/format-options.js";
import { defaultRuntimeDir } from "../../src/render/runtime.js";

describe("the runtime library is copied as is", () => {
  it("is already formatted as a generation would format it (npm run format:runtime)", async () => {
    // The admin's components (.tsx) too: prettier's TypeScript parser reads their JSX.
    const files = (await readdir(defaultRuntimeDir, { recursive: true })).filter((file) => /\.tsx?$/.test(file));
    expect(files.length).toBeGreaterThan(30);
    const unformatted: string[] = [];
    for (const file of files) {
      const text = await readFile(join(defaultRuntimeDir, file), "utf8");
      const parser = file.endsWith(".tsx") ? "typescript" : "babel-ts";
      if ((await format(text, { ...prettierOptions, parser })) !== text) unformatted.push(file);
    }
    expect(unformatted).toEqual([]);
  });

  it("starts every file with the header that says where it comes from", async () => {
    const files = (await readdir(defaultRuntimeDir, { recursive: true })).filter((file) => /\.tsx?$/.test(file));
    for (const file of files) {
      expect(await readFile(join(defaultRuntimeDir, file), "utf8"), file).toMatch(/^\/\/ Part of the hashapi runtime, copied as is/);
    }
  });
});
