// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { kindNoun, parseQueryValue, queryBoolean } from "../data/column-codec.js";
import { emptyFieldErrors, ValidationFailed } from "../base/errors.js";
import {
  maxMatchText,
  maxQueryText,
  maxSearchWords,
  type FilterKind,
  type FilterOperator,
} from "../data/list-operators.js";
import { reservedQueryParameters } from "../base/public-names.js";
import { searchCondition, type ListCondition } from "../data/list-conditions.js";
import type { CursorCodec, CursorPosition } from "./cursor.js";
import { routedPath } from "./route-table.js";
import { bracketFilter, filterOperand, label, operatorProblem } from "./filter-query.js";

export { filterKinds, type FilterKind } from "../data/list-operators.js";
export type { ListCondition } from "../data/list-conditions.js";

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
  /**
   * What the rows must meet, ANDed: every filter parameter (`?field=v` is an `eq` like any other)
   * and `?search=`, as one condition tree (data/list-conditions.ts) that data/table/filters.ts
   * compiles. A relation's own list route adds its link here.
   */
  where: ListCondition[];
  /**
   * Cursor pagination (`?cursor=`): where the page starts, `null` for the first page; undefined in
   * page-number mode. `binding` is what its cursors are sealed for (see cursorBinding).
   */
  cursor?: { position: CursorPosition | null; binding: string };
  orderBy: Record<string, "asc" | "desc">[];
  relations: string[];
  /** `?with_trashed=true`: soft-deleted records too; `?only_trashed=true` (the admin's trash): them alone. */
  withTrashed: boolean | "only";
}

const reserved = new Set<string>(reservedQueryParameters);

/** The last page a client may ask for: keeps every offset a safe integer on both databases. */
export const maxPage = 2_147_483_647;

/** A query's parameters as given, and the errors found in them. */
export class QueryParameters {
  readonly errors = emptyFieldErrors();
  constructor(readonly query: Record<string, unknown>) {}

  /** Records an error; undefined, so a parser can `return fail(…)` for "no value". */
  fail = (key: string, message: string): undefined => {
    (this.errors[key] ??= []).push(message);
    return undefined;
  };

  /** A parameter given at most once: its text, or undefined (and an error when repeated). */
  single(key: string, errorKey = key): string | undefined {
    const value = this.query[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      this.fail(errorKey, `The ${label(errorKey)} parameter must be given once.`);
      return undefined;
    }
    return value;
  }
}

/**
 * Validates every list query parameter (docs/api-contract.md §4 and §8 in hashapi): an unknown
 * parameter, relation, sort field, filter field or operator, a value of the wrong type, a malformed
 * cursor or a repeated parameter is a 422, never silently ignored and never a 500. Each parameter
 * has a parser of its own below.
 */
export function parseListQuery(req: Request, spec: ListSpec): ListQuery {
  const parameters = new QueryParameters(req.query);
  const { fail } = parameters;
  const rawCursor = parameters.single("cursor");
  const page = integerParameter(parameters.single("page"), 1, 1, maxPage, "page", fail);
  if (rawCursor !== undefined && parameters.query.page !== undefined)
    fail("page", "The page parameter cannot be used with a cursor.");
  const perPage = integerParameter(
    parameters.single("per_page"),
    spec.defaultPerPage,
    1,
    spec.maxPerPage,
    "per_page",
    fail,
  );
  const orderBy = sortParameter(parameters.single("sort"), spec, fail);
  const relations = relationsParameter(parameters.single("with"), spec.relations, fail);
  const only = trashedParameter(parameters, "only_trashed", spec);
  const withTrashed = trashedParameter(parameters, "with_trashed", spec) || (only && "only");
  const words = searchWords(parameters.single("search"), spec, fail);
  const where = filterParameters(parameters, spec);
  if (words.length > 0 && spec.search) where.push(searchCondition(spec.search, words));
  const cursor = cursorParameter(rawCursor, req, spec, orderBy, fail);
  if (Object.keys(parameters.errors).length > 0) throw new ValidationFailed(parameters.errors);
  return { page, perPage, where, ...(cursor ? { cursor } : {}), orderBy, relations, withTrashed };
}

/** `?sort=a,-b`: each sortable field at most once, then the tie-breakers that keep pages stable. */
function sortParameter(
  sort: string | undefined,
  spec: ListSpec,
  fail: QueryParameters["fail"],
): ListQuery["orderBy"] {
  const orderBy: ListQuery["orderBy"] = [];
  const parts = sort === undefined ? [] : sort.split(",");
  // Thousands of terms must not reach the database.
  if (parts.length > spec.sortable.length)
    fail("sort", `The sort parameter may name at most ${spec.sortable.length} fields.`);
  else {
    const seen = new Set<string>();
    for (const part of parts) {
      const field = part.startsWith("-") ? part.slice(1) : part;
      if (!spec.sortable.includes(field))
        fail("sort", `The sort field "${field}" is not one of: ${spec.sortable.join(", ")}.`);
      else if (seen.has(field)) fail("sort", `The sort field "${field}" is given more than once.`);
      else {
        seen.add(field);
        orderBy.push({ [field]: part.startsWith("-") ? "desc" : "asc" });
      }
    }
  }
  // Default order, and the tie-breaker: created_at, then id.
  if (!orderBy.some((entry) => "created_at" in entry)) orderBy.push({ created_at: "asc" });
  orderBy.push({ id: "asc" });
  return orderBy;
}

/** `?with_trashed=true|false` or `?only_trashed=…` (or 1|0), on a resource with soft delete. */
function trashedParameter(parameters: QueryParameters, key: string, spec: ListSpec): boolean {
  const trashed = parameters.single(key);
  if (trashed === undefined) return false;
  const { fail } = parameters;
  const label = key.replace("_", " ");
  if (!spec.softDelete) fail(key, `The ${label} parameter is not supported here.`);
  const value = queryBoolean(trashed);
  if (spec.softDelete && value === undefined)
    fail(key, `The ${label} field must be true or false.`);
  return spec.softDelete && value === true;
}

/**
 * Every filter parameter as a condition: `?filter[field][op]=v`, `?filter[field]=v` and the older
 * `?field=v` (both `eq`). An exact match on one field is given once, however it is written.
 */
function filterParameters(parameters: QueryParameters, spec: ListSpec): ListCondition[] {
  const where: ListCondition[] = [];
  const exact = new Set<string>();
  for (const key of Object.keys(parameters.query)) {
    if (reserved.has(key) && key !== "filter") continue;
    const bracket = bracketFilter(key);
    const parsed = bracket
      ? bracketParameter(parameters, spec, key, bracket)
      : key === "filter" || key.startsWith("filter[")
        ? parameters.fail(
            key,
            "A filter is written filter[field]=value or filter[field][operator]=value.",
          )
        : fieldParameter(parameters, spec, key);
    if (parsed === undefined) continue;
    const { field, errorKey, op, value } = parsed;
    if (op === "eq" && exact.has(field)) {
      parameters.fail(errorKey, `The ${label(field)} filter is given more than once.`);
      continue;
    }
    if (op === "eq") exact.add(field);
    where.push(
      spec.filters[field] === "relation"
        ? { relation: field, op: op as "eq" | "in" | "null", value }
        : { column: field, op, value },
    );
  }
  return where;
}

/** A filter parameter read: its field, operator and value, and the key its errors go under. */
interface ParsedFilter {
  field: string;
  errorKey: string;
  op: FilterOperator;
  value: unknown;
}

/** `?filter[field]=v` or `?filter[field][op]=v`, as the field's kind and operators allow. */
function bracketParameter(
  parameters: QueryParameters,
  spec: ListSpec,
  key: string,
  { field, operator }: { field: string; operator: string },
): ParsedFilter | undefined {
  const errorKey = `filter.${field}`;
  // Own keys only: `?filter[constructor]=x` must not find Object.prototype.constructor.
  if (!Object.hasOwn(spec.filters, field))
    return parameters.fail(errorKey, `The ${label(field)} field cannot be filtered.`);
  const problem = operatorProblem(spec, field, operator);
  if (problem) return parameters.fail(errorKey, problem);
  const raw = parameters.single(key, errorKey);
  if (raw === undefined) return undefined;
  const op = operator as FilterOperator;
  const operand = filterOperand(spec, field, op, raw);
  if ("problem" in operand) return parameters.fail(errorKey, operand.problem);
  return { field, errorKey, op, value: operand.value };
}

/** The older form `?field=v`: an exact match, named by the field itself. */
function fieldParameter(
  parameters: QueryParameters,
  spec: ListSpec,
  key: string,
): ParsedFilter | undefined {
  const kind = Object.hasOwn(spec.filters, key) ? spec.filters[key] : undefined;
  if (kind === undefined)
    return parameters.fail(key, `The ${label(key)} parameter is not supported.`);
  const raw = parameters.single(key);
  if (raw === undefined) return undefined;
  if (kind === "enum") {
    // Laravel's `in` message: a value outside the field's values would only ever match no row.
    if (spec.values?.[key]?.includes(raw))
      return { field: key, errorKey: key, op: "eq", value: raw };
    return parameters.fail(key, `The selected ${label(key)} is invalid.`);
  }
  const value = parseQueryValue(kind, raw);
  if (value === undefined)
    return parameters.fail(key, `The ${label(key)} filter is not a valid ${kindNoun(kind)}.`);
  return { field: key, errorKey: key, op: "eq", value };
}

/** `?cursor=`: empty for the first page, else a position sealed for this very query. */
function cursorParameter(
  rawCursor: string | undefined,
  req: Request,
  spec: ListSpec,
  orderBy: ListQuery["orderBy"],
  fail: QueryParameters["fail"],
): ListQuery["cursor"] {
  if (rawCursor === undefined) return undefined;
  if (!spec.cursors) return fail("cursor", "The cursor parameter is not supported here.");
  const binding = cursorBinding(req);
  if (rawCursor === "") return { position: null, binding };
  const position =
    rawCursor.length <= maxQueryText ? spec.cursors.open(rawCursor, binding) : undefined;
  // Ours, for this very query, with one value per order key: anything else was not issued here.
  if (position === undefined || position.values.length !== orderKeyCount(orderBy))
    return fail("cursor", "The cursor is invalid.");
  return { position, binding };
}

function orderKeyCount(orderBy: ListQuery["orderBy"]): number {
  return orderBy.reduce((count, entry) => count + Object.keys(entry).length, 0);
}

/** The parameters a cursor is not bound to: they change the page's size or nesting, not its rows. */
const unboundParameters = new Set(["cursor", "page", "per_page", "with"]);

/**
 * What a cursor is sealed for: the path, the caller and the tenant it works in (a cursor of one
 * tenant opens no page of another), and every parameter that decides which rows come in which
 * order (all but the page, its size and the nested relations), in a fixed order.
 */
export function cursorBinding(req: Request): string {
  const parameters = Object.entries(req.query)
    .filter(([key]) => !unboundParameters.has(key))
    .map(([key, value]) => [key, String(value)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  const caller = req.user?.hash ?? null;
  const tenant = req.user?.tenant?.hash;
  return JSON.stringify([
    routedPath(req),
    tenant === undefined ? caller : [caller, tenant],
    parameters,
  ]);
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
  const query: Record<string, unknown> = req.query;
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

export function integerParameter(
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
