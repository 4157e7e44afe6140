// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListQuery } from "../http/list-query.js";
import { isForeignKeyViolation, isUniqueViolation } from "../lib/database.js";
import {
  Conflict,
  emptyFieldErrors,
  NotFound,
  ValidationFailed,
  type FieldErrors,
} from "../lib/errors.js";
import { hashMatcher, newHash } from "../lib/hash-id.js";
import { toDate } from "../lib/serialize.js";
import { columnsOf, type Table, type TableSpec, type Writable } from "../lib/table.js";
import type { ResourceDescriptor } from "./descriptor.js";

/** A stored record as the runtime handles it: every table has an internal id and a public hash. */
export interface StoredRow {
  id: number;
  hash: string;
}

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
  private readonly kinds: ReturnType<typeof columnsOf>;

  constructor(
    readonly resource: ResourceDescriptor<Model, Row, Create, Update>,
    readonly table: Table<Model, Row>,
    /** The table of a related resource, to find the record a payload's hash names. */
    private readonly tableOf: (spec: TableSpec) => Table<unknown, unknown>,
  ) {
    this.ownHash = hashMatcher(resource.prefix);
    this.kinds = columnsOf(resource.table);
  }

  async list(query: ListQuery): Promise<{ rows: Row[]; total: number }> {
    const where: Record<string, unknown> = {};
    const related: Record<string, string> = {};
    for (const [name, value] of Object.entries(query.filters)) {
      if (this.resource.list.filters[name] === "relation") related[name] = value as string;
      else where[name] = value;
    }
    const options = { where: where as never, related, withTrashed: query.withTrashed };
    const [rows, total] = await Promise.all([
      this.table.findMany({
        ...options,
        orderBy: query.orderBy as never,
        limit: query.perPage,
        offset: (query.page - 1) * query.perPage,
        relations: query.relations,
      }),
      this.table.count(options),
    ]);
    return { rows, total };
  }

  /** A live record by hash; a malformed hash or one of another resource is simply not found. */
  async find(hash: string, relations: readonly string[] = []): Promise<Row> {
    const row = this.ownHash.test(hash)
      ? await this.table.findOne({ hash, deleted: false }, relations)
      : null;
    if (!row) throw new NotFound();
    return row;
  }

  /** A soft-deleted record by hash, for restore; a live or unknown one is not found. */
  async findTrashed(hash: string, relations: readonly string[] = []): Promise<Row> {
    const trashed = this.resource.table.softDelete && this.ownHash.test(hash);
    const row = trashed ? await this.table.findOne({ hash, deleted: true }, relations) : null;
    if (!row) throw new NotFound();
    return row;
  }

  /** Inserts with a fresh random hash; on the rare hash collision it draws again (bounded). */
  async create(payload: Create, relations: readonly string[] = []): Promise<Row> {
    const data = await this.toData(payload);
    for (let attempt = 1; ; attempt += 1) {
      const hash = newHash(this.resource.prefix);
      try {
        return await this.table.insertAndRead({ ...data, hash }, relations);
      } catch (error) {
        const collided =
          isUniqueViolation(error) && attempt < hashAttempts && (await this.hashTaken(hash));
        if (!collided) throw await this.explainWriteError(error, payload);
      }
    }
  }

  async update(row: Row, payload: Update, relations: readonly string[] = []): Promise<Row> {
    const data = await this.toData(payload);
    let updated: Row | null;
    try {
      updated = await this.table.updateAndRead(row.id, data, relations);
    } catch (error) {
      throw await this.explainWriteError(error, payload, row.id);
    }
    // Deleted a moment ago by another request: as gone as if it had never been found.
    if (!updated) throw new NotFound();
    return updated;
  }

  /** Soft-deletes (or deletes) a record nothing live still needs: 409 while a restrict relation points at it. */
  async destroy(row: Row): Promise<void> {
    if (await this.table.isReferenced(row.id)) throw new Conflict();
    if (this.resource.table.softDelete) {
      await this.table.update(row.id, { deleted_at: new Date() } as unknown as Writable<Model>);
      return;
    }
    try {
      await this.table.delete(row.id);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new Conflict();
      throw error;
    }
  }

  async restore(row: Row, relations: readonly string[] = []): Promise<Row> {
    const restored = await this.table.updateAndRead(
      row.id,
      { deleted_at: null } as unknown as Writable<Model>,
      relations,
    );
    if (!restored) throw new NotFound();
    return restored;
  }

  /** Adds "has already been taken" to validation errors, so a client sees every problem at once. */
  async withUniqueErrors(error: unknown, body: unknown, exceptId?: number): Promise<unknown> {
    if (!(error instanceof ValidationFailed) || typeof body !== "object" || body === null)
      return error;
    // Only values that passed their own rules are looked up: PostgreSQL refuses "abc" for an
    // integer column with an error, and such a value is already reported anyway.
    const alreadyReported = new Set(Object.keys(error.errors));
    const taken = await this.takenFields(
      body as Record<string, unknown>,
      exceptId,
      alreadyReported,
    );
    for (const [field, messages] of Object.entries(taken)) error.errors[field] = messages;
    return error;
  }

  /** Payload → columns: relation hashes become foreign keys (422 when unknown), dates become Dates. */
  private async toData(payload: Create | Update): Promise<Writable<Model>> {
    const data: Record<string, unknown> = {};
    const errors = emptyFieldErrors();
    for (const [key, value] of Object.entries(payload)) {
      const relation = Object.hasOwn(this.resource.table.belongsTo, key)
        ? this.resource.table.belongsTo[key]
        : undefined;
      if (relation) {
        const id =
          typeof value === "string" ? await this.tableOf(relation.target()).liveId(value) : null;
        if (value !== null && id === null)
          errors[key] = [this.resource.exists?.[key] ?? "The selected relation is invalid."];
        data[relation.foreignKey] = id;
      } else {
        const kind = this.kinds[key];
        data[key] = kind === "date" || kind === "datetime" ? toDate(value as string | null) : value;
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    return data as Writable<Model>;
  }

  private async takenFields(
    payload: Record<string, unknown>,
    exceptId?: number,
    skip: ReadonlySet<string> = new Set(),
  ): Promise<FieldErrors> {
    const errors = emptyFieldErrors();
    for (const [field, message] of Object.entries(this.resource.unique ?? {})) {
      if (skip.has(field)) continue;
      const value = Object.hasOwn(payload, field) ? payload[field] : undefined;
      if (value === undefined || value === null) continue;
      if (await this.table.exists({ [field]: value } as never, exceptId)) errors[field] = [message];
    }
    return errors;
  }

  private hashTaken(hash: string): Promise<boolean> {
    return this.table.exists({ hash } as never);
  }

  /**
   * A UNIQUE violation becomes the 422 of the field that collided. A FOREIGN KEY violation means a
   * related record was deleted between the check and the write: looking the relations up again
   * throws the 422 that names it.
   */
  private async explainWriteError(
    error: unknown,
    payload: Create | Update,
    exceptId?: number,
  ): Promise<unknown> {
    if (isForeignKeyViolation(error)) {
      await this.toData(payload);
      return error;
    }
    if (!isUniqueViolation(error)) return error;
    const taken = await this.takenFields(payload as Record<string, unknown>, exceptId);
    return Object.keys(taken).length > 0 ? new ValidationFailed(taken) : error;
  }
}
