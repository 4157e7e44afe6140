// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { isDraining } from "./draining.js";

/*
 * What a serving process answers while it is not fully itself (docs/api-contract.md §9): while it
 * waits for migrations another process applies (a rolling deploy starts the new version before the
 * migration job ends), and while it drains for a shutdown. The probes under /api/health answer
 * throughout (live 200, ready 503); every other request is 503 in the envelope, with Retry-After,
 * so that a load balancer that has not yet noticed moves the caller elsewhere instead of meeting a
 * closed port or a schema this build does not know.
 */

let pending: readonly string[] = [];

/** What a request is answered while the schema is behind this build (health.ts's notReady too). */
export const notReadyMessage = "The service is not ready.";

/** The migrations this process waits for (empty once they are applied, or when it never waited). */
export function migrationsAwaited(): readonly string[] {
  return pending;
}

export function awaitMigrations(names: readonly string[]): void {
  pending = names;
}

const probes = "/api/health";

function isProbe(req: IncomingMessage): boolean {
  const url = req.url ?? "";
  return url === probes || url.startsWith(`${probes}/`) || url.startsWith(`${probes}?`);
}

function refuse(res: ServerResponse, message: string, retryAfter: number): void {
  const body = JSON.stringify({ type: "error", status: 503, message });
  res.shouldKeepAlive = false;
  res.writeHead(503, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Retry-After": String(retryAfter),
  });
  res.end(body);
}

/** The app behind the gate, and how many of its requests (probes and refusals aside) are in flight. */
export interface GatedApp {
  readonly listener: RequestListener;
  inFlight(): number;
  /** From now on requests other than probes are refused (the drain's delay is over). */
  refuseNewWork(): void;
  /** Called each time the last request in flight ends. */
  onIdle(callback: () => void): void;
}

export function gated(app: RequestListener): GatedApp {
  let inFlight = 0;
  let refusing = false;
  let idle: (() => void) | undefined;
  const listener: RequestListener = (req, res) => {
    if (!isProbe(req)) {
      if (refusing && isDraining()) return refuse(res, "The service is shutting down.", 1);
      if (pending.length > 0) return refuse(res, notReadyMessage, 5);
      inFlight += 1;
      res.once("close", () => {
        inFlight -= 1;
        if (inFlight === 0) idle?.();
      });
    }
    app(req, res);
  };
  return {
    listener,
    inFlight: () => inFlight,
    refuseNewWork: () => {
      refusing = true;
    },
    onIdle: (callback) => {
      idle = callback;
    },
  };
}
