// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { Forbidden, Unauthenticated } from "../base/errors.js";

/**
 * Nothing unless `allowed` (a policy's verdict); refused, 403 "This action is unauthorized." to a
 * signed-in caller and 401 to an anonymous one (`req` given: signing in may change the verdict, as
 * on ?with_trashed). A verdict given at once is answered at once, without a turn of the queue.
 */
export function authorized(
  allowed: boolean | Promise<boolean>,
  req?: Request,
): void | Promise<void> {
  const refuse = () => {
    throw req !== undefined && req.user === undefined ? new Unauthenticated() : new Forbidden();
  };
  if (typeof allowed !== "boolean")
    return allowed.then((verdict) => {
      if (!verdict) refuse();
    });
  if (!allowed) refuse();
}
