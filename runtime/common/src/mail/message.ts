// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** A mail as a template writes it: a subject, a plain-text body and, if it likes, an HTML one. */
export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html?: SafeHtml | string;
}

/** A mail to send: who to, and what (`from` defaults to hashapi.yaml's `mail.from`). */
export interface MailMessage extends RenderedMail {
  readonly to: string;
  readonly from?: string;
  readonly replyTo?: string;
}

/** HTML whose interpolated values were escaped: what `html` below returns. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => escapes[character]!);
}

/**
 * HTML with every `${value}` escaped (a user's name cannot add markup to a mail); a value that is
 * itself `html` is kept as is, and an array's items are joined.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  const part = (value: unknown): string =>
    value instanceof SafeHtml
      ? value.text
      : Array.isArray(value)
        ? value.map(part).join("")
        : value === null || value === undefined
          ? ""
          : escapeHtml(value);
  return new SafeHtml(strings.reduce((text, chunk, i) => text + part(values[i - 1]) + chunk));
}
