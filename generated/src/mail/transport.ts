// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "../base/logger.js";

/*
 * Where mail goes (hashapi.yaml `mail.transport`, usually `${MAIL_URL}`):
 * - `smtp://user:pass@host:587` (STARTTLS when the server offers it; `?requireTLS=true` refuses a
 *   server that does not) or `smtps://…:465` (TLS from the first byte), through nodemailer;
 * - `log:` the mail in the service's log, links included (development and tests);
 * - `file:<folder>` one .eml file per mail in that folder (relative to the project).
 */

/** A mail ready to leave: every field set. */
export interface OutgoingMail {
  readonly from: string;
  readonly to: string;
  readonly replyTo?: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

export interface MailTransport {
  /** What kind it is, for start-up's log line: never its password. */
  readonly kind: "smtp" | "log" | "file";
  send(mail: OutgoingMail, log: Logger, signal: AbortSignal): Promise<void>;
}

const schemes = ["smtp:", "smtps:", "log:", "file:"];

/** What is wrong with a transport's text, for a start-up message; undefined when it is usable. */
export function mailTransportProblem(value: string, variable: string): string | undefined {
  const scheme = /^[a-z]+:/.exec(value)?.[0];
  if (!scheme || !schemes.includes(scheme))
    return `${variable} must be an smtp://, smtps://, log: or file: URL, such as "smtp://user:password@mail.example.com:587"; got "${value.replace(/\/\/[^@/]*@/, "//…@")}"`;
  if (scheme === "file:" && value.length === "file:".length)
    return `${variable} names no folder: write it as file:<folder>, such as file:data/mail`;
  if (scheme === "smtp:" || scheme === "smtps:") {
    try {
      if (!new URL(value).hostname) throw new Error("no host");
    } catch {
      return `${variable} is not a valid URL: write it as smtp://user:password@host:587 (characters such as @ or / in the password percent-encoded)`;
    }
  }
  return undefined;
}

/** The transport `value` names (checked first by mailTransportProblem); `root` resolves file: folders. */
export function openMailTransport(value: string, root: string): MailTransport {
  if (value.startsWith("log:")) return { kind: "log", send: logged };
  if (value.startsWith("file:")) return fileTransport(resolve(root, value.slice("file:".length)));
  const smtp = nodemailer.createTransport(value);
  return {
    kind: "smtp",
    async send(mail) {
      await smtp.sendMail(mail);
    },
  };
}

async function logged(mail: OutgoingMail, log: Logger): Promise<void> {
  log.info(
    { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
    "mail (log: transport)",
  );
}

function fileTransport(folder: string): MailTransport {
  const build = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
  });
  return {
    kind: "file",
    async send(mail) {
      const built = (await build.sendMail(mail)) as { message: Buffer };
      await mkdir(folder, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`;
      await writeFile(join(folder, name), built.message);
    },
  };
}
