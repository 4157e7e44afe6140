// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue, encodeValue, type ColumnKind } from "./column-codec.js";
import type { Actor } from "./outbox.js";
import type { LinkOwner } from "./link-events.js";
import { attachLink, detachLink, syncLinks, type Link } from "./relations/belongs-to-many.js";
import type { Sql, SqlRow } from "../db/sql.js";
import { belongsToManyOf, tableContext, type TableContext } from "./table/context.js";
import { withPivot } from "./table/nested.js";
import type { CountOptions, FindOptions } from "./table/options.js";
import { lockReached, reachConditions, reachedRow, reachedRows } from "./table/reach.js";
import * as reads from "./table/reads.js";
import type { HeldBack } from "./table/cascade.js";
import { restore, softDelete, whatHoldsBack, type Restored } from "./table/soft-delete.js";
import {
  fromClause,
  tenantOfRow,
  type Reach,
  type RowKey,
  type StoredRow,
  type TableSpec,
  type Where,
  type Writable,
} from "./table/spec.js";
import * as writes from "./table/writes.js";
import * as oneStatement from "./table/one-statement.js";

export { decodeValue, encodeValue, type ColumnKind };
export type { StatementEvent } from "./table/one-statement.js";
export type { CountOptions, FindOptions, OutputRead } from "./table/options.js";
export {
  bothScopes,
  columnsOf,
  defineTable,
  readableColumnsOf,
  rootAlias,
  relationOfKind,
  relationsOfKind,
  scopeList,
  tenantOfRow,
  type BelongsToSpec,
  type ColumnOf,
  type ForeignKeySpec,
  type HasManySpec,
  type ManyToManySpec,
  type OrderBy,
  type Reach,
  type RelationKindName,
  type RelationSpec,
  type RowKey,
  type RowScope,
  type StandardColumn,
  type StoredRow,
  type TableDeclaration,
  type TableSpec,
  type Where,
  type Writable,
} from "./table/spec.js";

/**
 * Typed reads and writes of one table, with statements built once per shape and prepared once by
 * the driver: the one object services hold. Each method is one module's work (lib/table/: reads,
 * writes, reach, nested lists, soft delete); this class types its rows as the model's.
 */
export class Table<Model, Row = Model> {
  private readonly context: TableContext;

  constructor(
    readonly sql: Sql,
    readonly spec: TableSpec<Model, Row>,
    /** The same table on another handle, whose columns and statement shapes this one shares. */
    shared?: TableContext,
  ) {
    this.context = shared ? { ...shared, sql } : tableContext(sql, spec as TableSpec);
  }

  /**
   * This table on another handle (a transaction's), sharing its statement shapes: every read and
   * write of the copy runs on `sql`.
   */
  within(sql: Sql): Table<Model, Row> {
    return sql === this.sql ? this : new Table(sql, this.spec, this.context);
  }

  /** One row by hash or id (live only, trashed only, or either), with the relations asked for. */
  async findOne(
    where: reads.OneRow,
    relations: readonly string[] = [],
    reach: Pick<FindOptions<Model>, "scope" | "scopeOf"> = {},
  ): Promise<Row | null> {
    return (await reads.findOne(this.context, where, relations, reach)) as Row | null;
  }

  /** The rows that match, in order: live ones only unless `withTrashed`. */
  findMany(options: FindOptions<Model> = {}): Promise<Row[]> {
    return reads.findMany(this.context, options as FindOptions<object>) as Promise<Row[]>;
  }

  count(options: CountOptions<Model> = {}): Promise<number> {
    return reads.count(this.context, options as CountOptions<object>);
  }

  /** How many of the rows `ids` name (once each) match every column = value pair. */
  countAmong(ids: readonly number[], where: Readonly<Record<string, unknown>>): Promise<number> {
    return reads.countAmong(this.context, ids, where);
  }

  /**
   * Whether a row (live or not) matches every column = value pair, other than the row `exceptId`;
   * a `caseless` column matches regardless of case.
   */
  exists(where: Where<Model>, exceptId?: number): Promise<boolean> {
    return reads.exists(this.context, where, exceptId);
  }

  /**
   * The internal id of a live row, for writing a foreign key from a hash. Inside a transaction,
   * `lock: "share"` keeps the row live until the transaction ends: a concurrent delete waits, then
   * sees the new reference. `scope`: what the row must also match, checked under the same lock (the
   * caller's reach: an owned parent, a policy's scope); null when it does not.
   */
  async liveId(hash: string, lock?: "share", scope?: Reach): Promise<number | null> {
    const row = await reachedRow(this.context, "hash", hash, lock, scope);
    return row ? Number(row.id) : null;
  }

  /** liveId for several hashes in one statement: hash → id of those live (and within `scope`). */
  liveIds(hashes: readonly string[], lock?: "share", scope?: Reach): Promise<Map<string, number>> {
    return reachedRows(this.context, hashes, lock, scope);
  }

  /** Locks row `id` for a write and decides under that lock whether the caller still reaches it (reach.ts). */
  lockReached(key: RowKey, state: "live" | "trashed", scope?: Reach): Promise<SqlRow | null> {
    return lockReached(this.context, key, state, scope);
  }

  /** Inserts a row (timestamps set here, as Prisma's @default(now()) and @updatedAt would) and returns its id. */
  insert(values: Writable<Model> & { hash: string }): Promise<number> {
    return writes.insert(this.context, values);
  }

  /** Inserts a row and reads it back with the relations asked for (writes.ts). */
  async insertAndRead(
    values: Writable<Model> & { hash: string },
    relations: readonly string[] = [],
  ): Promise<Row> {
    return (await writes.insertAndRead(this.context, values, relations)) as Row;
  }

  /**
   * Updates the given columns (and updated_at) of one row; false when no row has that id (with
   * `live`, none that is live: a row soft-deleted since it was read is not written).
   */
  update(id: number, values: Writable<Model>, live = false): Promise<boolean> {
    return writes.update(this.context, id, values, live);
  }

  /** Updates one row and reads it back (see insertAndRead and update); null when none was written. */
  async updateAndRead(
    id: number,
    values: Writable<Model>,
    relations: readonly string[] = [],
    live = false,
  ): Promise<Row | null> {
    return (await writes.updateAndRead(this.context, id, values, relations, live)) as Row | null;
  }

  /**
   * Whether a write read back with `relations` can be one statement with its event here (the
   * database has one, and the written row is the whole read): see table/one-statement.ts.
   */
  writesInOneStatement(relations: readonly string[] = []): boolean {
    return oneStatement.writesInOneStatement(this.context, relations);
  }

  /** Inserts a row and its event in one statement (see writesInOneStatement). */
  async insertWithEvent(
    values: Writable<Model> & { hash: string },
    event: oneStatement.StatementEvent,
  ): Promise<Row> {
    return (await oneStatement.insertWithEvent(this.context, values, event)) as Row;
  }

  /** Updates a row (by id or hash) and writes its event in one statement; null when none was written. */
  async updateWithEvent(
    row: RowKey,
    values: Writable<Model>,
    live: boolean,
    event: oneStatement.StatementEvent,
  ): Promise<Row | null> {
    return (await oneStatement.updateWithEvent(
      this.context,
      row,
      values,
      live,
      event,
    )) as Row | null;
  }

  /** Deletes one row with its event and those of what the database's foreign keys do (writes.ts). */
  delete(id: number, actor: Actor | null = null): Promise<"deleted" | "referenced" | "gone"> {
    return writes.deleteRow(this.context, id, actor);
  }

  /** Soft-deletes a live row with its relations' onDelete, all or nothing, with their events (soft-delete.ts). */
  softDelete(id: number, actor: Actor | null = null): Promise<"deleted" | "referenced" | "gone"> {
    return softDelete(this.context, id, actor);
  }

  /** What holds a delete of row `id` back (a live row pointing at it, or at a row its cascade takes, through restrict). */
  whatHoldsBack(id: number): Promise<HeldBack | undefined> {
    return whatHoldsBack(this.context, id);
  }

  /** Restores a soft-deleted row with what its delete cascaded to, with their events (soft-delete.ts). */
  restore(id: number, actor: Actor | null = null): Promise<Restored> {
    return restore(this.context, id, actor);
  }

  /** The pivot values of row `ownId`'s links to `records` (set as their `pivot`), for a relation's own list. */
  withPivot(ownId: number, name: string, records: readonly Record<string, unknown>[]) {
    return withPivot(this.context, ownId, name, records);
  }

  /**
   * Links `owner` to exactly `links` through relation `name`, among the related rows the caller
   * reaches (`scope`, live ones), with an event per link added or removed: see
   * relations/belongs-to-many.ts syncLinks.
   */
  syncLinks(
    owner: StoredRow,
    name: string,
    links: readonly Link[],
    scope: Reach | undefined,
    actor: Actor | null,
  ): Promise<void> {
    const relation = belongsToManyOf(this.context, name);
    const target = tableContext(this.sql, relation.target());
    // The related rows the caller reaches, read under the alias their conditions name.
    return syncLinks(this.sql, relation, name, this.linkOwner(owner, actor), links, (values) => ({
      from: fromClause(target.spec),
      conditions: reachConditions(target, scope, values),
    }));
  }

  /** Links `owner` to one related row (idempotent; pivot values given are written), with its event. */
  attach(owner: StoredRow, name: string, link: Link, actor: Actor | null): Promise<void> {
    const relation = belongsToManyOf(this.context, name);
    return attachLink(this.sql, relation, name, this.linkOwner(owner, actor), link);
  }

  /** Unlinks `owner` from one related row, with its event; false when they were not linked. */
  detach(owner: StoredRow, name: string, otherId: number, actor: Actor | null): Promise<boolean> {
    const relation = belongsToManyOf(this.context, name);
    return detachLink(this.sql, relation, name, this.linkOwner(owner, actor), otherId);
  }

  private linkOwner(owner: StoredRow, actor: Actor | null): LinkOwner {
    return {
      id: owner.id,
      hash: owner.hash,
      event: this.context.spec.event,
      actor,
      tenant: tenantOfRow(this.context.spec, owner),
    };
  }
}

/** A table of any resource, for code that handles every resource alike (the registry, cascades). */
export type AnyTable = Table<object, StoredRow>;

/**
 * The Table of each TableSpec among `tables` (what openTables(db) returns: its `sql` handle is not a
 * table), for code that knows a resource by its declaration.
 */
export function tableLookup(
  tables: Readonly<Record<string, unknown>>,
): (spec: TableSpec) => AnyTable {
  const bySpec = new Map<TableSpec, AnyTable>();
  for (const table of Object.values(tables))
    if (table instanceof Table) bySpec.set(table.spec, table);
  return (spec) => {
    const table = bySpec.get(spec);
    if (!table) throw new Error(`No table for ${spec.name}`);
    return table;
  };
}
