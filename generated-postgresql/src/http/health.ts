// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { pendingMigrations } from "../lib/migrations.js";
import type { Sql } from "../lib/sql.js";
import { sendData, sendError } from "./envelope.js";

/**
 * GET /api/health: 200 when the database answers and holds every migration this build ships, 503
 * otherwise (a load balancer then keeps traffic away until `npm run db:migrate` has run). What is
 * missing goes to the log, not to anonymous callers.
 */
export function health(db: Sql, migrationsDir: string) {
  return async (req: Request, res: Response): Promise<void> => {
    let behind: string[];
    try {
      behind = await pendingMigrations(db, migrationsDir);
    } catch (error) {
      req.log.error({ err: error }, "health: the database does not answer");
      return notReady(res);
    }
    if (behind.length > 0) {
      req.log.warn({ pending: behind }, "health: migrations pending");
      return notReady(res);
    }
    sendData(res, { status: "ok" });
  };
}

/** 503 "not ready", and when to ask again: the schema is behind this build, or the database is away. */
export function notReady(res: Response): void {
  res.setHeader("Retry-After", "5");
  sendError(res, 503, "The service is not ready.");
}
