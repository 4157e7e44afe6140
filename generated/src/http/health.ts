// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { isDraining } from "../base/draining.js";
import { pendingMigrations } from "../db/migrations.js";
import { migrationsAwaited, notReadyMessage } from "../base/service-gate.js";
import type { Sql } from "../db/sql.js";
import { sendData, sendError } from "./envelope.js";

/**
 * GET /api/health: 200 when the database answers and holds every migration this build ships, 503
 * otherwise (a load balancer then keeps traffic away until `npm run db:migrate` has run). What is
 * missing goes to the log, not to anonymous callers.
 */
export function health(db: Sql, migrationsDir: string) {
  return async (req: Request, res: Response): Promise<void> => {
    if (await databaseReady(db, migrationsDir, req)) sendData(res, { status: "ok" });
    else notReady(res);
  };
}

/**
 * GET /api/health/ready: what /api/health answers, and 503 as soon as the process drains for a
 * shutdown (an orchestrator stops sending new work before the process goes away). A database
 * behind this build is named: the migrations it lacks (their names are the project's, in
 * prisma/migrations), which a deploy waits for.
 */
export function readiness(db: Sql, migrationsDir: string) {
  return async (req: Request, res: Response): Promise<void> => {
    if (isDraining()) return notReady(res, "The service is shutting down.");
    const awaited = migrationsAwaited();
    const behind = awaited.length > 0 ? awaited : await databaseBehind(db, migrationsDir, req);
    if (behind === undefined) sendData(res, { status: "ready" });
    else if (behind.length === 0) notReady(res);
    else notReady(res, `The service is not ready: the database lacks ${behind.join(", ")}.`);
  };
}

/**
 * GET /api/health/live: 200 while the process answers requests at all, even while draining or with
 * the database away. A liveness probe that asked the database would restart every instance at once
 * during a database outage, which helps nothing.
 */
export function liveness(_req: Request, res: Response): void {
  sendData(res, { status: "live" });
}

async function databaseReady(db: Sql, migrationsDir: string, req: Request): Promise<boolean> {
  return (await databaseBehind(db, migrationsDir, req)) === undefined;
}

/** The migrations the database lacks; empty when it does not answer; undefined when it is ready. */
async function databaseBehind(
  db: Sql,
  migrationsDir: string,
  req: Request,
): Promise<string[] | undefined> {
  let behind: string[];
  try {
    behind = await pendingMigrations(db, migrationsDir);
  } catch (error) {
    req.log.error({ err: error }, "health: the database does not answer");
    return [];
  }
  if (behind.length === 0) return undefined;
  req.log.warn({ pending: behind }, "health: migrations pending");
  return behind;
}

/** 503 "not ready", and when to ask again: the schema is behind this build, or the database is away. */
export function notReady(res: Response, message = notReadyMessage): void {
  res.setHeader("Retry-After", "5");
  sendError(res, 503, message);
}
