// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";

/**
 * Runs a controller's after-commit hook (afterCreate, …) once the answer is sent: it cannot change
 * the answer, and what it throws is logged with the request's id, never answered.
 */
export function afterAnswer(req: Request, hook: () => void | Promise<void>): void {
  void Promise.resolve()
    .then(hook)
    .catch((error: unknown) => req.log.error({ err: error }, "an after-commit hook failed"));
}
