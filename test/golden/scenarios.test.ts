import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";

/**
 * Per-feature goldens: each scenario is a spec set about one feature and the few output files it
 * pins, so a change of that feature is reviewed in a few dozen lines rather than across the whole
 * example (`npm run golden:update` rewrites them: scripts/golden-scenarios.mjs).
 */
const scenarios = new URL("./scenarios/", import.meta.url).pathname;

describe.each(readdirSync(scenarios).sort())("golden scenario %s", (name) => {
  const dir = join(scenarios, name);
  const pinned = readFileSync(join(dir, "pinned.txt"), "utf8").split("\n").filter(Boolean);

  it("generates each pinned file byte for byte as expected/ holds it", async () => {
    const map = await generate(join(dir, "specs"));
    expect(pinned.length).toBeGreaterThan(0);
    for (const path of pinned) {
      const expected = readFileSync(join(dir, "expected", path), "utf8");
      expect(map.get(path)?.content, `${name}: ${path} (npm run golden:update after a reviewed change)`).toBe(expected);
    }
  });
});
