// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** A task run one at a time: asked while it runs, it runs once more when it ends. */
export interface Coalesced {
  run(): void;
  /** Resolves when no run is under way. */
  idle(): Promise<void>;
}

/**
 * `task` made safe to ask for often: one run at a time, and every ask during a run answered by
 * one more run after it (never lost, never piled up). What a run throws goes to `failed`.
 */
export function coalesced(task: () => Promise<void>, failed: (error: unknown) => void): Coalesced {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = task()
      .catch(failed)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return {
    run,
    async idle() {
      while (running) await running;
    },
  };
}
