// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { routedPath } from "./route-table.js";

export interface PageLinks {
  first: string;
  last: string;
  prev: string | null;
  next: string | null;
}

export interface PageMeta {
  current_page: number;
  from: number | null;
  last_page: number;
  path: string;
  per_page: number;
  to: number | null;
  total: number;
}

/**
 * Laravel's paginator shape; links keep the other query parameters so pages stay comparable, and start
 * with the public origin (public-origin.ts), never with an unchecked Host header.
 */
export function paginate(
  req: Request,
  page: number,
  perPage: number,
  total: number,
  count: number,
): { links: PageLinks; meta: PageMeta } {
  const { path, link } = linksBy(req, "page");
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const from = count === 0 ? null : (page - 1) * perPage + 1;
  return {
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: from === null ? null : from + count - 1,
      total,
    },
  };
}

export interface CursorLinks {
  prev: string | null;
  next: string | null;
}

export interface CursorMeta {
  path: string;
  per_page: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}

/** Laravel's cursor paginator shape: the cursors, and the URLs that carry them with the other parameters. */
export function cursorPaginate(
  req: Request,
  perPage: number,
  cursors: { next: string | null; prev: string | null },
): { links: CursorLinks; meta: CursorMeta } {
  const { path, link } = linksBy(req, "cursor");
  const nullable = (cursor: string | null) => (cursor === null ? null : link(cursor));
  return {
    links: { prev: nullable(cursors.prev), next: nullable(cursors.next) },
    meta: { path, per_page: perPage, next_cursor: cursors.next, prev_cursor: cursors.prev },
  };
}

/**
 * This list's path, and its URL for another value of `parameter` (page or cursor), keeping the
 * other parameters so pages stay comparable: encoded once, `parameter` last, byte for byte as
 * URLSearchParams would write them (its serializer is the slow part of a list's answer: ≈ 5 µs).
 */
function linksBy(
  req: Request,
  parameter: string,
): { path: string; link(value: string | number): string } {
  const listed = routedPath(req);
  const path = `${req.publicOrigin}${listed === "/" ? "" : listed}`;
  const query = req.query as Record<string, unknown>;
  let others = "";
  for (const key in query) {
    const value = query[key];
    if (key === parameter || typeof value !== "string") continue;
    others += `${formEncoded(key, value)}&`;
  }
  return { path, link: (value) => `${path}?${others}${parameter}=${value}` };
}

// What application/x-www-form-urlencoded writes as is; anything else goes through URLSearchParams.
const formSafe = /^[\w*.-]*$/;

/** `key=value` as URLSearchParams serializes the pair. */
export function formEncoded(key: string, value: string): string {
  return formSafe.test(key) && formSafe.test(value)
    ? `${key}=${value}`
    : new URLSearchParams([[key, value]]).toString();
}
