// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Router } from "express";
import { requireAuth } from "../http/authenticate.js";
import { route } from "../http/routing.js";
import type { AuthController } from "./auth.controller.js";
import type { AuthService } from "./auth.service.js";

/** Mounted at /api/auth. */
export function authRoutes(controller: AuthController, auth: AuthService): Router {
  const router = Router();
  const authenticated = requireAuth(auth);
  route(router, "/login", { post: [controller.login] });
  route(router, "/me", { get: [authenticated, controller.me] });
  route(router, "/refresh", { post: [controller.refresh] });
  route(router, "/logout", { post: [authenticated, controller.logout] });
  return router;
}
