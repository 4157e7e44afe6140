import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

const built = new URL("../../dist/spec/spec-validators.js", import.meta.url);

/**
 * `npm run build` compiles the spec schemas into dist/spec/spec-validators.js; schema-check.ts falls
 * back to compiling them when that file cannot be imported, so a broken build output would only
 * show as slower runs. (It did: ajv's ES module output used require().)
 */
describe("precompiled spec validators (scripts/compile-spec-schemas.mjs)", () => {
  it.runIf(existsSync(built))("load as an ES module and validate a spec", async () => {
    const { resource, project } = (await import(built.href)) as Record<string, (data: unknown) => boolean>;
    expect(resource!({ name: "Patient", fields: { name: { type: "string" } } })).toBe(true);
    expect(resource!({ name: "patient" })).toBe(false);
    expect(project!({ name: "clinic-api" })).toBe(true);
  });
});
