// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID } from "node:crypto";
import type { Express, Request, Response } from "express";
import type { Logger } from "../base/logger.js";
import { observeRequest } from "./metrics.js";

declare module "express-serve-static-core" {
  interface Request {
    id: string;
    /** This request's logger (every line carries `requestId`), made on first use. */
    readonly log: Logger;
  }
}

const acceptableId = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request of `app` a `req.log` bound to its request id. Most requests never log: the
 * child logger is made on first use, not for each request.
 */
export function provideRequestLog(app: Express, logger: Logger): void {
  const logs = new WeakMap<Request, Logger>();
  Object.defineProperty(app.request, "log", {
    configurable: true,
    get(this: Request): Logger {
      let log = logs.get(this);
      // The client's address as the throttle sees it: a trusted proxy's report (TRUST_PROXY), else the socket's.
      if (!log) logs.set(this, (log = logger.child({ requestId: this.id, client: this.ip })));
      return log;
    },
  });
}

// Kept on the request itself (a symbol no other code can name): cheaper to reach than a WeakMap.
const parsedQuery = Symbol("parsedQuery");
interface ParsedQuery {
  readonly url: string;
  readonly query: unknown;
}

/**
 * Express 5 parses the query string again on every read of `req.query` (a list request reads it
 * twice: its parameters, then its page links; custom code may read it more). Here each request
 * parses it once: the same object for as long as `req.url` stays the same.
 */
export function provideParsedQuery(app: Express): void {
  const parse = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(app.request), "query")?.get;
  if (parse === undefined) return;
  Object.defineProperty(app.request, "query", {
    configurable: true,
    enumerable: true,
    get(this: Request & { [parsedQuery]?: ParsedQuery }): unknown {
      const cached = this[parsedQuery];
      if (cached !== undefined && cached.url === this.url) return cached.query;
      const query: unknown = parse.call(this);
      this[parsedQuery] = { url: this.url, query };
      return query;
    },
  });
}

/**
 * A request id (the caller's X-Request-Id when sane) on every log line and response, and one
 * "request" line per response when the level is `info` or lower, with the signed-in user's public
 * id when there is one; with `measured`, the request's figures for /metrics (http/metrics.ts). Neither:
 * no timer at all.
 */
export function startRequest(logger: Logger, req: Request, res: Response, measured: boolean): void {
  const incoming = req.headers["x-request-id"];
  req.id = typeof incoming === "string" && acceptableId.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", req.id);
  const logged = logger.isLevelEnabled("info");
  if (!logged && !measured) return;
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (measured)
      observeRequest(req.routeTemplate ?? "unmatched", req.method, res.statusCode, seconds);
    if (!logged) return;
    req.log.info(
      {
        method: req.method,
        path: req.originalUrl.split("?")[0],
        status: res.statusCode,
        ms: Math.round(seconds * 10_000) / 10,
        // Who asked (a public id, never an email): a user's requests can be followed in the log.
        ...(req.user ? { user: req.user.hash } : {}),
      },
      "request",
    );
  });
}
