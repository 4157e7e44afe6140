// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Logger } from "../base/logger.js";
import { runToEnd } from "../base/run-to-end.js";
import type { Sql } from "../db/sql.js";
import { countWork } from "../base/work-counts.js";
import { WorkPump } from "../base/work-pump.js";
import { jobRetryAt, type JobContext, type JobQueue } from "./jobs.js";
import {
  claimJobs,
  jobsEnqueued,
  pruneJobs,
  renewJob,
  settleJob,
  type ClaimedJob,
  type EnqueueOptions,
} from "./queue.js";
import { startSchedules } from "./schedules.js";
import { mailSender } from "../mail/mail-sender.js";

/*
 * The job worker, one in every process of the service beside the event dispatcher: each job name
 * has its own concurrency (a slow job holds only its own), a run renews its lease while it goes on
 * (a third of it left), and its outcome is settled under that lease: done, retried after a delay,
 * or failed once its attempts are spent. Schedules enqueue their ticks from here too.
 */

export interface JobWorkerOptions {
  readonly sql: Sql;
  readonly queue: JobQueue;
  readonly logger: Logger;
  /** A record as the service itself reads it (jobs' `read`), within `tenant` when it is one's. */
  read(hash: string, tenant: number | null): Promise<Readonly<Record<string, unknown>> | null>;
  /** The first retry's delay (later ones grow from it): WEBHOOK_RETRY_BASE_MS. */
  readonly retryBaseMs: number;
  /** How long finished jobs (done, failed) are kept: EVENTS_RETAIN_DAYS. */
  readonly retainDays: number;
  readonly pollMs?: number;
}

export interface JobWorker {
  /** Stops claiming and ticking, and waits for the runs under way. */
  stop(): Promise<void>;
}

// A lease outlives the run's time, so only a worker that died lets another run a job again.
const leaseMargin = 10_000;

export function startJobWorker(options: JobWorkerOptions): JobWorker {
  const { sql, queue, logger } = options;
  const stopping = new AbortController();
  const leaseOf = (name: string) => (queue.settings[name]?.timeoutMs ?? 60_000) + leaseMargin;
  const pumps = queue.jobNames.map(
    (name) =>
      new WorkPump<ClaimedJob>({
        name: `job ${name}`,
        concurrency: queue.settings[name]!.concurrency,
        claim: (room) => claimJobs(sql, [name], room, leaseOf),
        work: (job) => runJob(options, job, leaseOf(job.name), stopping.signal),
        logger,
      }),
  );
  const pumpAll = () => {
    for (const pump of pumps) pump.pump();
  };
  const timer = setInterval(pumpAll, options.pollMs ?? 1_000);
  timer.unref();
  const unsubscribe = jobsEnqueued.subscribe(pumpAll);
  const schedules = startSchedules(sql, queue, logger);
  const pruning = keepJobsPruned(options);
  return {
    async stop() {
      stopping.abort();
      clearInterval(timer);
      unsubscribe();
      schedules.stop();
      clearInterval(pruning);
      await Promise.all(pumps.map((pump) => pump.stop()));
    },
  };
}

interface RequestedJob {
  readonly name: string;
  readonly payload: unknown;
  readonly options: EnqueueOptions;
}

/** One run of a job under its lease, renewed while it goes on; then its outcome, with the jobs it asked for. */
async function runJob(
  options: JobWorkerOptions,
  job: ClaimedJob,
  leaseMs: number,
  stopping: AbortSignal,
): Promise<void> {
  const { sql, queue, logger } = options;
  const settings = queue.settings[job.name]!;
  const lost = new AbortController();
  const renewal = setInterval(() => {
    renewJob(sql, job, leaseMs).then(
      (held) => {
        if (!held) lost.abort();
      },
      () => undefined,
    );
  }, leaseMs / 3);
  renewal.unref();
  const requested: RequestedJob[] = [];
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const context: JobContext = {
    read: (hash) => options.read(hash, job.tenant),
    jobs: {
      enqueue: (name, payload = null, enqueueOptions = {}) =>
        void requested.push({ name, payload, options: enqueueOptions }),
    },
    mail: mailSender(
      queue.jobNames,
      (name, payload) => void requested.push({ name, payload, options: {} }),
    ),
    log: logger.child({ job: job.hash, name: job.name, attempt: job.attempt }),
    signal: AbortSignal.any([timeout, lost.signal, stopping]),
    job: { id: job.hash, name: job.name, attempt: job.attempt, enqueuedAt: job.createdAt },
  };
  let error: string | null;
  try {
    error = await runToEnd(
      () => queue.handlers[job.name]!(job.payload, context),
      timeout,
      `the job took more than ${settings.timeoutMs} ms`,
    );
  } finally {
    clearInterval(renewal);
  }
  if (lost.signal.aborted) return;
  const retryAt =
    error === null ? null : jobRetryAt(job.attempt, settings.attempts, options.retryBaseMs);
  if (error !== null)
    logger.warn(
      { job: job.hash, name: job.name, attempt: job.attempt, error, retry: retryAt !== null },
      retryAt === null ? "a job failed for good" : "a job failed; it will be retried",
    );
  await sql.transaction(async (tx) => {
    if (!(await settleJob(tx, job, { error, retryAt }))) return;
    // What a tenant's job asks for runs in that tenant too.
    for (const next of requested)
      await queue.enqueue(tx, next.name, next.payload, next.options, job.tenant);
  });
  countWork("job", job.name, error === null ? "done" : retryAt === null ? "failed" : "retried");
}

/** Hourly, jobs that finished more than `retainDays` ago are deleted, 500 at a time. */
function keepJobsPruned(options: JobWorkerOptions): NodeJS.Timeout {
  const prune = async () => {
    const before = new Date(Date.now() - options.retainDays * 86_400_000);
    while ((await pruneJobs(options.sql, before, 500)) === 500);
  };
  const timer = setInterval(() => {
    prune().catch((error: unknown) =>
      options.logger.warn({ err: error }, "deleting finished jobs failed; retried in an hour"),
    );
  }, 3_600_000);
  timer.unref();
  return timer;
}
