// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AuthService } from "../auth/auth.service.js";
import { optionalAuth, requireAuth } from "../http/authenticate.js";
import type { Action, RouteTable } from "../http/route-table.js";
import type { ActionName } from "./descriptor.js";

/**
 * Routes of one resource at `base` (/api/<collection>); parameters are hashes. Actions listed in
 * auth.public need no token; every other method of a path is a 405 with Allow.
 */
export function addResourceRoutes(
  routes: RouteTable,
  base: string,
  controller: Record<ActionName, Action>,
  auth: AuthService,
  options: { publicActions: readonly ActionName[]; softDelete: boolean },
): void {
  const action = (name: ActionName): Action => {
    const run: Action = (req, res) => controller[name](req, res);
    return options.publicActions.includes(name) ? optionalAuth(auth, run) : requireAuth(auth, run);
  };
  routes.add(base, { get: action("index"), post: action("store") });
  const update = action("update");
  routes.add(`${base}/:hash`, {
    get: action("show"),
    put: update,
    patch: update,
    delete: action("destroy"),
  });
  if (options.softDelete) routes.add(`${base}/:hash/restore`, { post: action("restore") });
}
