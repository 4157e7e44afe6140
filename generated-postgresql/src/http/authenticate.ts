// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { NextFunction, Request, Response } from "express";
import type { AuthService, CurrentUser } from "../auth/auth.service.js";
import { Unauthenticated } from "../lib/errors.js";
import { bearerToken, type TokenClaims } from "../lib/tokens.js";

declare module "express-serve-static-core" {
  interface Request {
    user?: CurrentUser;
    token?: TokenClaims;
  }
}

/** Requires a valid bearer token in the Authorization header (never the query string). */
export function requireAuth(auth: AuthService) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req.get("authorization"));
    if (!token) throw new Unauthenticated();
    const { user, claims } = await auth.authenticate(token);
    req.user = user;
    req.token = claims;
    next();
  };
}

/** For public actions: a presented token must still be valid, an absent one is fine. */
export function optionalAuth(auth: AuthService) {
  const required = requireAuth(auth);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.get("authorization") === undefined) return next();
    return required(req, res, next);
  };
}
