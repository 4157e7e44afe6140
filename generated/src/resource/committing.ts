// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { EnqueueOptions, JobQueue } from "../jobs/jobs.js";
import { mailSender, type MailSender } from "../mail/mail-sender.js";
import type { Sql } from "../db/sql.js";
import { tenantOfRow, type StoredRow, type TableSpec } from "../data/table.js";
import type { WriteRules } from "./write-rules.js";

/** A write about to commit, as a controller's onWrite sees it. */
export interface CommittingWrite<Row> {
  readonly action: "create" | "update" | "delete" | "restore";
  /** The record as written (a delete's as it was read before the delete). */
  readonly record: Row;
  /** Puts a job on the queue with this write: it exists once the write commits, never if it rolls back. */
  readonly jobs: {
    enqueue(name: string, payload?: unknown, options?: EnqueueOptions): Promise<void>;
  };
  /** Mail sent once this write commits, never if it rolls back (hashapi.yaml's `mail:`). */
  readonly mail: MailSender<Promise<void>>;
  /** The write's transaction, for statements of your own that must commit with it. */
  readonly sql: Sql;
}

/**
 * The write rule that calls `onWrite` in a write's own transaction, after its record and events are
 * written (WriteRules.committing), with the project's jobs to enqueue in that transaction.
 */
export function committingRule<Row>(
  action: CommittingWrite<Row>["action"],
  jobs: JobQueue | undefined,
  onWrite: (write: CommittingWrite<Row>) => void | Promise<void>,
  /** The written record's table: with tenancy, its jobs run in the record's tenant. */
  spec?: TableSpec,
): Pick<WriteRules, "committing"> {
  return {
    committing: async (sql: Sql, record: StoredRow) => {
      const tenant = spec ? tenantOfRow(spec, record) : null;
      await onWrite({
        action,
        record: record as Row,
        sql,
        mail: mailSender(jobs?.jobNames ?? [], (name, payload) =>
          jobs!.enqueue(sql, name, payload, {}, tenant),
        ),
        jobs: {
          enqueue: (name, payload, options) => {
            if (jobs === undefined)
              throw new Error(`No job named "${name}": hashapi.yaml declares no jobs`);
            return jobs.enqueue(sql, name, payload, options, tenant);
          },
        },
      });
    },
  };
}
