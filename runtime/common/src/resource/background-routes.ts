// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { requireAuth } from "../http/authenticate.js";
import { sendData, sendList } from "../http/envelope.js";
import { label } from "../http/filter-query.js";
import { integerParameter, maxPage, QueryParameters } from "../http/list-query.js";
import { paginate } from "../http/pagination.js";
import type { RouteTable } from "../http/route-table.js";
import { deliveryPage, retryDelivery } from "../lib/events/deliveries.js";
import { Forbidden, NotFound, ValidationFailed } from "../lib/errors.js";
import { hashMatcher } from "../lib/hash-id.js";
import type { Sql } from "../lib/sql.js";

export interface DeliveryRouteOptions {
  /** The one role that may read and retry deliveries: the most privileged (auth.roles' first). */
  readonly role: string;
  readonly sql: Sql;
  readonly pagination: { readonly defaultPerPage: number; readonly maxPerPage: number };
  /** The webhooks' names, which `?webhook=` takes. */
  readonly webhooks: readonly string[];
}

const statuses = ["pending", "delivered", "failed"];
const deliveryHash = hashMatcher("DLV");

/**
 * `GET <base>/webhooks/deliveries` (newest first; `?status=`, `?webhook=`, pages) and
 * `POST <base>/webhooks/deliveries/{id}/retry` (due again now), for the most privileged role only.
 */
export function addDeliveryRoutes(
  routes: RouteTable,
  base: string,
  auth: AuthService,
  options: DeliveryRouteOptions,
): void {
  const only = (action: (req: Request, res: Response) => Promise<void>) =>
    requireAuth(auth, async (req, res) => {
      if (req.user?.role !== options.role) throw new Forbidden();
      await action(req, res);
    });
  routes.add(`${base}/webhooks/deliveries`, {
    get: only(async (req, res) => {
      const parameters = new QueryParameters(req.query);
      const { fail } = parameters;
      for (const key of Object.keys(req.query))
        if (!["page", "per_page", "status", "webhook"].includes(key))
          fail(key, `The ${label(key)} parameter is not supported.`);
      const page = integerParameter(parameters.single("page"), 1, 1, maxPage, "page", fail);
      const perPage = integerParameter(
        parameters.single("per_page"),
        options.pagination.defaultPerPage,
        1,
        options.pagination.maxPerPage,
        "per_page",
        fail,
      );
      const status = parameters.single("status");
      if (status !== undefined && !statuses.includes(status))
        fail("status", "The selected status is invalid.");
      const webhook = parameters.single("webhook");
      if (webhook !== undefined && !options.webhooks.includes(webhook))
        fail("webhook", "The selected webhook is invalid.");
      if (Object.keys(parameters.errors).length > 0) throw new ValidationFailed(parameters.errors);
      const found = await deliveryPage(
        options.sql,
        { ...(status ? { status } : {}), ...(webhook ? { webhook } : {}) },
        { limit: perPage, offset: (page - 1) * perPage },
      );
      const { links, meta } = paginate(req, page, perPage, found.total, found.rows.length);
      sendList(res, found.rows, links, meta);
    }),
  });
  routes.add(`${base}/webhooks/deliveries/:id/retry`, {
    post: only(async (req, res) => {
      const id = String(req.params.id);
      const retried = deliveryHash.test(id) ? await retryDelivery(options.sql, id) : null;
      if (!retried) throw new NotFound();
      sendData(res, retried);
    }),
  });
}
