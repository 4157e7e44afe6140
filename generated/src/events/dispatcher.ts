// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fanOut, fanOutBatch, type FanOutReceiver } from "./fan-out.js";
import { handlerTimeoutMs, type HandlerReceiver } from "./handlers.js";
import { workLane, type LaneSettings } from "./lane-worker.js";
import { claimLanes, openMissingLanes, type Lane } from "./lanes.js";
import { eventsWritten } from "../data/outbox.js";
import { coalesced } from "../base/coalesced.js";
import { paced } from "../base/paced.js";
import { WorkPump } from "../base/work-pump.js";
import type { Webhook } from "./webhooks.js";

/*
 * The worker that delivers events to webhooks and to src/custom/events.ts's handlers, one in every
 * process of the service. It fans new events out into deliveries (fan-out.ts), then each receiver
 * works its own lanes (one per record with deliveries pending, lanes.ts) with a concurrency of its
 * own: a record's next event goes as soon as the one before it is settled, and a receiver that
 * hangs holds only its own lanes. It runs beside the requests and never in them.
 */

export interface DispatcherOptions extends LaneSettings {
  readonly webhooks: readonly Webhook[];
  /** src/custom/events.ts's handlers. */
  readonly handlers: readonly HandlerReceiver[];
  /** How often it looks for new events and due lanes when nothing tells it sooner. */
  readonly pollMs?: number;
}

export interface Dispatcher {
  /** Stops taking more, and waits for the attempts under way. */
  stop(): Promise<void>;
}

/** The least time between two fan-outs that writes of this process ask for. */
export const streamGapMs = 100;

/** Starts delivering; a failure of the loop itself is logged and the loop goes on. */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { sql, logger } = options;
  const stopping = new AbortController();
  const receivers = [...options.webhooks, ...options.handlers];
  const lanes = new Map(
    receivers.map((receiver) => {
      const leaseMs = ("url" in receiver ? options.timeoutMs : handlerTimeoutMs) + 10_000;
      const pump = new WorkPump<Lane>({
        name: receiver.name,
        concurrency: receiver.concurrency,
        claim: (room) => claimLanes(sql, receiver.name, room, leaseMs),
        work: (lane) => workLane(options, receiver, lane, leaseMs, stopping.signal),
        logger,
      });
      return [receiver.name, pump] as const;
    }),
  );
  const fanningOut = fanOutReceivers(options, receivers);
  const fan = coalesced(
    async () => {
      for (;;) {
        const made = await fanOut(sql, fanningOut);
        for (const name of made.receivers) lanes.get(name)?.pump();
        // A batch that was not full took every event committed before it looked: one more round
        // would only find that out (a probe a fan-out, chatty on PostgreSQL under a stream of
        // writes). A later write signals again, another process's is found by the poll.
        if (made.events < fanOutBatch || stopping.signal.aborted) return;
      }
    },
    (error) => logger.warn({ err: error }, "fanning events out failed; retried shortly"),
  );
  // A write of this process is fanned out at once after a quiet spell, and under a stream of
  // writes once every `streamGapMs`: each fan-out is a transaction of its own, and one every 20 ms
  // cost PostgreSQL's service about a third of its busy time under a stream of creates
  // (bench/README.md "Issue 47, item 7, second part").
  const written = paced(() => stopping.signal.aborted || fan.run(), streamGapMs);
  const timer = setInterval(() => {
    if (!stopping.signal.aborted) fan.run();
    for (const receiver of lanes.values()) receiver.pump();
  }, options.pollMs ?? 1_000);
  timer.unref();
  const unsubscribe = eventsWritten.subscribe(() => written.run());
  openMissingLanes(sql).catch((error: unknown) =>
    logger.warn({ err: error }, "opening the lanes of earlier deliveries failed"),
  );
  return {
    async stop() {
      stopping.abort();
      clearInterval(timer);
      unsubscribe();
      written.cancel();
      await fan.idle();
      await Promise.all([...lanes.values()].map((receiver) => receiver.stop()));
    },
  };
}

/** The receivers as fan-out asks them: the events they name, seeds only if asked, records they may read. */
function fanOutReceivers(
  options: DispatcherOptions,
  receivers: readonly (Webhook | HandlerReceiver)[],
): FanOutReceiver[] {
  return receivers.map((receiver) => ({
    name: receiver.name,
    accepts: (event) =>
      receiver.matches(event.type) &&
      (event.origin === null || receiver.seeds) &&
      options.readers.mayHear(receiver, event.hash),
  }));
}
