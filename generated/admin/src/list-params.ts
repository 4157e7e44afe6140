// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { listQuery, type ListParams } from "../../client/src/core.js";

/** A list's state as the page holds it: the client's parameters, with filters as rows. */
export interface ListState {
  readonly search: string;
  /** `name` or `-name`; empty: the API's default order. */
  readonly sort: string;
  readonly filters: readonly FilterRow[];
  readonly page: number;
  readonly perPage: number | undefined;
  /** Cursor paging: "" for the first page; undefined for numbered pages. */
  readonly cursor: string | undefined;
}

export interface FilterRow {
  readonly field: string;
  readonly op: string;
  readonly value: string;
}

const filterKey = /^filter\[([A-Za-z0-9_]+)\]\[([a-z_]+)\]$/;

/** The state an address's query gives (unknown keys ignored: the API decides the rest). */
export function stateOfQuery(query: string): ListState {
  const params = new URLSearchParams(query);
  const filters: FilterRow[] = [];
  for (const [key, value] of params) {
    const match = filterKey.exec(key);
    if (match) filters.push({ field: match[1]!, op: match[2]!, value });
  }
  const page = Number(params.get("page") ?? "1");
  const perPage = Number(params.get("per_page") ?? "");
  return {
    search: params.get("search") ?? "",
    sort: params.get("sort") ?? "",
    filters,
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
    perPage: Number.isSafeInteger(perPage) && perPage > 0 ? perPage : undefined,
    cursor: params.get("cursor") ?? undefined,
  };
}

/** The client's parameters of a state (filters with an empty value are left out). */
export function paramsOf(state: ListState): ListParams {
  const filter: Record<string, Record<string, string>> = {};
  for (const row of state.filters)
    if (row.value !== "" || row.op === "null") (filter[row.field] ??= {})[row.op] = row.value;
  return {
    ...(Object.keys(filter).length > 0 ? { filter } : {}),
    ...(state.search.trim() !== "" ? { search: state.search.trim() } : {}),
    ...(state.sort !== "" ? { sort: [state.sort] } : {}),
    ...(state.cursor !== undefined
      ? { cursor: state.cursor }
      : state.page > 1
        ? { page: state.page }
        : {}),
    ...(state.perPage !== undefined ? { perPage: state.perPage } : {}),
  };
}

/** The address query of a state: the API's own list query, without its `?`. */
export function queryOfState(state: ListState): string {
  return listQuery(paramsOf(state)).replace(/^\?/, "");
}

/** The next sort of a column header: ascending, then descending, then the default order. */
export function nextSort(current: string, key: string): string {
  if (current === key) return `-${key}`;
  if (current === `-${key}`) return "";
  return key;
}
