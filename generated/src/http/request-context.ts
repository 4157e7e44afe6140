// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../lib/logger.js";

declare module "express-serve-static-core" {
  interface Request {
    id: string;
    log: Logger;
  }
}

const acceptableId = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A request id (the caller's X-Request-Id when sane) on every log line and response, and one
 * "request" line per response when the level is `info` or lower (no timer otherwise).
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers["x-request-id"];
    req.id = typeof incoming === "string" && acceptableId.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ requestId: req.id });
    res.setHeader("X-Request-Id", req.id);
    if (!logger.isLevelEnabled("info")) return next();
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info(
        {
          method: req.method,
          path: req.originalUrl.split("?")[0],
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        "request",
      );
    });
    next();
  };
}
