// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListQuery } from "../http/list-query.js";
import { NotFound } from "../base/errors.js";
import { hashMatcher } from "../base/hash-id.js";
import {
  columnsOf,
  relationsOfKind,
  type FindOptions,
  type OutputRead,
  type StoredRow,
  type Table,
} from "../data/table.js";
import type { ResourceDescriptor } from "./descriptor.js";
import { cursorKeys } from "./cursor-keys.js";
import { readCursorPage, readPage, type CursorQuery } from "./list-pages.js";

/** The caller's reach: a policy's scope of this resource, and of each nested hasMany's resource. */
export type Reach = Pick<FindOptions<unknown>, "scope" | "scopeOf">;

/** The reads of one resource (ResourceService adds its writes): lists, pages, records by hash. */
export class ResourceReads<
  Model,
  Row extends StoredRow,
  Create extends object,
  Update extends object,
> {
  /** This resource's public ids: any other hash finds nothing. */
  protected readonly ownHash: RegExp;
  private readonly kinds: ReturnType<typeof columnsOf>;
  /** How a list read only for the serializer is made: no join for a belongsTo it never outputs. */
  private readonly outputRead: OutputRead;

  constructor(
    readonly resource: ResourceDescriptor<Model, Row, Create, Update>,
    readonly table: Table<Model, Row>,
  ) {
    this.ownHash = hashMatcher(resource.prefix);
    this.kinds = columnsOf(resource.table);
    this.outputRead = {
      unshown: relationsOfKind(resource.table, "belongsTo")
        .map(([name]) => name)
        .filter((name) => !resource.output.includes(name)),
    };
  }

  /**
   * A page of records and their total, within the caller's reach (Reach: a policy's scope).
   * `forOutput`: the rows go to the serializer and nowhere else, so their dates may stay as stored
   * (FindOptions.forOutput); rows that code reads are read without it.
   */
  list(
    query: ListQuery,
    reach: Reach = {},
    forOutput = false,
  ): Promise<{ rows: Row[]; total: number }> {
    const output = forOutput ? this.outputRead : undefined;
    return readPage(this.table, query, this.filtering(query, reach), output);
  }

  /** A cursor page (`?cursor=`, list-pages.ts) within the caller's reach. */
  cursorPage(query: CursorQuery, reach: Reach = {}): Promise<{ rows: Row[]; more: boolean }> {
    return readCursorPage(this.table, this.kinds, query, this.filtering(query, reach));
  }

  /** The order keys of `row` as a cursor holds them (cursor-keys.ts). */
  cursorOf(orderBy: ListQuery["orderBy"], row: Row): unknown[] {
    return cursorKeys(this.kinds, orderBy, row);
  }

  /** A list query as this resource reads it: a subclass may normalize values (see users.service.ts). */
  protected listed(query: ListQuery): ListQuery {
    return query;
  }

  /** The rows a list query selects, before order and paging: its conditions, trash, reach (its nested lists' too). */
  private filtering(listQuery: ListQuery, reach: Reach): FindOptions<Model> {
    const query = this.listed(listQuery);
    const options: FindOptions<Model> = { conditions: query.where, withTrashed: query.withTrashed };
    if (reach.scope) options.scope = reach.scope;
    if (reach.scopeOf) options.scopeOf = reach.scopeOf;
    return options;
  }

  /** A live record by hash; a malformed hash or one of another resource is simply not found. */
  find(hash: string, relations: readonly string[] = [], reach: Reach = {}): Promise<Row> {
    return this.findBy(hash, false, relations, reach);
  }

  /** A soft-deleted record by hash, for restore; a live or unknown one is not found. */
  findTrashed(hash: string, relations: readonly string[] = [], reach: Reach = {}): Promise<Row> {
    if (!this.resource.table.softDelete) return Promise.reject(new NotFound());
    return this.findBy(hash, true, relations, reach);
  }

  /** A record by hash, live or soft-deleted (a history is read for either). */
  findEither(hash: string, reach: Reach = {}): Promise<Row> {
    return this.findBy(hash, undefined, [], reach);
  }

  private async findBy(
    hash: string,
    deleted: boolean | undefined,
    relations: readonly string[],
    reach: Reach,
  ): Promise<Row> {
    const where = deleted === undefined ? { hash } : { hash, deleted };
    const row = this.ownHash.test(hash) ? await this.table.findOne(where, relations, reach) : null;
    if (!row) throw new NotFound();
    return row;
  }
}
