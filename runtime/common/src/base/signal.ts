// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** Something that happened in this process, told to whoever listens. */
export interface Signal {
  /** Tells the listeners a moment later (`delayMs`), once for a burst of notifications. */
  notify(): void;
  /** Tells the listeners now (what another thread of this process was told). */
  fire(): void;
  /** Listens; the function returned stops listening. */
  subscribe(listener: () => void): () => void;
}

/**
 * A signal told a little after it is notified: a write notifies from inside its transaction, and
 * the delay lets that transaction commit before the listener looks for what it wrote (what a
 * listener misses, its own poll finds). A notification while one is pending adds nothing.
 */
export function delayedSignal(delayMs: number): Signal {
  const listeners = new Set<() => void>();
  let scheduled: NodeJS.Timeout | undefined;
  const fire = () => {
    for (const listener of listeners) listener();
  };
  return {
    notify() {
      if (scheduled !== undefined || listeners.size === 0) return;
      scheduled = setTimeout(() => {
        scheduled = undefined;
        fire();
      }, delayMs);
      scheduled.unref();
    },
    fire,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
