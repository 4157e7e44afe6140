// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Express, Request, Response } from "express";
import { sendError } from "./envelope.js";

declare module "express-serve-static-core" {
  interface Request {
    /** Scheme, host and port that links in responses start with, e.g. `https://api.example.com`. */
    readonly publicOrigin: string;
  }
}

// host[:port]: a DNS name or IPv4 address, or a bracketed IPv6 address (RFC 3986 authority without userinfo).
const hostHeader =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** True when a Host header is a syntactically valid `host[:port]`. */
export function isValidHost(host: string): boolean {
  const match = hostHeader.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

/** How many Host fields a request carries: Node keeps only the first of several. */
function hostFields(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2)
    if (rawHeaders[index]!.length === 4 && rawHeaders[index]!.toLowerCase() === "host") count += 1;
  return count;
}

/**
 * Where links in responses point (`req.publicOrigin`). With APP_URL set (required in production)
 * they always start with it, whatever Host a client sends, so a forged Host can never reach a cache
 * in front of the service. Without it (development) they follow the request's scheme and Host,
 * which checkHost has found valid. Derived when read: only lists' links read it, and the scheme
 * (Express's `req.protocol`) asks the socket for its peer's address, which every request would pay.
 */
export function providePublicOrigin(app: Express, appUrl: string | undefined): void {
  Object.defineProperty(app.request, "publicOrigin", {
    configurable: true,
    get(this: Request): string {
      return appUrl ?? `${this.protocol}://${this.headers.host ?? ""}`;
    },
  });
}

/**
 * A request with no Host, more than one, or one that is not a valid `host[:port]` is a 400, as RFC
 * 9112 §3.2 asks, whatever APP_URL says (answered here: false means the request is done).
 */
export function checkHost(req: Request, res: Response): boolean {
  const host = req.headers.host ?? "";
  if (!isValidHost(host) || hostFields(req.rawHeaders) !== 1) {
    sendError(res, 400, "Bad request.");
    return false;
  }
  return true;
}
