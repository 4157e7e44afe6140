import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { paced } from "../../runtime/common/src/base/paced.js";

// The fan-out's pace (events/dispatcher.ts): at once after a quiet spell, once a gap under a stream.

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("paced", () => {
  it("runs at once after a quiet spell, and once at the end of the gap however often it is asked", () => {
    let runs = 0;
    const task = paced(() => (runs += 1), 100);
    task.run();
    expect(runs).toBe(1);
    for (let ask = 0; ask < 10; ask += 1) {
      vi.advanceTimersByTime(5);
      task.run();
    }
    expect(runs).toBe(1);
    vi.advanceTimersByTime(49); // 99 ms after the first run
    expect(runs).toBe(1);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(2);
    vi.advanceTimersByTime(1_000);
    expect(runs).toBe(2); // nothing asked since: nothing runs
    task.run();
    expect(runs).toBe(3); // a quiet spell: at once again
  });

  it("forgets the waiting run when cancelled", () => {
    let runs = 0;
    const task = paced(() => (runs += 1), 100);
    task.run();
    task.run();
    task.cancel();
    vi.advanceTimersByTime(500);
    expect(runs).toBe(1);
  });
});
