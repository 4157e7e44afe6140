import fc from "fast-check";
import { it } from "vitest";
import { HashapiError } from "../src/errors.js";
import { loadValidSpecs } from "../src/pipeline/generate.js";
import { specSet, writeSpecSet } from "./support/spec-space.js";
it("dump", async () => {
  let n = 0;
  for (const drawn of fc.sample(specSet, { seed: Number(process.env.S ?? 20261126), numRuns: 40 })) {
    const set = { ...drawn, project: { ...drawn.project, database: process.env.D ?? "sqlite" } };
    writeSpecSet("/tmp/dump/specs", set);
    try { await loadValidSpecs("/tmp/dump/specs"); } catch (e) { if (e instanceof HashapiError) continue; throw e; }
    if (n++ === Number(process.env.I ?? 0)) break;
  }
});
