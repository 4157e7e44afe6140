import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HashapiError } from "../../src/errors.js";
import { loadModel, renderModel } from "../../src/pipeline/generate.js";
import { specSet, writeSpecSet } from "../support/spec-space.js";

/**
 * The spec space, first tier (issue 31): spec sets drawn at random from the format; every set
 * `hashapi validate` accepts must generate (no crash: a belongsTo cycle once overflowed the stack,
 * `default: null` crashed on dates), and what it generates must hold together: every `$ref` of
 * openapi.json resolves, no schema name is taken twice, the Prisma schema has no default that is
 * not a value. The second tier (test/e2e/spec-space.test.ts) builds and runs a few of them.
 * `SPEC_SPACE_RUNS` and `SPEC_SPACE_SEED` set the run; a failure prints its seed and the shrunk set.
 */
const runs = Number(process.env.SPEC_SPACE_RUNS ?? 60);
const seed = process.env.SPEC_SPACE_SEED ? Number(process.env.SPEC_SPACE_SEED) : process.env.CI ? 20261126 : undefined;

/** Every `$ref` in the document, and whether it names a component that exists. */
function danglingRefs(document: Record<string, unknown>): string[] {
  const missing: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== "object" || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") {
        const path = inner.replace(/^#\//, "").split("/");
        let node: unknown = document;
        for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part];
        if (node === undefined) missing.push(inner);
      } else visit(inner);
    }
  };
  visit(document);
  return missing;
}

describe("the spec space: every valid spec set generates a project that holds together", () => {
  it(`draws ${runs} spec sets; each one validate accepts renders, with resolvable refs and real defaults`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "hashapi-spec-space-"));
    const counts = { accepted: 0, refused: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(specSet, async (set) => {
          const specs = join(dir, "specs");
          writeSpecSet(specs, set);
          let model;
          try {
            model = await loadModel(specs);
          } catch (error) {
            if (!(error instanceof HashapiError)) throw error;
            counts.refused += 1;
            return;
          }
          counts.accepted += 1;
          const files = await renderModel(model);
          const text = (path: string) => files.get(path)?.content;
          const openapi = JSON.parse(text("openapi.json")!) as Record<string, unknown>;
          expect(danglingRefs(openapi)).toEqual([]);
          const schema = text("prisma/schema.prisma")!;
          expect(schema).not.toMatch(/@default\("?null"?\)/);
          expect(schema).not.toMatch(/Invalid Date|NaN|undefined/);
        }),
        { numRuns: runs, seed },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      console.log(`spec space (generate): seed ${seed ?? "random"}, ${counts.accepted} accepted, ${counts.refused} refused by validate`);
    }
    // The arbitrary must mostly draw valid sets, or this tests the validator only.
    expect(counts.accepted).toBeGreaterThan(runs / 3);
  }, 300_000);
});
