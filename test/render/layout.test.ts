import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSyntheticSpecs } from "../../bench/synthetic-specs.mjs";
import { parserFor, prettierOptions } from "../../src/output/format-options.js";
import { isLaidOut } from "../../src/output/laid-out.js";
import { loadModel } from "../../src/pipeline/generate.js";
import { alignTable, literalProperty, tsInline } from "../../src/render/layout.js";
import { planArtifacts } from "../../src/render/plan.js";
import { renderArtifacts } from "../../src/render/render.js";
import { loadTemplates } from "../../src/render/templates.js";

const repo = new URL("../..", import.meta.url).pathname;

/**
 * A rendered TypeScript or JSON file whose lines fit the print width is written without prettier
 * (src/output/laid-out.ts): that is only right while the templates lay their output out exactly as
 * prettier would. Checked on projects unlike each other: the example on both databases, the example
 * with one field of every type, a single resource, and 30 synthetic ones.
 */
describe("templates laid out as prettier lays them out", () => {
  let work: string;
  const projects: Record<string, string> = {};

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "hashapi-layout-"));
    const copy = async (name: string) => {
      const dir = join(work, name);
      await cp(join(repo, "specs"), dir, { recursive: true });
      return dir;
    };
    projects.example = join(repo, "specs");
    projects["every type"] = await copy("every-type");
    await cp(join(repo, "test/fixtures/hostile-specs/measurement.yaml"), join(projects["every type"], "measurement.yaml"));
    projects.postgresql = await copy("postgresql");
    const settings = join(projects.postgresql, "hashapi.yaml");
    await writeFile(settings, (await readFile(settings, "utf8")).replace("database: sqlite", "database: postgresql"));
    projects.single = join(work, "single");
    writeSyntheticSpecs(projects.single, 1);
    projects.synthetic = join(work, "synthetic");
    writeSyntheticSpecs(projects.synthetic, 30);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("gives every file it does not format the bytes prettier would give it", async () => {
    const templates = await loadTemplates();
    let laidOut = 0;
    for (const [name, specs] of Object.entries(projects)) {
      const files = renderArtifacts(planArtifacts(await loadModel(specs), templates), {});
      for (const file of files) {
        const parser = parserFor(file.path);
        if (parser === undefined || file.ownership === "migration" || !isLaidOut(file.path, file.content)) continue;
        laidOut += 1;
        expect(file.content, `${name}: ${file.path}`).toBe(await format(file.content, { ...prettierOptions, parser }));
      }
    }
    // Most files take the fast path: a template that stopped fitting would go unnoticed otherwise.
    expect(laidOut).toBeGreaterThan(200);
  }, 120_000);
});

describe("isLaidOut (src/output/laid-out.ts)", () => {
  const long = "x".repeat(101);
  it("takes TypeScript and JSON whose lines of code fit the print width, and Markdown", () => {
    expect(isLaidOut("src/a.ts", `const a = 1;\n// ${long}\n/** ${long} */\n  "${long}",\n  \`${long}\`,\n`)).toBe(true);
    expect(isLaidOut("package.json", '{\n  "name": "x"\n}\n')).toBe(true);
  });

  it("leaves a line of code past the width, and other kinds of files, to prettier", () => {
    expect(isLaidOut("src/a.ts", `const a = "${long}" + b;\n`)).toBe(false);
    expect(isLaidOut("src/a.ts", `${"x".repeat(100)}\n`)).toBe(true);
    expect(isLaidOut("src/a.ts", `${"x".repeat(101)}`)).toBe(false);
    expect(isLaidOut("README.md", `| ${long} |\n`)).toBe(true);
    expect(isLaidOut("src/a.js", "const a = 1;\n")).toBe(false);
  });
});

describe("tsInline (src/render/layout.ts)", () => {
  it("writes a JSON value as prettier writes the literal on one line", async () => {
    const value = { name: "string", "odd-key": [1, "two", null, true], nested: { empty: {}, none: [] } };
    const text = `export const a = ${tsInline(value)};\n`;
    expect(text).toBe('export const a = { name: "string", "odd-key": [1, "two", null, true], nested: { empty: {}, none: [] } };\n');
    expect(await format(text, { ...prettierOptions, printWidth: 200, parser: "babel-ts" })).toBe(text);
  });
});

describe("alignTable and literalProperty (src/render/layout.ts)", () => {
  it("aligns a Markdown table's columns as prettier does, a `|` in code staying in its cell", async () => {
    const table = "| a | longer heading |\n|---|---|\n| `x \\| y` | … |\n| wide cell here | z |\n";
    const aligned = alignTable(table);
    expect(aligned).toBe(await format(table, { ...prettierOptions, parser: "markdown" }));
    expect(aligned.split("\n")[1]).toBe("| -------------- | -------------- |");
  });

  it("keeps a property on one line while it fits, and breaks it one entry a line as prettier does", async () => {
    const check = async (text: string) => {
      const source = `export const a = {\n${text}};\n`;
      expect(source).toBe(await format(source, { ...prettierOptions, parser: "babel-ts" }));
    };
    await check(literalProperty("columns", "{}", 'name: "string"\ncode: "string"\n'));
    await check(literalProperty("columns", "{}", Array.from({ length: 9 }, (_, index) => `column_${index}: "string"`).join("\n")));
    await check(literalProperty("list", "[]", '{ key: "a", other: 1 }\n{ key: "b", other: 2 }\n'));
    await check(literalProperty("list", "[]", '{ key: "a", other: 1 }\n'));
    expect(literalProperty("list", "[]", '{ key: "a", other: 1 }\n{ key: "b", other: 2 }\n')).toContain("[\n");
  });
});
