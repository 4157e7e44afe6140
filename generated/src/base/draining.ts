// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * Whether this process is shutting down (SIGTERM, SIGINT). From then on readiness answers 503, so a
 * load balancer still sending on an open connection moves the caller elsewhere, and every response
 * closes its connection: no request starts on a kept-alive socket after the one in flight.
 */
let draining = false;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}
