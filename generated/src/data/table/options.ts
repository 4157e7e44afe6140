// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListCondition } from "../list-conditions.js";
import type { OrderBy, Reach, Where } from "./spec.js";

/** What a read asks for: which rows, in which order, how many, with which relations. */
export interface FindOptions<Model> {
  where?: Where<Model>;
  /** The caller's reach: rows outside it (outside any of them, for a list) are not read, not counted. */
  scope?: Reach;
  /** The reach within each loaded hasMany relation, by relation name. */
  scopeOf?: (relation: string) => Reach | undefined;
  orderBy?: OrderBy<Model>;
  /**
   * A list query's order (http/list-query.ts), when no `orderBy` is given: column names a request
   * chose, checked against the resource's sortable fields there and the table's columns here.
   */
  listOrder?: readonly Partial<Record<string, "asc" | "desc">>[];
  /** belongsTo relation name → the related record's hash (for code: an `eq` relation condition). */
  related?: Readonly<Record<string, string>>;
  /** A list query's conditions (filters, `?search=`, a relation's own list), ANDed: see list-conditions.ts. */
  conditions?: readonly ListCondition[];
  /** Soft-deleted rows too, or (`only`) them alone (tables without soft delete have none). */
  withTrashed?: boolean | "only";
  /**
   * A cursor's position: the values of the row the page starts after, one per `orderBy` key
   * (already the column's values, see column-codec.ts fromCursorValue).
   */
  after?: readonly unknown[];
  limit?: number;
  offset?: number;
  /** Relations to load: belongsTo ones come back as records instead of `{ hash }`, hasMany ones as arrays. */
  relations?: readonly string[];
  /**
   * The rows are read only to be serialized (never for rows that code reads: services, policies,
   * cursors): see OutputRead.
   */
  forOutput?: OutputRead;
}

/**
 * A read for the serializer only. Its dates, nested ones too, stay as stored (column-codec.ts
 * decoderOf), and the belongsTo relations in `unshown` (whose hash the resource never outputs, a
 * doctor's user account, say) are not joined: the record has no such key.
 */
export interface OutputRead {
  readonly unshown: readonly string[];
}

/** What narrows a count: the filtering options of a read. */
export type CountOptions<Model> = Pick<
  FindOptions<Model>,
  "where" | "related" | "withTrashed" | "scope" | "conditions"
>;
