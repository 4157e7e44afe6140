// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { ValidationFailed } from "../base/errors.js";
import type { CursorCodec, CursorPosition } from "./cursor.js";
import { label } from "./filter-query.js";
import { cursorBinding, integerParameter, maxPage, QueryParameters } from "./list-query.js";

/**
 * A history page's query (`GET /api/<c>/{hash}/history`): `page` and `per_page`, or `cursor`, as on
 * lists; entries come newest first, so a cursor holds one value, the id of the entry it follows.
 */
export interface HistoryQuery {
  readonly page: number;
  readonly perPage: number;
  /** Cursor mode: the position read from (null: the newest entries), and what the cursors are sealed for. */
  readonly cursor?: { readonly position: CursorPosition | null; readonly binding: string };
}

const parameterNames = new Set(["page", "per_page", "cursor"]);

/** Every other parameter, a repeated one, a value out of range or a cursor not issued here is a 422. */
export function parseHistoryQuery(
  req: Request,
  pages: {
    readonly defaultPerPage: number;
    readonly maxPerPage: number;
    readonly cursors?: CursorCodec;
  },
): HistoryQuery {
  const parameters = new QueryParameters(req.query);
  const { fail } = parameters;
  for (const key of Object.keys(req.query))
    if (!parameterNames.has(key)) fail(key, `The ${label(key)} parameter is not supported.`);
  const page = integerParameter(parameters.single("page"), 1, 1, maxPage, "page", fail);
  const perPage = integerParameter(
    parameters.single("per_page"),
    pages.defaultPerPage,
    1,
    pages.maxPerPage,
    "per_page",
    fail,
  );
  const rawCursor = parameters.single("cursor");
  let cursor: HistoryQuery["cursor"];
  if (rawCursor !== undefined) {
    if (req.query.page !== undefined)
      fail("page", "The page parameter cannot be used with a cursor.");
    const binding = cursorBinding(req);
    const position = rawCursor === "" ? null : pages.cursors?.open(rawCursor, binding);
    if (position === undefined || (position !== null && !isEntryId(position.values)))
      fail("cursor", "The cursor is invalid.");
    else cursor = { position, binding };
  }
  if (Object.keys(parameters.errors).length > 0) throw new ValidationFailed(parameters.errors);
  return { page, perPage, ...(cursor ? { cursor } : {}) };
}

function isEntryId(values: readonly unknown[]): boolean {
  return values.length === 1 && Number.isSafeInteger(values[0]);
}
