// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { MailMessage } from "./message.js";

/**
 * Every mail is a job of hashapi's own, `hashapi:mail` (no job of hashapi.yaml can take the name:
 * theirs hold no colon); jobs/mail-job.ts sends it.
 */
export const mailJobName = "hashapi:mail";

/** A mail as its job carries it: one written by the project's code, or one of an account flow's. */
export type MailJob<Account extends { kind: string } = { kind: string }> =
  { kind: "message"; message: MailMessage } | Account;

/** What the project's code sends mail with (`ctx.mail`, `write.mail`). */
export interface MailSender<Result> {
  /** Sends `message` once what asked for it commits (from: hashapi.yaml's `mail.from` by default). */
  send(message: MailMessage): Result;
}

/**
 * `ctx.mail` over a context's own way to enqueue a job: it checks the message at once (a mistake
 * is the caller's error, not a job failing later) and says so when hashapi.yaml declares no mail.
 */
export function mailSender<Result>(
  jobNames: readonly string[],
  enqueue: (name: string, payload: MailJob) => Result,
): MailSender<Result> {
  return {
    send(message) {
      if (!jobNames.includes(mailJobName))
        throw new Error(
          "hashapi.yaml declares no `mail:`: declare it (its from and transport) to send mail",
        );
      for (const key of ["to", "subject", "text"] as const)
        if (typeof message?.[key] !== "string" || message[key] === "")
          throw new Error(`a mail needs a non-empty string \`${key}\``);
      const { to, from, replyTo, subject, text, html } = message;
      const plain = {
        to,
        subject,
        text,
        ...(from ? { from } : {}),
        ...(replyTo ? { replyTo } : {}),
      };
      return enqueue(mailJobName, {
        kind: "message",
        message: html === undefined ? plain : { ...plain, html: String(html) },
      });
    },
  };
}
