// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { listQuery, type ListParams } from "./query.js";
import { ApiError, type ApiFailure, type Result } from "./result.js";
import type { Transport } from "./transport.js";

/**
 * What the generated types say about one resource: its record as output (belongsTo relations as
 * hashes), its hash, its payloads, its list parameters, and each relation's record when `with`
 * loads it. The client's methods are typed by it; nothing here is inferred from values.
 */
export interface ResourceTypes {
  readonly Record: object;
  readonly Hash: string;
  readonly Create: object;
  readonly Update: object;
  readonly Params: ListParams;
  readonly Relation: string;
  readonly Loaded: object;
}

/** The record with the relations named in `W` loaded (a related record, or a list of them). */
export type WithLoaded<T extends ResourceTypes, W> = [W] extends [never]
  ? T["Record"]
  : Omit<T["Record"], W & keyof T["Record"]> & Pick<T["Loaded"], W & keyof T["Loaded"]>;

/**
 * A call's parameters, with the relations its `with` names as `W`: inferred from the argument
 * alone (never from where the result goes), and nothing when `with` is absent.
 */
type WithParams<T extends ResourceTypes, W> = Omit<T["Params"], "with"> & {
  readonly with?: readonly W[];
};

export interface PageLinks {
  readonly first: string | null;
  readonly last: string | null;
  readonly prev: string | null;
  readonly next: string | null;
}

export interface PageMeta {
  readonly current_page: number;
  readonly from: number | null;
  readonly last_page: number;
  readonly path: string;
  readonly per_page: number;
  readonly to: number | null;
  readonly total: number;
}

/** A page in cursor mode (`cursor` given): no total, the cursors of the pages beside it. */
export interface CursorMeta {
  readonly path: string;
  readonly per_page: number;
  readonly next_cursor: string | null;
  readonly prev_cursor: string | null;
}

/** A list answer as the API sends it. */
export interface Page<Item, Meta = PageMeta | CursorMeta> {
  readonly data: Item[];
  readonly links: Partial<PageLinks>;
  readonly meta: Meta;
}

type Failure<Key extends string = string> = ApiFailure<Key>;

const segment = (hash: string) => `/${encodeURIComponent(hash)}`;

/** The routes of one collection (`/api/patients`), typed by `T`. */
export function resourceClient<T extends ResourceTypes>(transport: Transport, path: string) {
  const list = <const W extends T["Relation"] = never>(params?: WithParams<T, W>) =>
    transport.call("GET", `${path}${listQuery(params)}`, "page") as Promise<
      Result<Page<WithLoaded<T, NoInfer<W>>>, Failure<string>>
    >;
  return {
    list,
    /**
     * Every record the list parameters match, walked page by page with cursors (`cursor` and `page`
     * are its own); an API error ends the walk by throwing an ApiError.
     */
    async *all<const W extends T["Relation"] = never>(
      params?: Omit<WithParams<T, W>, "cursor" | "page">,
    ): AsyncGenerator<WithLoaded<T, NoInfer<W>>, void, undefined> {
      let cursor: string | null = "";
      while (cursor !== null) {
        const result: Result<Page<WithLoaded<T, W>>, Failure<string>> = await list<W>({
          ...params,
          cursor,
        } as WithParams<T, W>);
        if (result.error !== undefined) throw new ApiError(result.error);
        yield* result.data.data;
        cursor = (result.data.meta as CursorMeta).next_cursor ?? null;
      }
    },
    get: <const W extends T["Relation"] = never>(
      hash: T["Hash"],
      options?: { readonly with?: readonly W[] },
    ) =>
      transport.call(
        "GET",
        `${path}${segment(hash)}${listQuery(options?.with ? { with: options.with } : {})}`,
        "data",
      ) as Promise<Result<WithLoaded<T, NoInfer<W>>, Failure>>,
    create: (payload: T["Create"]) =>
      transport.call<T["Record"]>("POST", path, "data", payload) as Promise<
        Result<T["Record"], Failure<keyof T["Create"] & string>>
      >,
    update: (hash: T["Hash"], payload: T["Update"]) =>
      transport.call<T["Record"]>("PATCH", `${path}${segment(hash)}`, "data", payload) as Promise<
        Result<T["Record"], Failure<keyof T["Update"] & string>>
      >,
    delete: (hash: T["Hash"]) =>
      transport.call<{ message: string }>("DELETE", `${path}${segment(hash)}`, "message"),
  };
}

/** `restore`, on a resource with soft delete. */
export function restorable<T extends ResourceTypes>(transport: Transport, path: string) {
  return {
    restore: (hash: T["Hash"]) =>
      transport.call<T["Record"]>("POST", `${path}${segment(hash)}/restore`, "data"),
  };
}

/**
 * One event of a record's history (a resource with `audit`): what changed, as `[before, after]` per
 * output key (a belongsTo as its hash) or relation (a link), and who wrote it (null: a script).
 */
export interface HistoryEntry<T extends ResourceTypes> {
  readonly event: string;
  readonly at: string;
  /** `{ hash: null, name: null }` to a client without a token: a user wrote, not shown who. */
  readonly actor:
    | { readonly hash: `USR_${string}`; readonly name: string | null }
    | { readonly hash: null; readonly name: null }
    | null;
  readonly changes: {
    readonly [Key in (keyof T["Record"] | T["Relation"]) & string]?: readonly [unknown, unknown];
  };
}

/** `history`, on a resource with `audit`: the record's events, newest first, paged as lists are. */
export function audited<T extends ResourceTypes>(transport: Transport, path: string) {
  return {
    history: (hash: T["Hash"], params?: Pick<ListParams, "page" | "perPage" | "cursor">) =>
      transport.call(
        "GET",
        `${path}${segment(hash)}/history${listQuery(params)}`,
        "page",
      ) as Promise<Result<Page<HistoryEntry<T>>, Failure<string>>>,
  };
}

/**
 * A belongsToMany's own routes (`/api/doctors/{hash}/specialties`): the linked records, with their
 * link's `pivot` values; linking one (with pivot values) and unlinking it.
 */
export function linkedClient<Owner extends string, T extends ResourceTypes, Pivot extends object>(
  transport: Transport,
  path: string,
  relation: string,
) {
  return (owner: Owner) => {
    const base = `${path}${segment(owner)}/${relation}`;
    return {
      list: <const W extends T["Relation"] = never>(params?: WithParams<T, W>) =>
        transport.call("GET", `${base}${listQuery(params)}`, "page") as Promise<
          Result<Page<WithLoaded<T, NoInfer<W>> & { pivot?: Pivot }>, Failure<string>>
        >,
      attach: (related: T["Hash"], pivot?: Pivot) =>
        transport.call<T["Record"] & { pivot?: Pivot }>(
          "PUT",
          `${base}${segment(related)}`,
          "data",
          pivot ?? {},
        ) as Promise<Result<T["Record"] & { pivot?: Pivot }, Failure<keyof Pivot & string>>>,
      detach: (related: T["Hash"]) =>
        transport.call<{ message: string }>("DELETE", `${base}${segment(related)}`, "message"),
    };
  };
}

/** A collection's routes, typed by `T`: what `resourceClient` returns. */
export type ResourceRoutes<T extends ResourceTypes> = ReturnType<typeof resourceClient<T>>;

/** The restore route of a resource with soft delete. */
export type RestoreRoute<T extends ResourceTypes> = ReturnType<typeof restorable<T>>;

/** The history route of a resource with `audit`. */
export type HistoryRoute<T extends ResourceTypes> = ReturnType<typeof audited<T>>;

/** A belongsToMany's own routes, given the owner's hash. */
export type LinkedRoutes<
  Owner extends string,
  T extends ResourceTypes,
  Pivot extends object,
> = ReturnType<typeof linkedClient<Owner, T, Pivot>>;
