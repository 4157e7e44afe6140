// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { metricsText } from "./metrics.js";
import { sendError } from "./envelope.js";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * GET /metrics on the API's port, for the bearer of METRICS_TOKEN only (compared in constant time:
 * the answer's timing tells nothing of the token). Anyone else gets the 404 of a path that does not
 * exist, so a scan learns nothing either.
 */
export function metricsRoute(token: string) {
  const expected = digest(token);
  return async (req: Request, res: Response): Promise<void> => {
    const presented = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected))
      return sendError(res, 404, "Resource not found.");
    const { contentType, text } = await metricsText();
    res.setHeader("Cache-Control", "no-store");
    res.type(contentType).send(text);
  };
}
