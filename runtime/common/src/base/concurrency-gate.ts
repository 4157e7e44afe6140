// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** Thrown when a gate's queue is full: the caller should answer "try again shortly". */
export class GateFull extends Error {
  constructor() {
    super("gate full");
  }
}

/**
 * At most `running` tasks at once, at most `waiting` more queued; beyond that a task is refused at
 * once instead of piling up. Password hashing goes through one (base/passwords.ts): each scrypt takes
 * ≈ 128 MiB and a few hundred milliseconds of a libuv thread, so a burst of logins or user creations
 * must not take every thread (and the memory) from the rest of the service.
 */
export class ConcurrencyGate {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) throw new GateFull();
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else this.active += 1;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next task in line, or free it.
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
