// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { pino, type Logger } from "pino";

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    // Never log credentials, even by accident.
    redact: {
      paths: ["req.headers.authorization", "password", "*.password"],
      censor: "[redacted]",
    },
  });
}
