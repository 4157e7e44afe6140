// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AuthService } from "../auth/auth.service.js";
import { optionalAuth, requireAuth } from "../http/authenticate.js";
import type { Action, Actions, RouteTable } from "../http/route-table.js";
import { Forbidden } from "../base/errors.js";
import { inTenant } from "../http/tenant-routes.js";
import { actionsOf, type ActionName } from "./actions.js";

export interface RouteOptions {
  /** The resource's collection, which names its actions' own request limits (`patients.store`). */
  collection: string;
  /** auth.public: actions that need no token. */
  publicActions: readonly ActionName[];
  /** auth.roles: per action, the roles that may perform it. */
  roles: Readonly<Partial<Record<ActionName, readonly string[]>>>;
  softDelete: boolean;
  /** `audit`: the record's history at `<base>/:hash/history`, with show's access. */
  history?: Action;
  /**
   * With tenancy, the resource's records are a tenant's: every action works in the tenant the
   * request names, with the caller's role there (http/tenant-routes.ts). `"tenants"`: the records
   * are the tenants themselves, and store (a new tenant) needs none.
   */
  tenanted?: "records" | "tenants";
  /** With file fields: how a create or update reads a multipart body (file-bodies.ts). */
  files?: (action: Action) => Action;
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
  const limits = auth.requestLimits;
  for (const shape of actionsOf(options.softDelete)) {
    const name = `${options.collection}.${shape.name}`;
    const act: Action = (req, res) => controller[shape.name](req, res);
    const writes = shape.name === "store" || shape.name === "update";
    const perform = writes && options.files ? options.files(act) : act;
    // A resource's own limit for the action (its spec's rateLimit), after the caller's.
    const limited: Action = limits?.limitsRoute(name)
      ? async (req, res) => {
          await limits.route(name, req);
          await perform(req, res);
        }
      : perform;
    const roles = withRoles(options.roles[shape.name], limited);
    const newTenant = options.tenanted === "tenants" && shape.name === "store";
    const run = options.tenanted && !newTenant ? inTenant(roles) : roles;
    const action = options.publicActions.includes(shape.name)
      ? optionalAuth(auth, run)
      : requireAuth(auth, run);
    const actions = paths.get(shape.path) ?? {};
    for (const method of shape.methods) actions[method] = action;
    paths.set(shape.path, actions);
  }
  for (const [path, actions] of paths) routes.add(`${base}${path}`, actions);
  const history = options.history;
  if (history) {
    const shown = withRoles(options.roles.show, history);
    const run = options.tenanted ? inTenant(shown) : shown;
    const read = options.publicActions.includes("show")
      ? optionalAuth(auth, run)
      : requireAuth(auth, run);
    routes.add(`${base}/:hash/history`, { get: read });
  }
}

/**
 * A belongsToMany's routes at `base` (/api/<collection>/:hash/<relation>): the list, and linking
 * and unlinking one related record. Each role list that is given must hold the caller's role.
 */
export function addManyToManyRoutes(
  routes: RouteTable,
  base: string,
  controller: { index: Action; attach: Action; detach: Action },
  auth: AuthService,
  options: {
    publicRead: boolean;
    readRoles: readonly (readonly string[] | undefined)[];
    writeRoles: readonly (readonly string[] | undefined)[];
    /** The parent's records are a tenant's: every route works in the tenant the request names. */
    tenanted?: boolean;
  },
): void {
  const inside = (action: Action) => (options.tenanted ? inTenant(action) : action);
  const read = inside(allRoles(options.readRoles, (req, res) => controller.index(req, res)));
  routes.add(base, {
    get: options.publicRead ? optionalAuth(auth, read) : requireAuth(auth, read),
  });
  routes.add(`${base}/:related`, {
    put: requireAuth(
      auth,
      inside(allRoles(options.writeRoles, (req, res) => controller.attach(req, res))),
    ),
    delete: requireAuth(
      auth,
      inside(allRoles(options.writeRoles, (req, res) => controller.detach(req, res))),
    ),
  });
}

function allRoles(lists: readonly (readonly string[] | undefined)[], action: Action): Action {
  return lists.reduceRight<Action>((inner, roles) => withRoles(roles, inner), action);
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
