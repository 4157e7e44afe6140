// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService, CurrentUser } from "../auth/auth.service.js";
import { Forbidden, Unauthenticated } from "../base/errors.js";
import { bearerToken, type TokenClaims } from "../base/tokens.js";
import type { Action } from "./route-table.js";

declare module "express-serve-static-core" {
  interface Request {
    user?: CurrentUser;
    token?: TokenClaims;
  }
}

/**
 * Sets `req.user` and `req.token` from the bearer token of the Authorization header (never the
 * query string), then counts the request against the caller's limit (rateLimit). A request whose
 * token fails counts against its address first, so a flood of bad tokens meets a limit too.
 */
async function signIn(
  auth: AuthService,
  req: Request,
  enrolment = false,
): Promise<number | undefined> {
  const token = bearerToken(req.headers.authorization);
  let lastEvent: number | undefined;
  try {
    if (!token) throw new Unauthenticated();
    const signedIn = await auth.authenticate(token, auth.tenancy ? tenantHeader(req) : undefined);
    req.user = signedIn.user;
    req.token = signedIn.claims;
    lastEvent = signedIn.lastEvent;
  } catch (error) {
    if (error instanceof Unauthenticated && auth.requestLimits)
      await auth.requestLimits.caller(req);
    throw error;
  }
  // Without limits nothing is awaited: an await costs a turn of the queue even for nothing.
  if (auth.requestLimits) await auth.requestLimits.caller(req);
  // A role that must have a second factor reaches only the routes that set one up until it has.
  const user = req.user!;
  if (!enrolment && user.secondFactor === false && auth.secondFactor?.requires(user.role))
    throw new Forbidden("Set up two-factor authentication to continue.");
  return lastEvent;
}

/**
 * The tenant a request names (X-Tenant: a tenant's public id). One value only; a repeated or
 * overlong header names no tenant one could work in, and is refused as a foreign one.
 */
function tenantHeader(req: Request): string | undefined {
  const value = req.headers["x-tenant"];
  if (value === undefined) return undefined;
  return typeof value === "string" && value.length <= 40 ? value : "";
}

/** The action, for callers with a valid token of an existing user only (401 otherwise). */
export function requireAuth(
  auth: AuthService,
  action: Action,
  /** A route a user whose role requires a second factor may use before setting it up. */
  options: { enrolment?: boolean } = {},
): Action {
  return async (req: Request, res: Response) => {
    const lastEvent = await signIn(auth, req, options.enrolment);
    await perform(auth, req, res, action, lastEvent);
  };
}

/** For public actions: a presented token must still be valid, an absent one is fine. */
export function optionalAuth(auth: AuthService, action: Action): Action {
  const signedInOrCounted = async (req: Request, res: Response) => {
    let lastEvent: number | undefined;
    if (req.headers.authorization !== undefined) lastEvent = await signIn(auth, req);
    else await auth.requestLimits?.caller(req);
    await perform(auth, req, res, action, lastEvent);
  };
  // Without a token and without limits there is nothing to wait for before the action: no await
  // (each costs a turn of the queue), as for a public list that anyone may read.
  return (req, res) =>
    req.headers.authorization === undefined && !auth.requestLimits
      ? perform(auth, req, res, action, undefined)
      : signedInOrCounted(req, res);
}

/**
 * A GET's reads from a read replica that holds the caller's last write (DATABASE_REPLICA_URLS,
 * db/replicas.ts); everything else, and every request without replicas, on the primary.
 */
function perform(
  auth: AuthService,
  req: Request,
  res: Response,
  action: Action,
  lastEvent: number | undefined,
): void | Promise<void> {
  const replicas = auth.replicas;
  if (replicas && (req.method === "GET" || req.method === "HEAD"))
    return replicas.reading(lastEvent, async () => action(req, res));
  return action(req, res);
}
