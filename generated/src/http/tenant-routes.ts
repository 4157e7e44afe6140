// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { BadRequest, Forbidden, Unauthenticated } from "../base/errors.js";
import type { Action } from "./route-table.js";

/** The header a request names its tenant in: a tenant's public id. */
export const tenantHeaderName = "X-Tenant";

/**
 * A tenant's route (a tenanted resource's, the members'): for a signed-in caller who works in the
 * tenant the request names, with `req.user.role` their role there (tenancy.roles) and the platform
 * role kept in `platformRole`. Without X-Tenant: 400; naming a tenant the caller does not work in,
 * or none that exists: 403, the same answer for both, so the header is no way to learn which exist.
 */
export function inTenant(action: Action): Action {
  return (req, res) => {
    const user = req.user;
    if (!user) throw new Unauthenticated();
    if (!user.tenant) {
      if (user.foreignTenant) throw new Forbidden("You do not work in this tenant.");
      throw new BadRequest(
        `Choose a tenant: send the ${tenantHeaderName} header with the public id of a tenant you work in.`,
      );
    }
    req.user = { ...user, role: user.tenant.role, platformRole: user.role };
    return action(req, res);
  };
}
