// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import type { Logger } from "../base/logger.js";

/**
 * WEB_CONCURRENCY=N runs N worker processes sharing the port (node:cluster); in production the
 * default is one per core. Workers keep no state of their own: records, revocations and login
 * counters all live in the database, so any worker (or instance) can answer any request.
 */
export function workerCount(environment: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(environment.WEB_CONCURRENCY);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return environment.NODE_ENV === "production" ? availableParallelism() : 1;
}

/*
 * A worker that dies is always replaced, after a delay that doubles with each worker in a row that
 * died before it listened (0.25 s, 0.5 s, … at most 8 s) and starts again from the first once one
 * listens. The service stops only when workers keep failing to start on their own: `maxFailedStarts`
 * in a row exited with an error code before listening (a bad port, a database gone). A worker
 * killed by a signal (kill -9, the OOM killer), even before it listened, is never such a failure.
 */
export const maxFailedStarts = 5;
const firstDelayMs = 250;
const longestDelayMs = 8_000;

/** The supervisor's memory of recent starts; both counts go back to 0 when a worker listens. */
export interface StartRecord {
  diedBeforeListening: number;
  failedStarts: number;
}

/** What follows a worker's death: stop the service, or start another after `delayMs`. */
export function afterWorkerExit(
  record: StartRecord,
  death: { served: boolean; signal: string | null },
): { record: StartRecord; stop: boolean; delayMs: number } {
  if (death.served) return { record, stop: false, delayMs: 0 };
  const next = {
    diedBeforeListening: record.diedBeforeListening + 1,
    failedStarts: record.failedStarts + (death.signal === null ? 1 : 0),
  };
  return {
    record: next,
    stop: next.failedStarts >= maxFailedStarts,
    delayMs: Math.min(firstDelayMs * 2 ** (next.diedBeforeListening - 1), longestDelayMs),
  };
}

/**
 * The primary process of a service of `count` workers: forks, replaces and stops them. Its lines
 * are JSON like the workers' (one log stream for a collector). On SIGTERM or SIGINT it passes the
 * signal on and exits once every worker has; a worker still running after `graceMs` is killed.
 */
export function supervise(count: number, logger: Logger, graceMs: number): void {
  let stopping = false;
  let record: StartRecord = { diedBeforeListening: 0, failedStarts: 0 };
  // Workers that have listened once: a later death is a crash to recover from, not a bad start.
  const listened = new Set<number>();
  const workers = () => Object.values(cluster.workers ?? {});
  survivesWorkerErrors(logger);
  for (let index = 0; index < count; index += 1) cluster.fork();
  cluster.on("listening", (worker) => {
    listened.add(worker.id);
    record = { diedBeforeListening: 0, failedStarts: 0 };
  });
  cluster.on("exit", (worker, code, signal) => {
    const served = listened.delete(worker.id);
    const pid = worker.process.pid;
    const cause = signal ?? `code ${code}`;
    if (stopping) {
      logger.info({ pid, cause }, "worker stopped");
      // A worker cut at its deadline (or killed) makes the whole stop a forced one.
      if (code !== 0) process.exitCode = 1;
      if (workers().length === 0) {
        logger.info({ exitCode: process.exitCode ?? 0 }, "stopped");
        process.exit(process.exitCode ?? 0);
      }
      return;
    }
    const next = afterWorkerExit(record, { served, signal });
    record = next.record;
    if (next.stop) {
      logger.error(
        { pid, cause, failedStarts: maxFailedStarts },
        `worker ${pid} exited (${cause}) before listening: ${maxFailedStarts} workers in a row failed to start, stopping (see their errors above)`,
      );
      stopping = true;
      process.exitCode = 1;
      for (const other of workers()) other?.process.kill("SIGTERM");
      if (workers().length === 0) process.exit(1);
      return;
    }
    logger.warn(
      { pid, cause, served, restartInMs: next.delayMs },
      `worker ${pid} exited (${cause})${served ? "" : " before listening"}, starting another${next.delayMs > 0 ? ` in ${next.delayMs / 1000} s` : ""}`,
    );
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, next.delayMs);
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stopWorkers(signal, logger, graceMs);
    });
  }
}

/**
 * A message to a worker that just died fails with an 'error' event on it (base/ipc.ts), which would
 * end the supervisor and every other worker: the death is handled on "exit", the error only logged.
 */
function survivesWorkerErrors(logger: Logger): void {
  cluster.on("fork", (worker) =>
    worker.on("error", (error: Error) =>
      logger.warn({ pid: worker.process.pid, err: error }, "worker: a message could not be sent"),
    ),
  );
}

/** Passes `signal` on to every worker; those still running after `graceMs` are killed. */
function stopWorkers(signal: NodeJS.Signals, logger: Logger, graceMs: number): void {
  const workers = () => Object.values(cluster.workers ?? {});
  logger.info({ signal, workers: workers().length, graceMs }, "shutting down");
  if (workers().length === 0) process.exit(0);
  for (const worker of workers()) worker?.process.kill(signal);
  // Workers stop waiting for their requests before this (service.ts workerDeadlineMs).
  setTimeout(() => {
    const left = workers();
    logger.warn({ workers: left.length, graceMs }, "shutdown grace over: killing the workers left");
    for (const worker of left) worker?.process.kill("SIGKILL");
    process.exit(1);
  }, graceMs).unref();
}
