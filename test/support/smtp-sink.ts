import { SMTPServer } from "smtp-server";

/** A mail the sink received, its text part decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text/plain part, its transfer encoding undone. */
  text: string;
  html: string;
  raw: string;
  /** Whether the session was encrypted (STARTTLS) and authenticated when it was sent. */
  secure: boolean;
  user: string | undefined;
}

export interface SmtpSink {
  /** MAIL_URL for the service: STARTTLS required, the sink's own certificate accepted, with credentials. */
  url: string;
  mails: ReceivedMail[];
  /** Refuses the next `count` mails with a temporary error (451), as a busy server does. */
  failNext(count: number): void;
  /** The mails to `address` received so far, oldest first. */
  to(address: string): ReceivedMail[];
  /** Waits (at most `timeoutMs`) until `address` has received `count` mails; they are returned. */
  waitFor(address: string, count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package): STARTTLS with its own certificate and
 * AUTH PLAIN/LOGIN, so what the service sends crosses the protocol a mail provider speaks.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    logger: false,
    authMethods: ["PLAIN", "LOGIN"],
    // Credentials are refused on a plain connection: a client must upgrade first.
    allowInsecureAuth: false,
    onAuth(auth, _session, done) {
      if (auth.username === "mailer" && auth.password === "s3cret p@ss") return done(null, { user: auth.username });
      done(new Error("Invalid username or password"));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (failures > 0) {
          failures -= 1;
          return done(Object.assign(new Error("Busy: try again later"), { responseCode: 451 }));
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({ ...parseMail(raw), to: session.envelope.rcptTo.map((to) => to.address.toLowerCase()), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", secure: session.secure, user: session.user as string | undefined, raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const to = (address: string) => mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  return {
    url: `smtp://mailer:${encodeURIComponent("s3cret p@ss")}@127.0.0.1:${port}?requireTLS=true&tls.rejectUnauthorized=false`,
    mails,
    failNext: (count) => void (failures = count),
    to,
    async waitFor(address, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`${address} received ${to(address).length} mails, not ${count}, in ${timeoutMs} ms`);
        await new Promise((done) => setTimeout(done, 50));
      }
      return to(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The subject and the decoded text and HTML parts of a MIME message (what nodemailer writes). */
export function parseMail(raw: string): { subject: string; text: string; html: string } {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = decodeWords(/^Subject: (.*)$/im.exec(unfolded)?.[1] ?? "");
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(unfolded)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [`${head}\r\n\r\n${rest.join("\r\n\r\n")}`];
  const part = (type: string) => {
    const found = parts.find((candidate) => new RegExp(`Content-Type: ${type}`, "i").test(candidate));
    if (!found) return "";
    const split = found.search(/\r?\n\r?\n/);
    const headers = found.slice(0, split);
    const body = found.slice(split).trim();
    if (/Content-Transfer-Encoding: base64/i.test(headers)) return Buffer.from(body, "base64").toString("utf8");
    if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) return decodeQuotedPrintable(body);
    return body;
  };
  return { subject, text: part("text/plain"), html: part("text/html") };
}

function decodeQuotedPrintable(text: string): string {
  // Literal % first, so that only the encoded bytes read as escapes.
  const escaped = text.replace(/%/g, "%25").replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, "%$1");
  return decodeURIComponent(escaped);
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), as a long or non-ASCII subject is sent. */
function decodeWords(text: string): string {
  return text.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_, kind: string, value: string) =>
    kind.toUpperCase() === "B" ? Buffer.from(value, "base64").toString("utf8") : decodeQuotedPrintable(value.replace(/_/g, " ")),
  );
}
