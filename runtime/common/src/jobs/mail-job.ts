// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Sql } from "../db/sql.js";
import type { MailMessage } from "../mail/message.js";
import { mailJobName, type MailJob } from "../mail/mail-sender.js";
import type { MailTransport } from "../mail/transport.js";
import type { JobHandler, JobSettings } from "./jobs.js";
import { insertJob } from "./queue.js";

export { mailJobName };

/*
 * Every mail is a job of hashapi's own, `hashapi:mail` (no job of hashapi.yaml can take the name:
 * theirs hold no colon), enqueued in the transaction of the write that causes it: a write that
 * rolls back sends nothing, one that commits is sent after, by whichever process claims the job,
 * and retried on a transport's error (5 s, 30 s, 2 min, … as every job) until its attempts are spent.
 */

export const mailJobSettings: JobSettings = { attempts: 8, timeoutMs: 60_000, concurrency: 4 };

/** Enqueues a mail in the transaction `sql` belongs to. */
export function enqueueMail<Job extends { kind: string }>(
  sql: Sql,
  job: MailJob<Job>,
): Promise<void> {
  return insertJob(sql, mailJobName, job);
}

/** What sends mail: the transport, the default sender, and what composes the account flows' mails. */
export interface MailSending<Account extends { kind: string }> {
  readonly transport: MailTransport;
  readonly from: string;
  /** The mail an account job stands for; undefined: nothing to send. */
  compose(job: Account): Promise<MailMessage | undefined>;
}

/** The job that sends every mail. */
export function mailJobHandler<Account extends { kind: string }>(
  sending: MailSending<Account>,
): JobHandler {
  return async (payload, ctx) => {
    const job = payload as MailJob<Account> | null;
    if (job === null) return; // done before, its payload cleared (jobs/queue.ts settleJob)
    const mail =
      job.kind === "message"
        ? (job as { message: MailMessage }).message
        : await sending.compose(job as Account);
    if (!mail) return;
    const html = mail.html === undefined ? undefined : String(mail.html);
    await sending.transport.send(
      {
        from: mail.from ?? sending.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(html === undefined ? {} : { html }),
        ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
      },
      ctx.log,
      ctx.signal,
    );
  };
}
