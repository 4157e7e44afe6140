import { buildOpenApi } from "../../src/emit/openapi.js";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, loadModel } from "../../src/index.js";

const repo = new URL("../..", import.meta.url).pathname;
const cli = join(repo, "bin/hashapi.js");
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hashapi-openapi-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("openapi.json", () => {
  it("lints clean with Redocly's recommended rules (a tool nobody here wrote)", async () => {
    const result = await execa(join(repo, "node_modules/.bin/redocly"), ["lint", "generated/openapi.json", "--format", "json"], { cwd: repo, reject: false });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number } };
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);

  it("publishes the very schemas the validators compile", async () => {
    const model = await loadModel(join(repo, "specs"));
    const document = buildOpenApi(model) as { components: { schemas: Record<string, unknown> } };
    for (const resource of model.resources) {
      expect(document.components.schemas[`${resource.names.pascal}CreatePayload`]).toBe(resource.validation.create.schema);
      expect(document.components.schemas[`${resource.names.pascal}UpdatePayload`]).toBe(resource.validation.update.schema);
    }
    // And in the committed output: the declaration the validators compile holds what the document publishes.
    const readJson = async (path: string) => JSON.parse(await readFile(join(repo, "generated", path), "utf8"));
    const published = (await readJson("openapi.json")).components.schemas;
    const declared = (await readJson("src/resources/patient/patient.resource.json")).validation;
    expect(declared.create.schema).toEqual(published.PatientCreatePayload);
    expect(declared.update.schema).toEqual(published.PatientUpdatePayload);
  });

  it("changes when a rule changes, and --check catches a stale document", async () => {
    const specs = join(work, "specs");
    const out = join(work, "out");
    await cp(join(repo, "specs"), specs, { recursive: true });
    expect((await execa(process.execPath, [cli, "generate", specs, "--out", out])).exitCode).toBe(0);
    const patient = join(specs, "patient.yaml");
    await writeFile(patient, (await readFile(patient, "utf8")).replace("name: [required, string, max:120]", "name: [required, string, max:80]"));
    const map = await generate(specs);
    const document = JSON.parse(map.get("openapi.json")!.content);
    expect(document.components.schemas.PatientCreatePayload.properties.name.maxLength).toBe(80);
    const check = await execa(process.execPath, [cli, "generate", specs, "--out", out, "--check"], { reject: false });
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain("changed   openapi.json");
    expect(check.stdout).toMatch(/^-\s+"maxLength": 120,$/m);
    expect(check.stdout).toMatch(/^\+\s+"maxLength": 80,$/m);
  }, 120_000);
});
