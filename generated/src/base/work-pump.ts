// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { coalesced, type Coalesced } from "./coalesced.js";
import type { Logger } from "./logger.js";

/*
 * Background work claimed from the database a few items at a time: up to `concurrency` items are
 * worked at once, each by itself, so that a slow one holds only its own slot. When one ends,
 * another is claimed at once; when none is due, the pump waits until something (a poll, a write
 * of this process) says there may be work. The lanes of each receiver (events/) and the jobs
 * of each name (jobs/) run on one each.
 */
export class WorkPump<Item> {
  private active = 0;
  private stopped = false;
  private readonly working = new Set<Promise<void>>();
  private readonly filling: Coalesced;

  constructor(
    private readonly options: {
      readonly name: string;
      readonly concurrency: number;
      /** Claims up to `room` items (fewer, or none, when fewer are due). */
      claim(room: number): Promise<readonly Item[]>;
      work(item: Item): Promise<void>;
      readonly logger: Logger;
    },
  ) {
    this.filling = coalesced(
      () => this.fill(),
      (error) =>
        options.logger.warn(
          { err: error, work: options.name },
          "claiming work failed; retried shortly",
        ),
    );
  }

  /** Claims due items while there is room; asked again while it claims, it claims once more after. */
  pump(): void {
    if (!this.stopped) this.filling.run();
  }

  private async fill(): Promise<void> {
    const { concurrency } = this.options;
    while (!this.stopped && this.active < concurrency) {
      const room = concurrency - this.active;
      const items = await this.options.claim(room);
      for (const item of items) this.start(item);
      if (items.length < room) return;
    }
  }

  private start(item: Item): void {
    this.active += 1;
    const running: Promise<void> = this.options
      .work(item)
      .catch((error: unknown) =>
        this.options.logger.warn(
          { err: error, work: this.options.name },
          "a piece of background work failed; it is taken again once its lease ends",
        ),
      )
      .finally(() => {
        this.active -= 1;
        this.working.delete(running);
        this.pumpSoon();
      });
    this.working.add(running);
  }

  private soon: NodeJS.Immediate | undefined;

  /**
   * Pumps after the current turn: items that end together are replaced by one claim, not one
   * each (each claim is a write, which on SQLite waits for the one writer).
   */
  private pumpSoon(): void {
    this.soon ??= setImmediate(() => {
      this.soon = undefined;
      this.pump();
    });
  }

  /** Stops claiming, and waits for the items under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.working.size > 0) await Promise.all([...this.working]);
  }
}
