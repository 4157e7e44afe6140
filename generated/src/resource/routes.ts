// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AuthService } from "../auth/auth.service.js";
import { optionalAuth, requireAuth } from "../http/authenticate.js";
import type { Action, Actions, RouteTable } from "../http/route-table.js";
import { Forbidden } from "../lib/errors.js";
import { actionsOf, type ActionName } from "./actions.js";

export interface RouteOptions {
  /** auth.public: actions that need no token. */
  publicActions: readonly ActionName[];
  /** auth.roles: per action, the roles that may perform it. */
  roles: Readonly<Partial<Record<ActionName, readonly string[]>>>;
  softDelete: boolean;
}

/**
 * Routes of one resource at `base` (/api/<collection>), from the action table; parameters are
 * hashes. Actions listed in auth.public need no token; an action with roles answers 403 to every
 * other role before the controller reads anything; every other method of a path is a 405 with Allow.
 */
export function addResourceRoutes(
  routes: RouteTable,
  base: string,
  controller: Record<ActionName, Action>,
  auth: AuthService,
  options: RouteOptions,
): void {
  const paths = new Map<string, Actions>();
  for (const shape of actionsOf(options.softDelete)) {
    const run = withRoles(options.roles[shape.name], (req, res) =>
      controller[shape.name](req, res),
    );
    const action = options.publicActions.includes(shape.name)
      ? optionalAuth(auth, run)
      : requireAuth(auth, run);
    const actions = paths.get(shape.path) ?? {};
    for (const method of shape.methods) actions[method] = action;
    paths.set(shape.path, actions);
  }
  for (const [path, actions] of paths) routes.add(`${base}${path}`, actions);
}

/** The action for callers whose role is among `roles` (every signed-in caller when undefined). */
function withRoles(roles: readonly string[] | undefined, action: Action): Action {
  if (roles === undefined) return action;
  const allowed = new Set(roles);
  return async (req, res) => {
    if (!req.user || !allowed.has(req.user.role)) throw new Forbidden();
    await action(req, res);
  };
}
