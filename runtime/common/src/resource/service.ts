// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListQuery } from "../http/list-query.js";
import { isForeignKeyViolation, isUniqueViolation } from "../db/database.js";
import { appendEvents } from "../data/outbox.js";
import { Conflict, NotFound, type FieldErrors } from "../base/errors.js";
import { hashMatcher, newHash } from "../base/hash-id.js";
import { propertyOf } from "../base/records.js";
import type { Sql, SqlRow } from "../db/sql.js";
import {
  columnsOf,
  relationOfKind,
  relationsOfKind,
  type FindOptions,
  type OutputRead,
  type RelationKindName,
  type AnyTable,
  type RowKey,
  type StatementEvent,
  type StoredRow,
  type Table,
  type TableSpec,
  type Writable,
} from "../data/table.js";
import type { ResourceDescriptor } from "./descriptor.js";
import { cursorKeys } from "./cursor-keys.js";
import { readCursorPage, readPage, type CursorQuery } from "./list-pages.js";
import { changesBetween, recordValues, storedRecord, type RecordValues } from "./event-changes.js";
import { PayloadColumns } from "./payload-columns.js";
import { referencedConflict } from "./referenced-message.js";
import { withTakenFields } from "./unique-fields.js";
import { explainWriteError, refusedUnwritten } from "./write-errors.js";
import { recordedColumns, statementEventOf, type Write } from "./one-statement-write.js";
import { guards, type RecordRules, type WriteRules } from "./write-rules.js";

/** The caller's reach: a policy's scope of this resource, and of each nested hasMany's resource. */
export type Reach = Pick<FindOptions<unknown>, "scope" | "scopeOf">;

/** A stored record as the runtime handles it (data/table/spec.ts). */
export type { StoredRow };

/** A service of any resource, for code that handles every resource alike (seeds, the registry). */
export type AnyService = ResourceService<object, StoredRow, object, object>;

export type { RecordRules, WriteRules };

// A fresh random hash that collides is drawn again; after this many collisions the write fails.
const hashAttempts = 5;

/** Business rules of one resource. Knows nothing of HTTP: it throws domain errors. */
export class ResourceService<
  Model,
  Row extends StoredRow,
  Create extends object,
  Update extends object,
> {
  private readonly ownHash: RegExp;
  private readonly payloads: PayloadColumns;
  private readonly kinds: ReturnType<typeof columnsOf>;
  /** The same table, read by code that names columns at run time (unique fields, hashes). */
  private readonly anyTable: AnyTable;
  /** A record's values as its events record them, and those keys with their decimal places. */
  private readonly values: (row: object) => RecordValues;
  private readonly recorded: StatementEvent["recorded"];
  /** How a list read only for the serializer is made: no join for a belongsTo it never outputs. */
  private readonly outputRead: OutputRead;

  constructor(
    readonly resource: ResourceDescriptor<Model, Row, Create, Update>,
    readonly table: Table<Model, Row>,
    /** The table of a related resource, to find the record a payload's hash names. */
    private readonly tableOf: (spec: TableSpec) => AnyTable,
  ) {
    this.ownHash = hashMatcher(resource.prefix);
    this.payloads = new PayloadColumns(resource.table, tableOf, resource.exists);
    this.anyTable = table;
    this.kinds = columnsOf(resource.table);
    this.values = recordValues(resource);
    this.recorded = recordedColumns(resource);
    this.outputRead = {
      unshown: relationsOfKind(resource.table, "belongsTo")
        .map(([name]) => name)
        .filter((name) => !resource.output.includes(name)),
    };
  }

  /** This resource's relation `name` when it is of `kind` (a payload key or a `?with=` name). */
  private relation<Kind extends RelationKindName>(name: string, kind: Kind) {
    return relationOfKind(this.resource.table, name, kind);
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

  /**
   * Inserts with a fresh random hash; on the rare hash collision it draws again (bounded). A payload
   * that names related records is written in one transaction that locks them live first, so a
   * record deleted at the same moment is either seen here (422) or sees the new reference (409).
   */
  async create(
    payload: Create,
    relations: readonly string[] = [],
    rules: WriteRules = {},
  ): Promise<Row> {
    for (let attempt = 1; ; attempt += 1) {
      const hash = newHash(this.resource.prefix);
      try {
        const write: Write<Model, Row, Row> = {
          inTransaction: (table, data) => table.insertAndRead({ ...data, hash }, relations),
          withEvent: (table, data, event) => table.insertWithEvent({ ...data, hash }, event),
        };
        return await this.writing(payload, write, rules, relations);
      } catch (error) {
        const collided =
          isUniqueViolation(error) &&
          attempt < hashAttempts &&
          (await this.anyTable.exists({ hash }));
        if (!collided) throw await this.explainWriteError(error, payload);
      }
    }
  }

  async update(
    row: Row,
    payload: Update,
    relations: readonly string[] = [],
    rules: WriteRules = {},
  ): Promise<Row> {
    // A record read live must still be live when written (the seed updates trashed fixed rows).
    const live = propertyOf(row, "deleted_at") == null;
    try {
      return await this.updated({ id: row.id }, live, payload, relations, rules);
    } catch (error) {
      throw await this.explainWriteError(error, payload, row.id);
    }
  }

  /**
   * An update of a live record by its hash, read by nothing before (ResourceController.update,
   * where nothing decides on the record before its write): the write finds and locks it, 404 when
   * it is missing or out of reach. Undefined, with nothing written, when the write refused the
   * payload (a related record unknown, a value taken): the caller reads the record and updates it,
   * which explains the refusal against the record's id.
   */
  async updateUnread(
    hash: string,
    payload: Update,
    relations: readonly string[],
    rules: WriteRules,
  ): Promise<Row | undefined> {
    if (!this.ownHash.test(hash)) return undefined;
    try {
      return await this.updated({ hash }, true, payload, relations, rules);
    } catch (error) {
      if (refusedUnwritten(error)) return undefined;
      throw error;
    }
  }

  /** Updates the record `key` names: in its transaction, or as one statement with its event. */
  private async updated(
    key: RowKey,
    live: boolean,
    payload: Update,
    relations: readonly string[],
    rules: WriteRules,
  ): Promise<Row> {
    const write: Write<Model, Row, Row | null> = {
      inTransaction: (table, data, id) => table.updateAndRead(id!, data, relations, live),
      withEvent: (table, data, event) => table.updateWithEvent(key, data, live, event),
    };
    const updated = await this.writing(payload, write, rules, relations, { key, live });
    // Deleted a moment ago by another request: as gone as if it had never been found.
    if (!updated) throw new NotFound();
    return updated;
  }

  /**
   * Deletes a record nothing live still needs: 409 while a restrict relation points at it. A soft
   * delete decides in one transaction, with the record locked (see Table.softDelete); a hard one
   * leaves it to the database's foreign keys. The caller's reach and a `check` are decided in the
   * delete's transaction, first (see WriteRules).
   */
  async destroy(row: Row, rules: RecordRules = {}): Promise<void> {
    const outcome = await this.table.sql
      .transaction(async (tx) => {
        // Locked first (and the caller's reach decided again): its events are of the row deleted.
        if (!(await this.lockedInReach(tx, { id: row.id }, "live", rules))) return "gone" as const;
        await rules.check?.(tx);
        const table = this.table.within(tx);
        const actor = rules.actor ?? null;
        const outcome = await (this.resource.table.softDelete
          ? table.softDelete(row.id, actor)
          : table.delete(row.id, actor));
        if (outcome === "deleted") await rules.committing?.(tx, row);
        return outcome;
      })
      .catch((error: unknown) => {
        // A row its cascade removes, or the row itself, is still referenced (the database refused).
        if (isForeignKeyViolation(error)) return "referenced" as const;
        throw error;
      });
    if (outcome === "referenced") throw await referencedConflict(this.anyTable, row.id);
    if (outcome === "gone") throw new NotFound();
  }

  /** Restores a soft-deleted record (and what its delete cascaded to): 409 while a record it points at is deleted. */
  async restore(
    row: Row,
    relations: readonly string[] = [],
    rules: RecordRules = {},
  ): Promise<Row> {
    const restored = await this.table.sql.transaction(async (tx) => {
      if (guards(rules) && !(await this.lockedInReach(tx, { id: row.id }, "trashed", rules)))
        return { outcome: "gone" as const };
      const outcome = await this.table.within(tx).restore(row.id, rules.actor ?? null);
      if (outcome.outcome === "restored") await rules.committing?.(tx, row);
      return outcome;
    });
    if (restored.outcome === "gone") throw new NotFound();
    if (restored.outcome === "parent") {
      const label = restored.relation.replaceAll("_", " ");
      throw new Conflict(`The ${label} of this record is deleted: restore it first.`);
    }
    const record = await this.table.findOne({ id: row.id, deleted: false }, relations);
    if (!record) throw new NotFound();
    return record;
  }

  /**
   * What the payload's related records would answer, read (not locked) under the caller's rules:
   * the problems a payload refused by its own rules has besides, so one 422 holds them all.
   */
  async referenceProblems(
    payload: object,
    rules: Pick<WriteRules, "parent" | "links">,
  ): Promise<FieldErrors> {
    return this.payloads.problems(payload, this.table.sql, {
      parent: rules.parent,
      reach: rules.links,
    });
  }

  /** Adds "has already been taken" to validation errors, so a client sees every problem at once. */
  withUniqueErrors(error: unknown, body: unknown, exceptId?: number): Promise<unknown> {
    return withTakenFields(error, body, this.anyTable, this.resource.unique ?? {}, exceptId);
  }

  /**
   * Runs a write with the payload's columns on a table, in one transaction with its events: the
   * related records the payload names locked (share), and the record written (`existing`) locked
   * first, where the caller's reach is decided again (see WriteRules.reach) and its values before
   * the write are read for the event's changes. Where nothing needs deciding under a lock, the
   * write and its event are one statement instead (one-statement-write.ts).
   */
  private async writing<T extends Row | null>(
    payload: Create | Update,
    write: Write<Model, Row, T>,
    rules: WriteRules = {},
    relations: readonly string[] = [],
    existing?: { key: RowKey; live: boolean },
  ): Promise<T> {
    const linking = this.payloads.linking(payload);
    const type = `${this.resource.table.event}.${existing === undefined ? "created" : "updated"}`;
    const event = { type, recorded: this.recorded };
    const inOne = statementEventOf(this.table, event, rules, relations, linking);
    if (inOne !== undefined) {
      // Nothing to lock: the payload names no related record (see one-statement-write.ts).
      const known = existing && "id" in existing.key ? existing.key.id : undefined;
      const unique = this.uniqueIn(this.table.sql, known);
      const { data } = await this.payloads.resolve(payload, this.table.sql, { unique });
      return write.withEvent(this.table, data as Writable<Model>, inOne);
    }
    return this.table.sql.transaction(async (tx) => {
      const table = this.table.within(tx);
      // The record as stored, locked: what an update's event's changes start from.
      let stored: SqlRow | null = null;
      if (existing !== undefined) {
        // Out of reach now, or gone: the 404 of a missing record, and the transaction writes nothing.
        const state = existing.live ? "live" : "trashed";
        stored = await this.lockedInReach(tx, existing.key, state, rules);
        if (!stored) throw new NotFound();
      }
      const id = stored === null ? undefined : Number(stored.id);
      await rules.check?.(tx);
      // Every record it names unknown or out of reach, with the unique values already taken, in one 422.
      const unique = this.uniqueIn(tx, id);
      const options = { lock: "share" as const, parent: rules.parent, reach: rules.links, unique };
      const { data, links } = await this.payloads.resolve(payload, tx, options);
      const written = await write.inTransaction(table, data as Writable<Model>, id);
      if (written === null) return written;
      const actor = rules.actor ?? null;
      const before = stored
        ? this.values(await storedRecord(tx, this.resource.table, stored, written, this.tableOf))
        : undefined;
      const changes = changesBetween(before, this.values(written));
      await appendEvents(tx, actor, [{ type, hash: written.hash, changes }]);
      for (const [name, wanted] of links)
        await table.syncLinks(written, name, wanted, rules.links?.[name], actor);
      await rules.committing?.(tx, written);
      // The row was read before its links were written: read again only when it nests them.
      const nestsLinks =
        linking.length > 0 && relations.some((name) => this.relation(name, "belongsToMany"));
      return nestsLinks ? ((await table.findOne({ id: written.id }, relations)) as T) : written;
    });
  }

  /** The unique fields a payload's 422 names when their values are taken (by another than `exceptId`). */
  private uniqueIn(sql: Sql, exceptId: number | undefined) {
    return { table: this.anyTable.within(sql), fields: this.resource.unique ?? {}, exceptId };
  }

  /** Locks the record a write touches and decides the caller's reach and `locked` rule on it (see WriteRules). */
  private async lockedInReach(
    tx: Sql,
    key: RowKey,
    state: "live" | "trashed",
    rules: RecordRules,
  ): Promise<SqlRow | null> {
    const row = await this.table.within(tx).lockReached(key, state, rules.reach);
    if (!row) return null;
    await rules.locked?.(row);
    return row;
  }

  /** A write's database error as the 422 that explains it, when one does (write-errors.ts). */
  private explainWriteError(error: unknown, payload: object, exceptId?: number): Promise<unknown> {
    const unique = this.resource.unique ?? {};
    return explainWriteError(error, this.payloads, this.anyTable, unique, payload, exceptId);
  }
}
