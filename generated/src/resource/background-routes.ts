// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AuthService } from "../auth/auth.service.js";
import type { RouteTable } from "../http/route-table.js";
import { deliveryPage, retryDelivery } from "../events/deliveries.js";
import { jobPage, retryJob } from "../jobs/queue.js";
import type { Sql } from "../db/sql.js";
import { addWorkRoutes } from "./work-routes.js";

/** What the routes of the deliveries and the jobs need. */
export interface BackgroundRouteOptions {
  /** The one role that may read and retry them: the most privileged (auth.roles' first). */
  readonly role: string;
  readonly sql: Sql;
  readonly pagination: { readonly defaultPerPage: number; readonly maxPerPage: number };
}

/**
 * `GET <base>/webhooks/deliveries` (newest first; `?status=`, `?webhook=`, pages) and
 * `POST <base>/webhooks/deliveries/{id}/retry` (due again now), for the most privileged role only.
 */
export function addDeliveryRoutes(
  routes: RouteTable,
  base: string,
  auth: AuthService,
  options: BackgroundRouteOptions & { readonly webhooks: readonly string[] },
): void {
  const { sql } = options;
  addWorkRoutes(routes, `${base}/webhooks/deliveries`, auth, {
    ...options,
    statuses: ["pending", "delivered", "failed", "skipped"],
    filter: { parameter: "webhook", values: options.webhooks },
    idPrefix: "DLV",
    page: ({ status, value }, page) =>
      deliveryPage(
        sql,
        { ...(status ? { status } : {}), ...(value ? { webhook: value } : {}) },
        page,
      ),
    retry: (id) => retryDelivery(sql, id),
  });
}

/**
 * `GET <base>/jobs` (newest first; `?status=`, `?name=`, pages) and `POST <base>/jobs/{id}/retry`
 * (a failed or pending job due now again), for the most privileged role only.
 */
export function addJobRoutes(
  routes: RouteTable,
  base: string,
  auth: AuthService,
  options: BackgroundRouteOptions & { readonly names: readonly string[] },
): void {
  const { sql } = options;
  addWorkRoutes(routes, `${base}/jobs`, auth, {
    ...options,
    statuses: ["pending", "running", "done", "failed"],
    filter: { parameter: "name", values: options.names },
    idPrefix: "JOB",
    page: ({ status, value }, page) =>
      jobPage(sql, { ...(status ? { status } : {}), ...(value ? { name: value } : {}) }, page),
    retry: (id) => retryJob(sql, id),
  });
}
