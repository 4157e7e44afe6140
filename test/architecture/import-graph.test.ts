import { describe, expect, it } from "vitest";
import { circlesOf, importGraph } from "../support/import-graph.js";
import { repo } from "../support/service.js";

describe("the import graph (docs/architecture.md)", () => {
  it("finds a circle when there is one, and none in a line", () => {
    expect(circlesOf(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]]);
    expect(circlesOf(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
  });

  it("has no circle in the generator: each stage imports only what lies below it", () => {
    expect(circlesOf(importGraph(repo, ["src"]))).toEqual([]);
  });

  it("has no circle in the runtime, as a project lays it out (common/ with a database's driver)", () => {
    expect(circlesOf(importGraph(repo, ["runtime/common/src", "runtime/sqlite/src", "runtime/postgresql/src"]))).toEqual([]);
  });
});
