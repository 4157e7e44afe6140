// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { parseDate, parseDateTime } from "../lib/dates.js";
import { emptyFieldErrors, ValidationFailed } from "../lib/errors.js";
import { anyHashPattern, reservedQueryParameters, uuidPattern } from "../lib/public-names.js";

/** How a filter value from the query string becomes a typed value for an exact match. */
export const filterKinds = [
  "string",
  "enum",
  "uuid",
  "integer",
  "decimal",
  "boolean",
  "date",
  "datetime",
  "relation",
] as const;
export type FilterKind = (typeof filterKinds)[number];

// Anything else matches no row, and PostgreSQL's uuid type would refuse it outright.
const uuidText = new RegExp(uuidPattern);
/** How a filter's kind is named in its message, where that is not the kind itself. */
const kindNouns: Partial<Record<FilterKind, string>> = { relation: "identifier", uuid: "UUID" };

export interface ListSpec {
  sortable: readonly string[];
  filters: Readonly<Record<string, FilterKind>>;
  /** The values each enum filter accepts. */
  values?: Readonly<Record<string, readonly string[]>>;
  relations: readonly string[];
  softDelete: boolean;
  defaultPerPage: number;
  maxPerPage: number;
}

export interface ListQuery {
  page: number;
  perPage: number;
  /** Exact-match filters; a relation filter holds the related record's hash. */
  filters: Record<string, string | number | boolean | Date>;
  orderBy: Record<string, "asc" | "desc">[];
  relations: string[];
  withTrashed: boolean;
}

const reserved = new Set<string>(reservedQueryParameters);
const anyHash = new RegExp(anyHashPattern);

/** The last page a client may ask for: keeps every offset a safe integer on both databases. */
export const maxPage = 2_147_483_647;
// Integer columns are 32-bit (Prisma's Int): a filter value outside them matches nothing and would
// make PostgreSQL fail, so it is refused like any other invalid value.
const int32 = { min: -2_147_483_648, max: 2_147_483_647 };

function label(name: string): string {
  return name.replaceAll("_", " ");
}

/**
 * Validates every list query parameter (docs/api-contract.md §4 in hashapi): an unknown parameter, relation, sort
 * field or a repeated parameter is a 422, never silently ignored and never a 500.
 */
export function parseListQuery(req: Request, spec: ListSpec): ListQuery {
  const errors = emptyFieldErrors();
  const fail = (key: string, message: string) => (errors[key] ??= []).push(message);
  const query = req.query as Record<string, unknown>;
  const single = (key: string): string | undefined => {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      fail(key, `The ${label(key)} parameter must be given once.`);
      return undefined;
    }
    return value;
  };

  const page = integerParameter(single("page"), 1, 1, maxPage, "page", fail);
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

  const filters: ListQuery["filters"] = {};
  for (const key of Object.keys(query)) {
    if (reserved.has(key)) continue;
    // Own keys only: `?constructor=x` must not find Object.prototype.constructor.
    const kind = Object.hasOwn(spec.filters, key) ? spec.filters[key] : undefined;
    if (kind === undefined) {
      fail(key, `The ${label(key)} parameter is not supported.`);
      continue;
    }
    const raw = single(key);
    if (raw === undefined) continue;
    if (kind === "enum") {
      // Laravel's `in` message: a value outside the field's values would only ever match no row.
      if (spec.values?.[key]?.includes(raw)) filters[key] = raw;
      else fail(key, `The selected ${label(key)} is invalid.`);
      continue;
    }
    const value = filterValue(kind, raw);
    if (value === undefined)
      fail(key, `The ${label(key)} filter is not a valid ${kindNouns[kind] ?? kind}.`);
    else filters[key] = value;
  }

  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return { page, perPage, filters, orderBy, relations, withTrashed };
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

function filterValue(kind: FilterKind, raw: string): string | number | boolean | Date | undefined {
  switch (kind) {
    case "integer": {
      if (!/^-?\d{1,10}$/.test(raw)) return undefined;
      const value = Number(raw);
      return value >= int32.min && value <= int32.max ? value : undefined;
    }
    case "decimal":
      return /^-?\d{1,65}(\.\d{1,30})?$/.test(raw) ? raw : undefined;
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : undefined;
    case "date":
      return parseDate(raw);
    case "datetime":
      return parseDateTime(raw);
    case "relation":
      return anyHash.test(raw) ? raw : undefined;
    case "uuid":
      return uuidText.test(raw) ? raw : undefined;
    default:
      // PostgreSQL refuses NUL in text; such a value can match nothing anywhere.
      return raw.includes("\u0000") ? undefined : raw;
  }
}
