// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { kindNoun, parseQueryValue } from "../lib/column-codec.js";
import { emptyFieldErrors, ValidationFailed } from "../lib/errors.js";
import {
  maxMatchText,
  maxQueryText,
  maxSearchWords,
  type FilterKind,
  type FilterOperator,
} from "../lib/list-operators.js";
import { reservedQueryParameters } from "../lib/public-names.js";
import type { ManyToManySpec } from "../lib/relations/belongs-to-many.js";
import type { CursorCodec, CursorPosition } from "./cursor.js";
import {
  bracketFilter,
  filterOperand,
  label,
  operatorProblem,
  type FilterCondition,
} from "./filter-query.js";

export { filterKinds, type FilterKind } from "../lib/list-operators.js";
export type { FilterCondition } from "./filter-query.js";

export interface ListSpec {
  sortable: readonly string[];
  filters: Readonly<Record<string, FilterKind>>;
  /** The values each enum filter accepts. */
  values?: Readonly<Record<string, readonly string[]>>;
  /** Fields whose spec narrows their operators (`filter: [eq, in]`); the others take their kind's. */
  operators?: Readonly<Record<string, readonly FilterOperator[]>>;
  /** The fields `?search=` looks in; none: the parameter is refused. */
  search?: readonly string[];
  relations: readonly string[];
  softDelete: boolean;
  defaultPerPage: number;
  maxPerPage: number;
  /** Seals and opens `?cursor=` positions; without it, cursor pagination is refused. */
  cursors?: CursorCodec;
}

export interface ListQuery {
  page: number;
  perPage: number;
  /** Exact-match filters; a relation filter holds the related record's hash. */
  filters: Record<string, string | number | boolean | Date>;
  /** The other filters: `?filter[field][op]=`. */
  conditions: FilterCondition[];
  /** `?search=` words (none without it). */
  search: string[];
  /**
   * Cursor pagination (`?cursor=`): where the page starts, `null` for the first page; undefined in
   * page-number mode. `binding` is what its cursors are sealed for (see cursorBinding).
   */
  cursor?: { position: CursorPosition | null; binding: string };
  orderBy: Record<string, "asc" | "desc">[];
  relations: string[];
  withTrashed: boolean;
  /** A relation's own list route: only the records one row links to (set by the route, never parsed). */
  linkedFrom?: { relation: ManyToManySpec; ownId: number };
}

const reserved = new Set<string>(reservedQueryParameters);

/** The last page a client may ask for: keeps every offset a safe integer on both databases. */
export const maxPage = 2_147_483_647;

/**
 * Validates every list query parameter (docs/api-contract.md §4 and §8 in hashapi): an unknown
 * parameter, relation, sort field, filter field or operator, a value of the wrong type, a malformed
 * cursor or a repeated parameter is a 422, never silently ignored and never a 500.
 */
export function parseListQuery(req: Request, spec: ListSpec): ListQuery {
  const errors = emptyFieldErrors();
  const fail = (key: string, message: string) => (errors[key] ??= []).push(message);
  const query = req.query as Record<string, unknown>;
  const single = (key: string, errorKey = key): string | undefined => {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      fail(errorKey, `The ${label(errorKey)} parameter must be given once.`);
      return undefined;
    }
    return value;
  };

  const rawCursor = single("cursor");
  const page = integerParameter(single("page"), 1, 1, maxPage, "page", fail);
  if (rawCursor !== undefined && query.page !== undefined)
    fail("page", "The page parameter cannot be used with a cursor.");
  const perPage = integerParameter(
    single("per_page"),
    spec.defaultPerPage,
    1,
    spec.maxPerPage,
    "per_page",
    fail,
  );

  const orderBy: ListQuery["orderBy"] = [];
  const sort = single("sort");
  if (sort !== undefined) {
    const parts = sort.split(",");
    // Each sortable field at most once: thousands of terms must not reach the database.
    if (parts.length > spec.sortable.length)
      fail("sort", `The sort parameter may name at most ${spec.sortable.length} fields.`);
    else {
      const seen = new Set<string>();
      for (const part of parts) {
        const field = part.startsWith("-") ? part.slice(1) : part;
        if (!spec.sortable.includes(field))
          fail("sort", `The sort field "${field}" is not one of: ${spec.sortable.join(", ")}.`);
        else if (seen.has(field))
          fail("sort", `The sort field "${field}" is given more than once.`);
        else {
          seen.add(field);
          orderBy.push({ [field]: part.startsWith("-") ? "desc" : "asc" });
        }
      }
    }
  }
  // Default order, and the tie-breaker that keeps pages stable: created_at, then id.
  if (!orderBy.some((entry) => "created_at" in entry)) orderBy.push({ created_at: "asc" });
  orderBy.push({ id: "asc" });

  const relations = relationsParameter(single("with"), spec.relations, fail);

  let withTrashed = false;
  const trashed = single("with_trashed");
  if (trashed !== undefined) {
    if (!spec.softDelete) fail("with_trashed", "The with trashed parameter is not supported here.");
    else if (trashed !== "true" && trashed !== "false")
      fail("with_trashed", "The with trashed field must be true or false.");
    else withTrashed = trashed === "true";
  }

  const search = searchWords(single("search"), spec, fail);

  const filters: ListQuery["filters"] = {};
  const conditions: FilterCondition[] = [];
  const exact = (field: string, key: string, value: unknown) => {
    if (Object.hasOwn(filters, field))
      fail(key, `The ${label(field)} filter is given more than once.`);
    else filters[field] = value as ListQuery["filters"][string];
  };
  for (const key of Object.keys(query)) {
    if (reserved.has(key) && key !== "filter") continue;
    const bracket = bracketFilter(key);
    if (bracket) {
      const { field, operator } = bracket;
      const errorKey = `filter.${field}`;
      // Own keys only: `?filter[constructor]=x` must not find Object.prototype.constructor.
      if (!Object.hasOwn(spec.filters, field)) {
        fail(errorKey, `The ${label(field)} field cannot be filtered.`);
        continue;
      }
      const problem = operatorProblem(spec, field, operator);
      if (problem) {
        fail(errorKey, problem);
        continue;
      }
      const raw = single(key, errorKey);
      if (raw === undefined) continue;
      const op = operator as FilterOperator;
      const operand = filterOperand(spec, field, op, raw);
      if ("problem" in operand) fail(errorKey, operand.problem);
      else if (op === "eq") exact(field, errorKey, operand.value);
      else conditions.push({ field, kind: spec.filters[field]!, op, value: operand.value });
      continue;
    }
    if (key === "filter" || key.startsWith("filter[")) {
      fail(key, "A filter is written filter[field]=value or filter[field][operator]=value.");
      continue;
    }
    // The older form `?field=value`: an exact match, named by the field itself.
    const kind = Object.hasOwn(spec.filters, key) ? spec.filters[key] : undefined;
    if (kind === undefined) {
      fail(key, `The ${label(key)} parameter is not supported.`);
      continue;
    }
    const raw = single(key);
    if (raw === undefined) continue;
    if (kind === "enum") {
      // Laravel's `in` message: a value outside the field's values would only ever match no row.
      if (spec.values?.[key]?.includes(raw)) exact(key, key, raw);
      else fail(key, `The selected ${label(key)} is invalid.`);
      continue;
    }
    const value = parseQueryValue(kind, raw);
    if (value === undefined)
      fail(key, `The ${label(key)} filter is not a valid ${kindNoun(kind)}.`);
    else exact(key, key, value);
  }

  let cursor: ListQuery["cursor"];
  if (rawCursor !== undefined) {
    if (!spec.cursors) fail("cursor", "The cursor parameter is not supported here.");
    else {
      const binding = cursorBinding(req);
      if (rawCursor === "") cursor = { position: null, binding };
      else {
        const position =
          rawCursor.length <= maxQueryText ? spec.cursors.open(rawCursor, binding) : undefined;
        // Ours, for this very query, with one value per order key: anything else was not issued here.
        if (position === undefined || position.values.length !== orderKeyCount(orderBy))
          fail("cursor", "The cursor is invalid.");
        else cursor = { position, binding };
      }
    }
  }

  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return {
    page,
    perPage,
    filters,
    conditions,
    search,
    ...(cursor ? { cursor } : {}),
    orderBy,
    relations,
    withTrashed,
  };
}

function orderKeyCount(orderBy: ListQuery["orderBy"]): number {
  return orderBy.reduce((count, entry) => count + Object.keys(entry).length, 0);
}

/** The parameters a cursor is not bound to: they change the page's size or nesting, not its rows. */
const unboundParameters = new Set(["cursor", "page", "per_page", "with"]);

/**
 * What a cursor is sealed for: the path, the caller, and every parameter that decides which rows
 * come in which order (all but the page, its size and the nested relations), in a fixed order.
 */
export function cursorBinding(req: Request): string {
  const parameters = Object.entries(req.query as Record<string, unknown>)
    .filter(([key]) => !unboundParameters.has(key))
    .map(([key, value]) => [key, String(value)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return JSON.stringify([req.baseUrl + req.path, req.user?.hash ?? null, parameters]);
}

/** `?search=`: the distinct words (empty or blank: no search), on a resource that declares fields for it. */
function searchWords(
  raw: string | undefined,
  spec: ListSpec,
  fail: (key: string, message: string) => void,
): string[] {
  if (raw === undefined) return [];
  if (!spec.search?.length) {
    fail("search", "The search parameter is not supported here.");
    return [];
  }
  if (raw.length > maxQueryText) {
    fail("search", `The search must not be greater than ${maxQueryText} characters.`);
    return [];
  }
  if (parseQueryValue("string", raw) === undefined) {
    fail("search", "The search is not valid text.");
    return [];
  }
  const words = [...new Set(raw.split(/\s+/u).filter(Boolean))];
  if (words.length > maxSearchWords) {
    fail("search", `The search may hold at most ${maxSearchWords} words.`);
    return [];
  }
  if (words.some((word) => word.length > maxMatchText)) {
    fail("search", `Each word of the search must not be greater than ${maxMatchText} characters.`);
    return [];
  }
  return words;
}

/** `?with=` on a single record: validated exactly as on lists. */
export function parseRelationsQuery(req: Request, available: readonly string[]): string[] {
  // Most reads of one record carry no query at all: nothing to parse (Express parses on every access).
  if (!req.url.includes("?")) return [];
  const errors = emptyFieldErrors();
  const fail = (key: string, message: string) => (errors[key] ??= []).push(message);
  const query = req.query as Record<string, unknown>;
  // As on lists, a parameter the action does not read is refused, never silently ignored.
  for (const key of Object.keys(query))
    if (key !== "with") fail(key, `The ${label(key)} parameter is not supported.`);
  const value = query.with;
  if (value !== undefined && typeof value !== "string")
    fail("with", "The with parameter must be given once.");
  const relations = relationsParameter(
    typeof value === "string" ? value : undefined,
    available,
    fail,
  );
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return relations;
}

function relationsParameter(
  raw: string | undefined,
  available: readonly string[],
  fail: (key: string, message: string) => void,
): string[] {
  const relations: string[] = [];
  const names = (raw ?? "").split(",").filter(Boolean);
  if (names.length > Math.max(available.length, 1)) {
    fail("with", `The with parameter may name at most ${available.length} relations.`);
    return relations;
  }
  for (const name of names) {
    if (!available.includes(name))
      fail("with", `The relation "${name}" is not one of: ${available.join(", ") || "(none)"}.`);
    else if (!relations.includes(name)) relations.push(name);
  }
  return relations;
}

function integerParameter(
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
  key: string,
  fail: (key: string, message: string) => void,
): number {
  if (raw === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(raw)) {
    fail(key, `The ${label(key)} field must be an integer.`);
    return fallback;
  }
  // Compared as text past 15 digits: Number("99999999999999999999") is no longer that integer.
  const value = Number(raw);
  if (value < min || value > max || raw.replace(/^[+-]?0*/, "").length > 15) {
    fail(key, `The ${label(key)} field must be between ${min} and ${max}.`);
    return fallback;
  }
  return value;
}
