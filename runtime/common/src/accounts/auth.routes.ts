// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { requireAuth } from "../http/authenticate.js";
import type { RouteTable } from "../http/route-table.js";
import type { AccountsController } from "./accounts.controller.js";
import type { AuthController } from "./auth.controller.js";
import type { AcceptanceController, InvitationsController } from "./invitations.controller.js";
import type { SecondFactorController } from "./second-factor.controller.js";
import type { AuthService } from "../auth/auth.service.js";

/** Login, the current user, refresh and logout, under `base` (/api/auth). */
export function addAuthRoutes(
  routes: RouteTable,
  base: string,
  controller: AuthController,
  auth: AuthService,
): void {
  routes.add(`${base}/login`, { post: controller.login });
  const enrolment = { enrolment: true };
  routes.add(`${base}/me`, { get: requireAuth(auth, controller.me, enrolment) });
  routes.add(`${base}/refresh`, { post: controller.refresh });
  routes.add(`${base}/logout`, { post: requireAuth(auth, controller.logout, enrolment) });
  routes.add(`${base}/sessions`, { get: requireAuth(auth, controller.sessions, enrolment) });
  routes.add(`${base}/sessions/:hash`, {
    delete: requireAuth(auth, controller.endSession, enrolment),
  });
}

/**
 * The account flows under `base` (/api/auth): sign-up (with `auth.signup`) and its confirmation,
 * and the password reset. Each answers without a session.
 */
export function addAccountRoutes(
  routes: RouteTable,
  base: string,
  controller: AccountsController,
  auth: AuthService,
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
  routes.add(`${base}/email`, { post: requireAuth(auth, controller.changeEmail) });
  routes.add(`${base}/email/confirm`, { post: controller.confirmEmail });
}

/** The second factor's routes (hashapi.yaml `auth.mfa`) under `base` (/api/auth). */
export function addSecondFactorRoutes(
  routes: RouteTable,
  base: string,
  controller: SecondFactorController,
  auth: AuthService,
): void {
  const enrolment = { enrolment: true };
  routes.add(`${base}/mfa/setup`, { post: requireAuth(auth, controller.setup, enrolment) });
  routes.add(`${base}/mfa/confirm`, { post: requireAuth(auth, controller.confirm, enrolment) });
  routes.add(`${base}/mfa/disable`, { post: requireAuth(auth, controller.disable) });
  routes.add(`${base}/mfa/verify`, { post: controller.verify });
}

/**
 * Invitations under `base` (/api/auth): the platform's own (hashapi.yaml `auth.invitations`), and
 * the routes of their links — a new account, or with tenancy an account that joins a tenant.
 */
export function addInvitationRoutes(
  routes: RouteTable,
  base: string,
  controllers: {
    platform?: InvitationsController;
    acceptance: AcceptanceController;
    joins: boolean;
  },
  auth: AuthService,
): void {
  const { platform, acceptance } = controllers;
  routes.add(`${base}/invitations/accept`, { post: acceptance.accept });
  if (controllers.joins)
    routes.add(`${base}/invitations/join`, { post: requireAuth(auth, acceptance.join) });
  if (!platform) return;
  routes.add(`${base}/invitations`, {
    get: requireAuth(auth, platform.list),
    post: requireAuth(auth, platform.create),
  });
  routes.add(`${base}/invitations/:hash`, { delete: requireAuth(auth, platform.revoke) });
}
