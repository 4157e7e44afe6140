// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** A task asked for often, run at most once every `gapMs`: see paced(). */
export interface Paced {
  /** Runs the task now if its last run began `gapMs` ago or more, else once when that time comes. */
  run(): void;
  /** Forgets a run waiting for its time (stopping). */
  cancel(): void;
}

/**
 * `task` run at once when it has not run for `gapMs`, and otherwise once at the end of the gap,
 * however often it is asked for meanwhile: the first ask after a quiet spell is answered at once,
 * a stream of asks once a gap. `now` is the clock (tests pass their own).
 */
export function paced(task: () => void, gapMs: number, now: () => number = Date.now): Paced {
  let lastRun = -Infinity;
  let waiting: NodeJS.Timeout | undefined;
  const runNow = () => {
    waiting = undefined;
    lastRun = now();
    task();
  };
  return {
    run() {
      if (waiting !== undefined) return;
      const wait = lastRun + gapMs - now();
      if (wait <= 0) return runNow();
      waiting = setTimeout(runNow, wait);
      waiting.unref();
    },
    cancel() {
      clearTimeout(waiting);
      waiting = undefined;
    },
  };
}
