// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * A list's parameters as the API reads them from the query string: `filter[field][op]=value`
 * (lists comma-separated), `sort=name,-created_at`, `with=a,b`, `search`, `page`, `per_page`,
 * `cursor`, `with_trashed`, `only_trashed`. The generated types say which fields, operators and values a resource
 * takes; this only spells them.
 */

/** A filter value as written: a scalar, a list (`in`, `nin`), a pair (`between`), a flag (`null`). */
export type FilterValue = string | number | boolean | readonly (string | number)[];

export interface ListParams {
  readonly filter?: {
    readonly [field: string]: { readonly [op: string]: FilterValue | undefined } | undefined;
  };
  readonly search?: string;
  readonly sort?: readonly string[];
  readonly with?: readonly string[];
  readonly page?: number;
  readonly perPage?: number;
  /** Cursor mode: "" for the first page, then a page's `meta.next_cursor` or `prev_cursor`. */
  readonly cursor?: string;
  readonly withTrashed?: boolean;
  /** The soft-deleted records alone. */
  readonly onlyTrashed?: boolean;
}

function text(value: FilterValue): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}

/** `?…` for a list call (empty without parameters). */
export function listQuery(params: ListParams = {}): string {
  const query = new URLSearchParams();
  for (const [field, operators] of Object.entries(params.filter ?? {}))
    for (const [op, value] of Object.entries(operators ?? {}))
      if (value !== undefined) query.append(`filter[${field}][${op}]`, text(value));
  if (params.search !== undefined) query.append("search", params.search);
  if (params.sort?.length) query.append("sort", params.sort.join(","));
  if (params.with?.length) query.append("with", params.with.join(","));
  if (params.page !== undefined) query.append("page", String(params.page));
  if (params.perPage !== undefined) query.append("per_page", String(params.perPage));
  if (params.cursor !== undefined) query.append("cursor", params.cursor);
  if (params.withTrashed !== undefined) query.append("with_trashed", String(params.withTrashed));
  if (params.onlyTrashed !== undefined) query.append("only_trashed", String(params.onlyTrashed));
  const written = query.toString();
  return written === "" ? "" : `?${written}`;
}
