// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { requireAuth } from "../http/authenticate.js";
import type { RouteTable } from "../http/route-table.js";
import type { AuthController } from "./auth.controller.js";
import type { AuthService } from "../auth/auth.service.js";

/** Login, the current user, refresh and logout, under `base` (/api/auth). */
export function addAuthRoutes(
  routes: RouteTable,
  base: string,
  controller: AuthController,
  auth: AuthService,
): void {
  routes.add(`${base}/login`, { post: controller.login });
  routes.add(`${base}/me`, { get: requireAuth(auth, controller.me) });
  routes.add(`${base}/refresh`, { post: controller.refresh });
  routes.add(`${base}/logout`, { post: requireAuth(auth, controller.logout) });
}
