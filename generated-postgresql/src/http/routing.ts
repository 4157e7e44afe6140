// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { NextFunction, Request, Response, Router } from "express";
import { sendError } from "./envelope.js";

type Handler = (req: Request, res: Response, next: NextFunction) => unknown;
export type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * Registers the handlers of one path and answers every other method with a 405 that lists the
 * allowed ones (HEAD comes with GET).
 */
export function route(
  router: Router,
  path: string,
  handlers: Partial<Record<Method, Handler[]>>,
): void {
  const entry = router.route(path);
  const allowed: string[] = [];
  for (const [method, chain] of Object.entries(handlers) as [Method, Handler[]][]) {
    entry[method](...chain);
    allowed.push(method.toUpperCase());
    if (method === "get") allowed.push("HEAD");
  }
  entry.all((_req: Request, res: Response) => {
    res.setHeader("Allow", allowed.join(", "));
    sendError(res, 405, "Method not allowed.");
  });
}

export function notFound(_req: Request, res: Response): void {
  sendError(res, 404, "Resource not found.");
}
