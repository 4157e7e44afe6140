// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { mailTransportProblem } from "./transport.js";

/** hashapi.yaml's `mail.transport`: an environment variable to read, or the literal transport. */
export type DeclaredTransport = { readonly env: string } | { readonly literal: string };

/**
 * The transport mail leaves by, read at start-up. Unset, development and tests log mail (`log:`,
 * links included: what a developer follows); production must name one, and refuses `log:`
 * unless MAIL_LOG_IN_PRODUCTION=true says that is meant (a service whose mails go to its log
 * sends no one their links).
 */
export function readMailTransport(
  declared: DeclaredTransport,
  environment: NodeJS.ProcessEnv,
  env: "production" | "development" | "test",
  problems: string[],
): string {
  const variable = "env" in declared ? declared.env : "mail.transport";
  const value = "env" in declared ? environment[declared.env] || undefined : declared.literal;
  if (value === undefined) {
    if (env === "production")
      problems.push(
        `${variable} must be set in production: where mail leaves, such as smtp://user:password@mail.example.com:587 (mail.transport in hashapi.yaml)`,
      );
    return "log:";
  }
  const problem = mailTransportProblem(value, variable);
  if (problem) {
    problems.push(problem);
    return "log:";
  }
  if (
    env === "production" &&
    value.startsWith("log:") &&
    environment.MAIL_LOG_IN_PRODUCTION !== "true"
  )
    problems.push(
      `${variable} is log: in production, where mails (and their links) would only reach the log: set an smtp:// URL, or MAIL_LOG_IN_PRODUCTION=true if that is meant`,
    );
  return value;
}
