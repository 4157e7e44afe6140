// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Logger } from "../base/logger.js";
import type { Sql } from "../db/sql.js";
import type { MailSender } from "../mail/mail-sender.js";
import { insertJob, type EnqueueOptions } from "./queue.js";

/*
 * What a project declares and writes for its jobs: hashapi.yaml's `jobs:` (their settings, in the
 * generated src/jobs.ts) and `schedules:`, and src/custom/jobs/<name>.ts (yours), a job's code each.
 */

export type { EnqueueOptions };

/** What a job may use besides its payload. */
export interface JobContext {
  /**
   * A record, by its public id (any resource's, or a user's `USR_…`), as the service itself reads
   * it: every field it outputs (a user's e-mail included, never a password); null when there is none.
   * A job of a tenant (one a tenant's write or event enqueued) reads that tenant's records only.
   */
  read(hash: string): Promise<Readonly<Record<string, unknown>> | null>;
  /** More jobs, put on the queue once this one succeeded (a run that throws enqueues nothing). */
  readonly jobs: { enqueue(name: string, payload?: unknown, options?: EnqueueOptions): void };
  /** Mail, sent once this run succeeded (hashapi.yaml's `mail:`; lib/mail.ts). */
  readonly mail: MailSender<void>;
  /** The service's logger, its lines marked with the job's id and name. */
  readonly log: Logger;
  /** Aborted when the run is over its time or the worker lost the job: pass it to what you wait on. */
  readonly signal: AbortSignal;
  readonly job: {
    readonly id: string;
    readonly name: string;
    /** 1 for the first run, 2 for the first retry, … */
    readonly attempt: number;
    readonly enqueuedAt: Date;
  };
}

/** A job's code: what it throws (or running over its time) fails the run, which is retried. */
export type JobHandler = (payload: unknown, context: JobContext) => void | Promise<void>;

/** One handler per job hashapi.yaml declares, each from its src/custom/jobs/<name>.ts. */
export type JobHandlers<Name extends string = string> = Readonly<Record<Name, JobHandler>>;

/** A job of hashapi.yaml as the worker runs it. */
export interface JobSettings {
  /** Runs before it fails for good (the first included). */
  readonly attempts: number;
  readonly timeoutMs: number;
  /** Runs of this job at once, per process. */
  readonly concurrency: number;
}

/** A schedule of hashapi.yaml: `job` enqueued once per tick of `cron`, across every instance. */
export interface Schedule {
  readonly name: string;
  readonly cron: string;
  readonly timezone: string;
  readonly job: string;
  readonly payload?: unknown;
}

/** The project's jobs: their settings and code, checked together once at start-up. */
export class JobQueue {
  private readonly names: ReadonlySet<string>;

  constructor(
    readonly settings: Readonly<Record<string, JobSettings>>,
    readonly handlers: Readonly<Record<string, JobHandler>>,
    readonly schedules: readonly Schedule[] = [],
  ) {
    this.names = new Set(Object.keys(settings));
    for (const name of this.names)
      if (typeof handlers[name] !== "function")
        throw new Error(
          `src/custom/jobs/${name}.ts exports no function \`job\` for the job "${name}" that hashapi.yaml declares: export one`,
        );
    for (const name of Object.keys(handlers))
      if (!this.names.has(name))
        throw new Error(
          `a handler for "${name}", which hashapi.yaml's jobs do not declare: declare it there, or remove it`,
        );
  }

  /**
   * This queue with a job of hashapi's own (the mail's, jobs/mail-job.ts): its name holds a colon,
   * which no job of hashapi.yaml can.
   */
  including(
    name: string,
    settings: JobSettings,
    handler: JobHandler,
    schedule?: Schedule,
  ): JobQueue {
    return new JobQueue(
      { ...this.settings, [name]: settings },
      { ...this.handlers, [name]: handler },
      schedule ? [...this.schedules, schedule] : this.schedules,
    );
  }

  /** Every job name, for the worker's claims. */
  get jobNames(): readonly string[] {
    return [...this.names];
  }

  /**
   * Puts a job on the queue in the transaction `sql` belongs to: it exists once that transaction
   * commits, and never if it rolls back. A name hashapi.yaml does not declare is a programming
   * error: it throws.
   */
  enqueue(
    sql: Sql,
    name: string,
    payload?: unknown,
    options?: EnqueueOptions,
    /** With tenancy: the id of the tenant the job runs in (the write's or event's that asked). */
    tenant: number | null = null,
  ): Promise<void> {
    if (!this.names.has(name))
      throw new Error(
        `No job named "${name}" in hashapi.yaml's jobs (${[...this.names].join(", ") || "none declared"})`,
      );
    return insertJob(sql, name, payload ?? null, options, tenant);
  }
}

// Retries after the base (5 s by default), then 6, 24, 120, 360 and 720 times it: 5 s, 30 s,
// 2 min, 10 min, 30 min, then hourly, until the job's attempts are spent.
const retrySteps = [1, 6, 24, 120, 360, 720];

/** When a job whose `attempt`-th run failed runs again; null once its attempts are spent. */
export function jobRetryAt(
  attempt: number,
  attempts: number,
  baseMs: number,
  now = new Date(),
): Date | null {
  if (attempt >= attempts) return null;
  return new Date(
    now.getTime() + baseMs * retrySteps[Math.min(attempt - 1, retrySteps.length - 1)]!,
  );
}
