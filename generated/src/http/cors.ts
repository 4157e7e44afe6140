// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { IncomingMessage, ServerResponse } from "node:http";

const allowedMethods = "GET, POST, PUT, PATCH, DELETE";
const allowedHeaders = "Authorization, Content-Type";
// How long a browser may reuse a preflight's answer (10 minutes, below every browser's own cap).
const preflightMaxAgeSeconds = 600;

/**
 * CORS for the origins of CORS_ORIGINS (exact matches only; none by default). A listed origin's
 * requests get `Access-Control-Allow-Origin` with that origin (never `*`: the API takes bearer
 * tokens, and a wildcard would let any site read what a token reads), and its preflights a 204 with
 * the methods, the `Authorization` and `Content-Type` headers, and a max age. Other origins get no
 * CORS header, so the browser keeps their scripts out. Every response says `Vary: Origin` while
 * CORS is on, as caches must not hand one origin's answer to another.
 *
 * Returns true when it answered the request (a preflight).
 */
export function applyCors(
  origins: ReadonlySet<string>,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (origins.size === 0) return false;
  res.setHeader("Vary", "Origin");
  const origin = req.headers.origin;
  if (origin === undefined || !origins.has(origin)) return false;
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Access-Control-Expose-Headers", "Retry-After, WWW-Authenticate, Allow");
  if (req.method !== "OPTIONS" || req.headers["access-control-request-method"] === undefined)
    return false;
  res.setHeader("Access-Control-Allow-Methods", allowedMethods);
  res.setHeader("Access-Control-Allow-Headers", allowedHeaders);
  res.setHeader("Access-Control-Max-Age", String(preflightMaxAgeSeconds));
  res.statusCode = 204;
  res.end();
  return true;
}
