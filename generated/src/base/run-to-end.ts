// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * Runs the project's own code for background work (an event handler, a job) and says how it went:
 * null when it succeeded, else what it threw, or `overTime` when it ended after `deadline`. It
 * waits for the code to end, even past its deadline (the deadline's signal asks it to hurry):
 * JavaScript cannot stop a function from outside, and settling early would let a retry of the
 * same work start while the first run still goes on. The worker keeps its lease meanwhile.
 */
export async function runToEnd(
  work: () => unknown,
  deadline: AbortSignal,
  overTime: string,
): Promise<string | null> {
  const outcome = await Promise.resolve()
    .then(work)
    .then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
  return deadline.aborted ? overTime : outcome;
}
