// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { isForeignKeyViolation, isUniqueViolation } from "../db/database.js";
import { appendEvents } from "../data/outbox.js";
import { Conflict, NotFound, type FieldErrors } from "../base/errors.js";
import { newHash } from "../base/hash-id.js";
import { propertyOf } from "../base/records.js";
import type { Sql, SqlRow } from "../db/sql.js";
import {
  relationOfKind,
  type RelationKindName,
  type AnyTable,
  type RowKey,
  type StatementEvent,
  type StoredRow,
  type Table,
  type TableSpec,
  type Writable,
  tenantOfRow,
} from "../data/table.js";
import type { ResourceDescriptor } from "./descriptor.js";
import { ResourceReads, type Reach } from "./service-reads.js";
import { changesBetween, recordValues, storedRecord, type RecordValues } from "./event-changes.js";
import { PayloadColumns } from "./payload-columns.js";
import { referencedConflict } from "./referenced-message.js";
import { uniqueFieldsOf, withTakenFields } from "./unique-fields.js";
import type { TenantRule } from "./tenancy.js";
import { explainWriteError, refusedUnwritten } from "./write-errors.js";
import { recordedColumns, statementEventOf, type Write } from "./one-statement-write.js";
import { guards, type RecordRules, type WriteRules } from "./write-rules.js";
import { releaseFilesOf } from "../files/file-jobs.js";

export type { Reach };

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
> extends ResourceReads<Model, Row, Create, Update> {
  private readonly payloads: PayloadColumns;
  /** The same table, read by code that names columns at run time (unique fields, hashes). */
  private readonly anyTable: AnyTable;
  /** A record's values as its events record them, and those keys with their decimal places. */
  private readonly values: (row: object) => RecordValues;
  private readonly recorded: StatementEvent["recorded"];

  constructor(
    resource: ResourceDescriptor<Model, Row, Create, Update>,
    table: Table<Model, Row>,
    /** The table of a related resource, to find the record a payload's hash names. */
    private readonly tableOf: (spec: TableSpec) => AnyTable,
  ) {
    super(resource, table);
    this.payloads = new PayloadColumns(resource.table, tableOf, resource.exists);
    this.anyTable = table;
    this.values = recordValues(resource);
    this.recorded = recordedColumns(resource);
  }

  /** This resource's relation `name` when it is of `kind` (a payload key or a `?with=` name). */
  private relation<Kind extends RelationKindName>(name: string, kind: Kind) {
    return relationOfKind(this.resource.table, name, kind);
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
        if (!collided) throw await this.explainWriteError(error, payload, undefined, rules.tenant);
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
      throw await this.explainWriteError(error, payload, row.id, rules.tenant);
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
        await rules.tenant?.member(tx);
        // Locked first (and the caller's reach decided again): its events are of the row deleted.
        if (!(await this.lockedInReach(tx, { id: row.id }, "live", rules))) return "gone" as const;
        await rules.check?.(tx);
        const table = this.table.within(tx);
        const actor = rules.actor ?? null;
        const outcome = await (this.resource.table.softDelete
          ? table.softDelete(row.id, actor)
          : table.delete(row.id, actor));
        // A hard delete lets go of its files (a soft one keeps them for a restore).
        if (outcome === "deleted" && this.resource.files && !this.resource.table.softDelete)
          await releaseFilesOf(tx, this.resource.prefix, row.id);
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
      await rules.tenant?.member(tx);
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
    rules: Pick<WriteRules, "parent" | "links" | "tenant">,
  ): Promise<FieldErrors> {
    return this.payloads.problems(payload, this.table.sql, {
      parent: rules.parent,
      reach: rules.links,
      tenant: rules.tenant,
    });
  }

  /** Adds "has already been taken" to validation errors, so a client sees every problem at once. */
  withUniqueErrors(error: unknown, body: unknown, exceptId?: number, tenant?: TenantRule) {
    const unique = uniqueFieldsOf(this.resource, tenant);
    return withTakenFields(error, body, this.anyTable, unique, exceptId);
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
      // The writer still works in the tenant, first: a member removed a moment ago writes nothing.
      await rules.tenant?.member(tx);
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
      const { data, links } = await this.payloads.resolve(
        payload,
        tx,
        this.resolving(tx, id, rules),
      );
      // A created record is of the writer's tenant, never of one a payload names.
      const { tenant } = rules;
      if (existing === undefined && tenant?.column !== undefined) data[tenant.column] = tenant.id;
      const written = await write.inTransaction(table, data as Writable<Model>, id);
      if (written === null) return written;
      const actor = rules.actor ?? null;
      const before = stored
        ? this.values(await storedRecord(tx, this.resource.table, stored, written, this.tableOf))
        : undefined;
      const changes = changesBetween(before, this.values(written));
      const ofTenant = tenantOfRow(this.resource.table, written);
      await appendEvents(tx, actor, [{ type, hash: written.hash, changes, tenant: ofTenant }]);
      for (const [name, wanted] of links)
        await table.syncLinks(written, name, wanted, rules.links?.[name], actor);
      await rules.files?.(tx, written, stored);
      await rules.committing?.(tx, written);
      // The row was read before its links were written: read again only when it nests them.
      const nestsLinks =
        linking.length > 0 && relations.some((name) => this.relation(name, "belongsToMany"));
      return nestsLinks ? ((await table.findOne({ id: written.id }, relations)) as T) : written;
    });
  }

  /** The unique fields a payload's 422 names when their values are taken (by another than `exceptId`). */
  private uniqueIn(sql: Sql, exceptId: number | undefined, tenant?: TenantRule) {
    const fields = uniqueFieldsOf(this.resource, tenant);
    return { table: this.anyTable.within(sql), fields, exceptId };
  }

  /** How a write in its transaction resolves its payload: related records locked, within its rules. */
  private resolving(tx: Sql, exceptId: number | undefined, rules: WriteRules) {
    const { parent, links: reach, tenant } = rules;
    const unique = this.uniqueIn(tx, exceptId, tenant);
    return { lock: "share" as const, parent, reach, unique, tenant };
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
  private explainWriteError(
    error: unknown,
    payload: object,
    exceptId?: number,
    tenant?: TenantRule,
  ) {
    const unique = uniqueFieldsOf(this.resource, tenant);
    const write = { exceptId, tenant };
    return explainWriteError(error, this.payloads, this.anyTable, unique, payload, write);
  }
}
