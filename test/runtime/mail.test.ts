import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tokenLink } from "../../runtime/common/src/accounts/account-mails.js";
import { createLogger } from "../../runtime/common/src/base/logger.js";
import { html } from "../../runtime/common/src/mail/message.js";
import { readMailTransport } from "../../runtime/common/src/mail/mail-settings.js";
import { mailSender } from "../../runtime/common/src/mail/mail-sender.js";
import { mailTransportProblem, openMailTransport } from "../../runtime/common/src/mail/transport.js";
import { parseMail } from "../support/smtp-sink.js";

describe("mail transports (hashapi.yaml mail.transport)", () => {
  it("reads smtp, smtps, log: and file: and names what is wrong with anything else, never a password", () => {
    for (const good of ["smtp://u:p@mail.example.com:587", "smtps://mail.example.com:465", "log:", "file:data/mail"])
      expect(mailTransportProblem(good, "MAIL_URL"), good).toBeUndefined();
    const bad = mailTransportProblem("sendmail://user:hunter2@host", "MAIL_URL")!;
    expect(bad).toContain("MAIL_URL must be an smtp://");
    expect(bad).not.toContain("hunter2");
    expect(mailTransportProblem("file:", "MAIL_URL")).toContain("names no folder");
    expect(mailTransportProblem("smtp://", "MAIL_URL")).toContain("is not a valid URL");
  });

  it("logs in development, and refuses in production a missing transport or log: unless told", () => {
    const read = (environment: NodeJS.ProcessEnv, env: "production" | "development") => {
      const problems: string[] = [];
      return { value: readMailTransport({ env: "MAIL_URL" }, environment, env, problems), problems };
    };
    expect(read({}, "development")).toEqual({ value: "log:", problems: [] });
    expect(read({}, "production").problems[0]).toContain("MAIL_URL must be set in production");
    expect(read({ MAIL_URL: "log:" }, "production").problems[0]).toContain("MAIL_LOG_IN_PRODUCTION=true");
    expect(read({ MAIL_URL: "log:", MAIL_LOG_IN_PRODUCTION: "true" }, "production")).toEqual({ value: "log:", problems: [] });
    expect(read({ MAIL_URL: "smtp://mail.example.com" }, "production").problems).toEqual([]);
  });

  it("writes one .eml per mail with file:, which any mail reader opens", async () => {
    const folder = await mkdtemp(join(tmpdir(), "hashapi-mail-"));
    try {
      const transport = openMailTransport(`file:${folder}`, "/");
      const mail = { from: "App <no-reply@example.com>", to: "ana@example.com", subject: "Olá, Ana", text: "Línea 1\n.\nhttps://example.com/x?token=abc", html: "<p>x</p>" };
      await transport.send(mail, createLogger("silent"), new AbortController().signal);
      const [file] = await readdir(folder);
      const parsed = parseMail(await readFile(join(folder, file!), "utf8"));
      expect(parsed.subject).toBe("Olá, Ana");
      expect(parsed.text).toContain("https://example.com/x?token=abc");
      expect(parsed.text).toContain("Línea 1");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe("what a mail says", () => {
  it("escapes every value put into html, and keeps html put into html", () => {
    const name = `<script>alert("x")</script> & 'friends'`;
    expect(String(html`<p>${name}</p>${html`<b>${"ok"}</b>`}`)).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;</p><b>ok</b>");
  });

  it("joins a link's page to APP_URL, or keeps a whole URL, adding the token", () => {
    expect(tokenLink("https://api.example.com", "/reset", "T")).toBe("https://api.example.com/reset?token=T");
    expect(tokenLink("https://api.example.com/v1", "reset", "T")).toBe("https://api.example.com/v1/reset?token=T");
    expect(tokenLink("https://api.example.com", "https://app.example.com/r?from=mail", "T")).toBe("https://app.example.com/r?from=mail&token=T");
  });

  it("checks a message at once, and says when hashapi.yaml declares no mail", () => {
    const sent: unknown[] = [];
    const sender = mailSender(["hashapi:mail"], (name, payload) => void sent.push({ name, payload }));
    sender.send({ to: "ana@example.com", subject: "Hi", text: "Hello", html: html`<p>${"<b>"}</p>` });
    expect(sent).toEqual([{ name: "hashapi:mail", payload: { kind: "message", message: { to: "ana@example.com", subject: "Hi", text: "Hello", html: "<p>&lt;b&gt;</p>" } } }]);
    expect(() => sender.send({ to: "", subject: "Hi", text: "x" })).toThrow("a mail needs a non-empty string `to`");
    expect(() => mailSender([], () => undefined).send({ to: "a@b.c", subject: "s", text: "t" })).toThrow("declares no `mail:`");
  });
});
