// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService, CurrentUser } from "../auth/auth.service.js";
import { Unauthenticated } from "../lib/errors.js";
import { bearerToken, type TokenClaims } from "../lib/tokens.js";
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
async function signIn(auth: AuthService, req: Request): Promise<void> {
  const token = bearerToken(req.headers.authorization);
  try {
    if (!token) throw new Unauthenticated();
    const { user, claims } = await auth.authenticate(token);
    req.user = user;
    req.token = claims;
  } catch (error) {
    if (error instanceof Unauthenticated) await auth.requestLimits?.caller(req);
    throw error;
  }
  await auth.requestLimits?.caller(req);
}

/** The action, for callers with a valid token of an existing user only (401 otherwise). */
export function requireAuth(auth: AuthService, action: Action): Action {
  return async (req: Request, res: Response) => {
    await signIn(auth, req);
    await action(req, res);
  };
}

/** For public actions: a presented token must still be valid, an absent one is fine. */
export function optionalAuth(auth: AuthService, action: Action): Action {
  return async (req: Request, res: Response) => {
    if (req.headers.authorization !== undefined) await signIn(auth, req);
    else await auth.requestLimits?.caller(req);
    await action(req, res);
  };
}
