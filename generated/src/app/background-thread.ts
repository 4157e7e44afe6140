// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { Dispatcher } from "../events/dispatcher.js";
import type { RetentionRule } from "../events/retention.js";
import type { JobWorker } from "../jobs/worker.js";
import type { WatchedWork } from "../http/metrics.js";
import { eventsWritten } from "../data/outbox.js";
import { keepEventsPruned } from "../events/retention.js";
import { jobsEnqueued } from "../jobs/queue.js";
import type { Logger } from "../base/logger.js";
import type { Sql } from "../db/sql.js";
import { takeRemoteWorkCounts, workCountsSnapshot } from "../base/work-counts.js";

/*
 * The service's background work — event deliveries, jobs and schedules, the outbox's retention —
 * runs in a thread of its own in each process that serves, on a connection (or pool) of its own:
 * a backlog of deliveries keeps that thread busy, never the event loop that answers requests. The
 * serving thread tells it when this process wrote events or enqueued jobs (so they go at once, not
 * at the next poll), and it sends back what it did, for /metrics. A thread that dies is started
 * again; on a stop, the serving thread waits for it to end its attempts under way.
 */

const marker = "hashapi background work";

/**
 * What the running service does beside the requests: the composition root (http/api-app.ts)
 * builds it, app/service.ts starts it in the background thread; tests do not.
 */
export interface BackgroundWork {
  readonly eventRetention: RetentionRule[];
  startDispatcher(logger: Logger): Dispatcher;
  /** The job worker and schedules, when hashapi.yaml declares jobs. */
  startJobs(logger: Logger): JobWorker | undefined;
  /** What /metrics watches of that work (http/metrics.ts). */
  readonly watched: WatchedWork;
}

/** Whether this thread is the background thread a serving process started. */
export function isBackgroundThread(): boolean {
  return !isMainThread && (workerData as { role?: unknown } | null)?.role === marker;
}

export interface BackgroundThread {
  /** Asks the thread to stop taking work, and waits (at most `graceMs`) for it to end. */
  stop(graceMs: number): Promise<void>;
}

/**
 * A worker running the entry module. Under `npm run dev` the module is TypeScript, loaded through
 * tsx, whose loader a worker thread does not inherit from its process: the worker registers it
 * first (without it, every delivery and job of the dev server failed to start).
 */
function workerOf(moduleUrl: string): Worker {
  const options = { workerData: { role: marker } };
  if (!moduleUrl.endsWith(".ts")) return new Worker(new URL(moduleUrl), options);
  const tsx = import.meta.resolve("tsx/esm/api");
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** Starts the background thread of this process: the service's own entry module, run as that thread. */
export function startBackgroundThread(moduleUrl: string, logger: Logger): BackgroundThread {
  let stopping = false;
  let worker: Worker;
  let restarts = 0;
  const start = () => {
    worker = workerOf(moduleUrl);
    worker.on("message", (message: unknown) => takeRemoteWorkCounts(message));
    worker.on("error", (error) => logger.error({ err: error }, "the background thread failed"));
    worker.on("exit", (code) => {
      if (stopping) return;
      const delayMs = Math.min(250 * 2 ** restarts, 8_000);
      restarts += 1;
      logger.warn({ code, restartInMs: delayMs }, "the background thread exited; starting another");
      setTimeout(() => stopping || start(), delayMs).unref();
    });
    worker.unref();
  };
  start();
  const unsubscribe = [
    eventsWritten.subscribe(() => worker.postMessage("events")),
    jobsEnqueued.subscribe(() => worker.postMessage("jobs")),
  ];
  return {
    async stop(graceMs) {
      stopping = true;
      for (const stop of unsubscribe) stop();
      const ended = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.postMessage("stop");
      const timer = setTimeout(() => void worker.terminate(), graceMs);
      await ended;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs the background work of the app built for this thread until the serving thread says stop:
 * then it stops taking work, waits for what is under way, closes its database and ends the thread.
 */
export function runBackgroundWork(background: BackgroundWork, db: Sql, logger: Logger): void {
  const port = parentPort!;
  yieldToRequests();
  const retention = keepEventsPruned(db, background.eventRetention, logger);
  const dispatcher = background.startDispatcher(logger);
  const jobs = background.startJobs(logger);
  const reporting = setInterval(() => port.postMessage(workCountsSnapshot()), 2_000);
  port.on("message", (message: unknown) => {
    if (message === "events") eventsWritten.fire();
    else if (message === "jobs") jobsEnqueued.fire();
    else if (message === "stop") {
      clearInterval(reporting);
      retention.stop();
      void Promise.all([dispatcher.stop(), jobs?.stop()])
        .then(() => port.postMessage(workCountsSnapshot()))
        .then(() => db.close())
        .finally(() => process.exit(0));
    }
  });
}

/**
 * Lowers this thread's CPU priority (nice 10) where the system has it per thread (Linux: a thread
 * is a task of its own, named by /proc/thread-self): when a request and a delivery want the same
 * core, the request gets it. Elsewhere the thread keeps its priority.
 */
function yieldToRequests(): void {
  try {
    const task = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    if (Number.isInteger(task) && task > 0) setPriority(task, 10);
  } catch {
    // No /proc (macOS, Windows), or not allowed: the same priority as the requests.
  }
}
