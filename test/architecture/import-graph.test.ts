import { describe, expect, it } from "vitest";
import { arrowsUp, circlesOf, importGraph, layerRanks } from "../support/import-graph.js";
import { repo } from "../support/service.js";

const runtimeRoots = ["runtime/common/src", "runtime/sqlite/src", "runtime/postgresql/src"];
/**
 * The runtime's layers, top first (docs/architecture.md "The runtime: layers"): the commands' entry
 * points; the composition root and the process; `lib/`, the paths a project's own code imports (each
 * a re-export of the module where it lives, so the runtime itself never imports them); the
 * endpoints (accounts, resources, the admin's manifest and pages); the HTTP helpers they share; identity; event deliveries and
 * history; files (storage, uploads, their jobs); jobs; the data layer (tables, relations, list conditions, codecs, the events a write
 * appends); the database (SQL, dialects and drivers, migrations); and the base under everything.
 */
const runtimeLayers = [
  ["scripts"],
  ["app"],
  ["lib"],
  ["accounts", "resource", "admin"],
  ["http"],
  ["auth"],
  ["events"],
  ["files"],
  ["jobs"],
  ["mail"],
  ["data"],
  ["db"],
  ["base"],
];

/**
 * The generator's layers, top first (docs/architecture.md "The generator"): the CLI and the library's
 * entry, the pipeline that runs the stages, the commands beside it, then the stages from last to
 * first. `spec/` and `model/` share a layer: the checks speak the model's vocabulary (field types,
 * names, operators) and check seed rows with the model's payload validation.
 */
const generatorLayers = [
  ["cli", "index.ts"],
  ["pipeline"],
  ["scaffold", "typecheck"],
  ["emit"],
  ["migrate"],
  ["render"],
  ["output"],
  ["spec", "model"],
  ["dialects"],
  ["errors.ts"],
];

describe("the import graph (docs/architecture.md)", () => {
  it("finds a circle when there is one, and none in a line", () => {
    expect(circlesOf(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]]);
    expect(circlesOf(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
  });

  it("has no circle in the generator: each stage imports only what lies below it", () => {
    expect(circlesOf(importGraph(repo, ["src"]))).toEqual([]);
  });

  it("has no circle in the runtime, as a project lays it out (common/ with a database's driver)", () => {
    expect(circlesOf(importGraph(repo, runtimeRoots))).toEqual([]);
  });

  it("finds an arrow back up, and a file outside every layer", () => {
    const rankOf = layerRanks(["src"], [["app"], ["http"], ["lib"]]);
    const graph = new Map([
      ["src/app/a.ts", ["src/lib/b.ts"]],
      ["src/lib/b.ts", ["src/http/c.ts"]],
      ["src/stray/d.ts", []],
      ["src/http/c.ts", ["src/stray/d.ts"]],
    ]);
    expect(arrowsUp(graph, rankOf)).toEqual(["src/http/c.ts → src/stray/d.ts", "src/lib/b.ts → src/http/c.ts"]);
  });

  it("has no arrow back up in the generator: each stage imports only the stages below it", () => {
    expect(arrowsUp(importGraph(repo, ["src"]), layerRanks(["src"], generatorLayers))).toEqual([]);
  });

  it("has no arrow back up in the runtime: each folder imports its own layer or one below it", () => {
    expect(arrowsUp(importGraph(repo, runtimeRoots), layerRanks(runtimeRoots, runtimeLayers))).toEqual([]);
  });
});
