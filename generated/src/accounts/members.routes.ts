// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AuthService } from "../auth/auth.service.js";
import { requireAuth } from "../http/authenticate.js";
import type { RouteTable } from "../http/route-table.js";
import { inTenant } from "../http/tenant-routes.js";
import type { MembersController } from "./members.controller.js";

/**
 * With tenancy: `<base>/members` of the tenant a request names (X-Tenant), and the caller's own
 * tenants at `<base>/auth/tenants`.
 */
export function addMemberRoutes(
  routes: RouteTable,
  base: string,
  controller: MembersController,
  auth: AuthService,
): void {
  const tenant = (action: Parameters<typeof inTenant>[0]) => requireAuth(auth, inTenant(action));
  routes.add(`${base}/members`, { get: tenant(controller.index), post: tenant(controller.store) });
  routes.add(`${base}/members/:user`, {
    patch: tenant(controller.update),
    delete: tenant(controller.destroy),
  });
  routes.add(`${base}/auth/tenants`, { get: requireAuth(auth, controller.tenants) });
}
