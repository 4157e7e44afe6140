import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * The admin's weight (docs/decisions.md, "The admin"): its page, script and styles, bundled as a
 * project's `npm run build` bundles them (admin/build.mjs), stay under 32 KB gzipped. The figures
 * themselves, and the first page's time, are `npm run bench`'s (bench/admin.mjs).
 */
const budgetBytes = 32 * 1024;
const root = new URL("../../runtime/admin/", import.meta.url).pathname;

describe("the admin's bundle", () => {
  it(`stays under its budget of ${budgetBytes / 1024} KB gzipped`, async () => {
    const bundled = await build({
      entryPoints: { app: `${root}src/main.tsx` },
      bundle: true,
      minify: true,
      format: "esm",
      target: "es2022",
      jsx: "automatic",
      jsxImportSource: "preact",
      outdir: "/bundle",
      write: false,
      legalComments: "none",
    });
    const files = [...bundled.outputFiles.map((file) => file.contents), await readFile(`${root}src/index.html`)];
    expect(bundled.outputFiles.map((file) => file.path.split("/").pop()).sort()).toEqual(["app.css", "app.js"]);
    const gzipped = files.reduce((sum, contents) => sum + gzipSync(contents, { level: 9 }).length, 0);
    expect(gzipped).toBeLessThanOrEqual(budgetBytes);
  });
});
