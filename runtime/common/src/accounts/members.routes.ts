// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AuthService } from "../auth/auth.service.js";
import { requireAuth } from "../http/authenticate.js";
import type { RouteTable } from "../http/route-table.js";
import { inTenant } from "../http/tenant-routes.js";
import type { InvitationsController } from "./invitations.controller.js";
import type { MembersController } from "./members.controller.js";

/**
 * With tenancy: `<base>/members` of the tenant a request names (X-Tenant) and, with mail, their
 * invitations; the caller's own tenants at `<base>/auth/tenants`.
 */
export function addMemberRoutes(
  routes: RouteTable,
  base: string,
  controllers: { members: MembersController; invitations?: InvitationsController },
  auth: AuthService,
): void {
  const tenant = (action: Parameters<typeof inTenant>[0]) => requireAuth(auth, inTenant(action));
  const { members: controller, invitations } = controllers;
  if (invitations) {
    routes.add(`${base}/members/invitations`, {
      get: tenant(invitations.list),
      post: tenant(invitations.create),
    });
    routes.add(`${base}/members/invitations/:hash`, { delete: tenant(invitations.revoke) });
  }
  routes.add(`${base}/members`, { get: tenant(controller.index), post: tenant(controller.store) });
  routes.add(`${base}/members/:user`, {
    patch: tenant(controller.update),
    delete: tenant(controller.destroy),
  });
  routes.add(`${base}/auth/tenants`, { get: requireAuth(auth, controller.tenants) });
}
