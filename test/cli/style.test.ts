import { describe, expect, it } from "vitest";
import { slowStepMs, step } from "../../src/cli/style.js";

/** A terminal that records what is written to it. */
function terminal(isTTY = true) {
  const lines: string[] = [];
  return { lines, stream: { isTTY, write: (text: string) => (lines.push(text), true) } };
}
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("step lines (src/cli/style.ts): the threshold decides, never the machine's speed", () => {
  it("says nothing of a step quicker than the threshold", async () => {
    const { lines, stream } = terminal();
    expect(await step("quick", after(5, 1), stream, 10_000)).toBe(1);
    expect(lines).toEqual([]);
  });

  it("says when a step is slow and how long it took, past the threshold", async () => {
    const { lines, stream } = terminal();
    expect(await step("slow", after(30, 2), stream, 10)).toBe(2);
    expect(lines[0]).toBe("… slow\n");
    expect(lines[1]).toMatch(/^✓ slow \(\d+\.\d s\)\n$/);
  });

  it("is silent on pipes and files, however slow", async () => {
    const { lines, stream } = terminal(false);
    await step("slow", after(20, 3), stream, 0);
    expect(lines).toEqual([]);
  });

  it("reads the threshold from HASHAPI_SLOW_STEP_MS, a second otherwise", () => {
    expect(slowStepMs({})).toBe(1_000);
    expect(slowStepMs({ HASHAPI_SLOW_STEP_MS: "0" })).toBe(0);
    expect(slowStepMs({ HASHAPI_SLOW_STEP_MS: "250" })).toBe(250);
    expect(slowStepMs({ HASHAPI_SLOW_STEP_MS: "soon" })).toBe(1_000);
  });
});
