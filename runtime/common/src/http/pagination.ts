// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";

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
  const path = `${req.publicOrigin}${req.baseUrl}${req.path === "/" ? "" : req.path}`;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const kept = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query))
    if (key !== "page" && typeof value === "string") kept.set(key, value);
  // The other parameters, encoded once; `page` comes last, as URLSearchParams.set would append it.
  const others = kept.toString();
  const link = (target: number) => `${path}?${others === "" ? "" : `${others}&`}page=${target}`;
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
  const path = `${req.publicOrigin}${req.baseUrl}${req.path === "/" ? "" : req.path}`;
  const kept = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query))
    if (key !== "cursor" && typeof value === "string") kept.set(key, value);
  const others = kept.toString();
  const link = (cursor: string | null) =>
    cursor === null ? null : `${path}?${others === "" ? "" : `${others}&`}cursor=${cursor}`;
  return {
    links: { prev: link(cursors.prev), next: link(cursors.next) },
    meta: { path, per_page: perPage, next_cursor: cursors.next, prev_cursor: cursors.prev },
  };
}
