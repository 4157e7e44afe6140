// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Router, type Request, type Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { optionalAuth, requireAuth } from "../http/authenticate.js";
import { route } from "../http/routing.js";
import type { ActionName } from "./descriptor.js";

type Actions = Record<ActionName, (req: Request, res: Response) => Promise<void>>;

/**
 * Routes of one resource, mounted at /api/<collection> (a request for another collection never
 * enters this router); parameters are hashes. Actions listed in auth.public need no token; every
 * other method of a path is a 405 with Allow.
 */
export function resourceRoutes(
  controller: Actions,
  auth: AuthService,
  options: { publicActions: readonly ActionName[]; softDelete: boolean },
): Router {
  const router = Router();
  const needsToken = requireAuth(auth);
  const tokenOptional = optionalAuth(auth);
  const action = (name: ActionName) => [
    options.publicActions.includes(name) ? tokenOptional : needsToken,
    (req: Request, res: Response) => controller[name](req, res),
  ];
  route(router, "/", { get: action("index"), post: action("store") });
  route(router, "/:hash", {
    get: action("show"),
    put: action("update"),
    patch: action("update"),
    delete: action("destroy"),
  });
  if (options.softDelete) route(router, "/:hash/restore", { post: action("restore") });
  return router;
}
