// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import type { Actor } from "../data/outbox.js";

/** Who a request's writes are recorded as (their events' actor): the signed-in user, else none. */
export function actorOf(req: Request): Actor | null {
  return req.user ? { hash: req.user.hash, name: req.user.name } : null;
}
