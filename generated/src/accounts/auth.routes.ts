// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { requireAuth } from "../http/authenticate.js";
import type { RouteTable } from "../http/route-table.js";
import type { AccountsController } from "./accounts.controller.js";
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

/**
 * The account flows under `base` (/api/auth): sign-up (with `auth.signup`) and its confirmation,
 * and the password reset. Each answers without a session.
 */
export function addAccountRoutes(
  routes: RouteTable,
  base: string,
  controller: AccountsController,
): void {
  if (controller.signsUp) {
    routes.add(`${base}/register`, { post: controller.register });
    if (controller.confirmsSignups) {
      routes.add(`${base}/verify-email`, { post: controller.verify });
      routes.add(`${base}/verify-email/resend`, { post: controller.resend });
    }
  }
  routes.add(`${base}/forgot-password`, { post: controller.forgot });
  routes.add(`${base}/reset-password`, { post: controller.reset });
}
