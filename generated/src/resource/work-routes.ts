// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { requireAuth } from "../http/authenticate.js";
import { sendData, sendList } from "../http/envelope.js";
import { label } from "../http/filter-query.js";
import { integerParameter, maxPage, QueryParameters } from "../http/list-query.js";
import { paginate } from "../http/pagination.js";
import type { RouteTable } from "../http/route-table.js";
import { Forbidden, NotFound, ValidationFailed } from "../base/errors.js";
import { hashMatcher } from "../base/hash-id.js";

/*
 * The routes of the service's background work for its most privileged role: the webhooks'
 * deliveries and the jobs, each a list (newest first, by status and by receiver or name, in
 * pages) and a retry of one by its id.
 */

export interface WorkRouteOptions<Row> {
  /** The one role that may read and retry: the most privileged (auth.roles' first). */
  readonly role: string;
  readonly pagination: { readonly defaultPerPage: number; readonly maxPerPage: number };
  /** What `?status=` takes. */
  readonly statuses: readonly string[];
  /** The other filter: `?webhook=` or `?name=`, and the values it takes. */
  readonly filter: { readonly parameter: string; readonly values: readonly string[] };
  /** The prefix of an item's id (`DLV`, `JOB`): any other id is the 404 of a missing one. */
  readonly idPrefix: string;
  page(
    filter: { status?: string; value?: string },
    page: { limit: number; offset: number },
  ): Promise<{ rows: Row[]; total: number }>;
  /** Makes one due now again; null when there is no such item. */
  retry(id: string): Promise<Row | null>;
}

/** `GET <path>` and `POST <path>/{id}/retry`. */
export function addWorkRoutes<Row>(
  routes: RouteTable,
  path: string,
  auth: AuthService,
  options: WorkRouteOptions<Row>,
): void {
  const only = (action: (req: Request, res: Response) => Promise<void>) =>
    requireAuth(auth, async (req, res) => {
      if (req.user?.role !== options.role) throw new Forbidden();
      await action(req, res);
    });
  const itemId = hashMatcher(options.idPrefix);
  const { parameter, values } = options.filter;
  routes.add(path, {
    get: only(async (req, res) => {
      const parameters = new QueryParameters(req.query);
      const { fail } = parameters;
      for (const key of Object.keys(req.query))
        if (!["page", "per_page", "status", parameter].includes(key))
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
      if (status !== undefined && !options.statuses.includes(status))
        fail("status", "The selected status is invalid.");
      const value = parameters.single(parameter);
      if (value !== undefined && !values.includes(value))
        fail(parameter, `The selected ${label(parameter)} is invalid.`);
      if (Object.keys(parameters.errors).length > 0) throw new ValidationFailed(parameters.errors);
      const found = await options.page(
        { ...(status ? { status } : {}), ...(value ? { value } : {}) },
        { limit: perPage, offset: (page - 1) * perPage },
      );
      const { links, meta } = paginate(req, page, perPage, found.total, found.rows.length);
      sendList(res, found.rows, links, meta);
    }),
  });
  routes.add(`${path}/:id/retry`, {
    post: only(async (req, res) => {
      const id = String(req.params.id);
      const retried = itemId.test(id) ? await options.retry(id) : null;
      if (!retried) throw new NotFound();
      sendData(res, retried);
    }),
  });
}
