// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { NextFunction, Request, Response } from "express";
import {
  Conflict,
  Forbidden,
  BadRequest,
  PayloadTooLarge,
  NotFound,
  ServiceBusy,
  TooManyAttempts,
  TooManyRequests,
  Unauthenticated,
  ValidationFailed,
} from "../base/errors.js";
import { isDatabaseAway, isSchemaBehind, isStatementTimeout } from "../db/database-errors.js";
import { sendError } from "./envelope.js";
import { notReady } from "./health.js";
import { propertyOf } from "../base/records.js";

/**
 * The one place where domain errors become HTTP responses. Anything unexpected is logged with the
 * request id and answered with a bare 500: no stack, no SQL, no internal ids in the body.
 */
export function errorHandler(
  error: unknown,
  req: Request,
  res: Response,
  _next: NextFunction,
): void {
  if (res.headersSent) {
    req.log.error({ err: error }, "error after the response started");
    res.end();
    return;
  }
  if (answeredAsDomainError(error, res) || answeredAsDatabaseError(error, req, res)) return;
  // The framework's own client errors (a path segment whose percent-encoding does not decode, …)
  // carry a 4xx status: they are the client's mistake, answered as such.
  const status = propertyOf(error, "status");
  if (typeof status === "number" && status >= 400 && status < 500)
    return sendError(res, 400, "Bad request.");
  req.log.error({ err: error }, "unexpected error");
  sendError(res, 500, "Server Error");
}

/** The runtime's own errors (lib/errors.ts), each with its status; false for any other error. */
function answeredAsDomainError(error: unknown, res: Response): boolean {
  if (error instanceof ValidationFailed)
    sendError(res, 422, "The given data was invalid.", error.errors);
  else if (error instanceof NotFound) sendError(res, 404, error.message);
  else if (error instanceof Unauthenticated) {
    res.setHeader("WWW-Authenticate", "Bearer");
    sendError(res, 401, "Unauthenticated.");
  } else if (error instanceof Forbidden) sendError(res, 403, error.message);
  else if (error instanceof Conflict) sendError(res, 409, error.message);
  else if (error instanceof BadRequest) sendError(res, 400, error.message);
  else if (error instanceof PayloadTooLarge) sendError(res, 413, error.message);
  else if (error instanceof ServiceBusy) {
    res.setHeader("Retry-After", String(error.retryAfterSeconds));
    sendError(res, 503, error.message);
  } else if (error instanceof TooManyRequests) {
    res.setHeader("Retry-After", String(error.retryAfterSeconds));
    sendError(res, 429, error.message);
  } else if (error instanceof TooManyAttempts) {
    res.setHeader("Retry-After", String(error.retryAfterSeconds));
    sendError(res, 429, "Too many attempts.");
  } else return false;
  return true;
}

/** A statement stopped at its time limit, a database away or behind this build: 503s; false otherwise. */
function answeredAsDatabaseError(error: unknown, req: Request, res: Response): boolean {
  // A statement ran past DATABASE_STATEMENT_TIMEOUT_MS and was stopped: the service refuses work
  // beyond its bound as it refuses a full hashing queue, and the client may narrow the query.
  if (isStatementTimeout(error)) {
    req.log.warn({ err: error }, "a statement ran past DATABASE_STATEMENT_TIMEOUT_MS");
    res.setHeader("Retry-After", "1");
    sendError(
      res,
      503,
      "The request took too long and was stopped: narrow it (more filters, longer words) or try again later.",
    );
  } else if (isDatabaseAway(error)) {
    // The database (or the pooler in front of it) is away: not ready, and the client may come back.
    req.log.error({ err: error }, "the database does not answer");
    notReady(res);
  } else if (isSchemaBehind(error)) {
    // The database lacks a table or column this build reads: not ready (503, as /api/health says), not broken.
    req.log.error({ err: error }, "the database is behind this build: run `npm run db:migrate`");
    notReady(res);
  } else return false;
  return true;
}
