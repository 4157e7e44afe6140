// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue, encodeValue, type ColumnKind } from "./column-codec.js";
import {
  columnComparison,
  keysetCondition,
  searchCondition,
  type LinkedCondition,
  type ListCondition,
  type SearchTerms,
} from "./list-conditions.js";
import { textMatchOperators } from "./list-operators.js";
import {
  attachLink,
  detachLink,
  linkedFrom,
  linkedItems,
  linkedToAny,
  pivotRows,
  syncLinks,
  type Link,
  type ManyToManySpec,
} from "./relations/belongs-to-many.js";
import { belongsToJoin, hashOnly, type RelationSpec } from "./relations/belongs-to.js";
import { hasManyItems, nestedLists, type NestedItems } from "./relations/has-many.js";
import { lockClause, placeholder, quote, type Sql, type SqlDialect, type SqlRow } from "./sql.js";

export { decodeValue, encodeValue, type ColumnKind, type RelationSpec };

/** Columns every table has, declared here once: the internal id, the public hash, the timestamps. */
export type StandardColumn = "id" | "hash" | "created_at" | "updated_at" | "deleted_at";
const standardColumns: Readonly<Record<StandardColumn, ColumnKind>> = {
  id: "integer",
  hash: "string",
  created_at: "datetime",
  updated_at: "datetime",
  deleted_at: "datetime",
};

/** Lists' order unless a sort is asked for: oldest first, the id breaking ties. */
const defaultOrder: readonly Record<string, "asc" | "desc">[] = [
  { created_at: "asc" },
  { id: "asc" },
];

/** Names of a record type's own columns (not its relations). */
export type ColumnOf<Model> = Extract<keyof Model, string>;

/**
 * A table as the model describes it, typed by Prisma's row type `Model`: every column other than the
 * standard ones must be declared, with the right name, or the project does not compile.
 */
export interface TableSpec<Model = any, Row = Model> {
  readonly name: string;
  readonly softDelete: boolean;
  readonly columns: { readonly [Column in Exclude<ColumnOf<Model>, StandardColumn>]-?: ColumnKind };
  /** Columns that writes set and no read ever selects (a user's password hash). */
  readonly writeOnly?: readonly string[];
  /** Unique text columns whose uniqueness ignores case (e-mails): `exists` compares them lower-cased, as their index does. */
  readonly caseless?: readonly string[];
  readonly belongsTo: Readonly<Record<string, RelationSpec>>;
  readonly hasMany: Readonly<Record<string, RelationSpec>>;
  /** Many-to-many relations through pivot tables (relations/belongs-to-many.ts). */
  readonly belongsToMany: Readonly<Record<string, ManyToManySpec>>;
  /** Other tables whose live rows keep a row of this one from being deleted (onDelete: restrict). */
  readonly restrictedBy: readonly RelationSpec[];
  /**
   * What a soft delete of a row does to the rows pointing at it, as a hard delete's foreign keys
   * would: `cascadeTo` tables' rows are deleted with it (soft-deleted when they have soft delete,
   * and restored with it), `nullOnDelete` tables' links are cleared. Hard deletes leave this to
   * the database's own foreign keys.
   */
  readonly cascadeTo: readonly RelationSpec[];
  readonly nullOnDelete: readonly RelationSpec[];
  /** Carries the read type only: never set. */
  readonly row?: Row;
}

/** A table as `<name>.repository.ts` declares it: what it lacks (no soft delete, no relations) is left out. */
export type TableDeclaration<Model, Row> = Pick<TableSpec<Model, Row>, "name" | "columns"> &
  Partial<
    Pick<
      TableSpec<Model, Row>,
      | "softDelete"
      | "writeOnly"
      | "caseless"
      | "belongsTo"
      | "hasMany"
      | "belongsToMany"
      | "restrictedBy"
      | "cascadeTo"
      | "nullOnDelete"
    >
  >;

/** A table's full spec, with what its declaration left out made explicit (false, none). */
export function defineTable<Model, Row = Model>(
  declaration: TableDeclaration<Model, Row>,
): TableSpec<Model, Row> {
  return {
    softDelete: false,
    belongsTo: {},
    hasMany: {},
    belongsToMany: {},
    restrictedBy: [],
    cascadeTo: [],
    nullOnDelete: [],
    ...declaration,
  };
}

/** Values a write may set: the model's own columns, each with its own type; id and hash excepted. */
export type Writable<Model> = {
  [Column in Exclude<ColumnOf<Model>, "id" | "hash">]?: Model[Column];
};

/** Exact matches on columns, with the column's own type. */
export type Where<Model> = { [Column in ColumnOf<Model>]?: Model[Column] };

export type OrderBy<Model> = readonly Partial<Record<ColumnOf<Model>, "asc" | "desc">>[];

/**
 * The rows a caller may reach (a policy's `scope`), ANDed into the very statement that reads them:
 * columns equal to values, and belongsTo relations whose row matches columns of its own, such as
 * `{ through: { doctor: { user_id: 7 } } }` for "records of the doctors user 7 is".
 */
export interface RowScope {
  readonly where?: Readonly<Record<string, unknown>>;
  readonly through?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** What narrows a count: the filtering options of a read. */
export type CountOptions<Model> = Pick<
  FindOptions<Model>,
  "where" | "related" | "withTrashed" | "scope" | "conditions" | "search"
>;

export interface FindOptions<Model> {
  where?: Where<Model>;
  /** The caller's reach: rows outside it (outside any of them, for a list) are not read, not counted. */
  scope?: RowScope | readonly RowScope[];
  /** The reach within each loaded hasMany relation, by relation name. */
  scopeOf?: (relation: string) => RowScope | readonly RowScope[] | undefined;
  /** belongsTo relation name → the related record's hash. */
  related?: Readonly<Record<string, string>>;
  orderBy?: OrderBy<Model>;
  /** Filters beyond exact matches (operators), ANDed. */
  conditions?: readonly ListCondition[];
  /** `?search=` words, each in some of the columns. */
  search?: SearchTerms;
  /** Soft-deleted rows too (tables without soft delete have none). */
  withTrashed?: boolean;
  /**
   * A cursor's position: the values of the row the page starts after, one per `orderBy` key
   * (already the column's values, see column-codec.ts fromCursorValue).
   */
  after?: readonly unknown[];
  limit?: number;
  offset?: number;
  /** Relations to load: belongsTo ones come back as records instead of `{ hash }`, hasMany ones as arrays. */
  relations?: readonly string[];
}

type Decoder = (row: SqlRow) => Record<string, unknown>;

/** A statement's text with its values, ready for the driver. */
interface Statement {
  text: string;
  values: unknown[];
}

/** The SELECT list, joins and decoder of one read shape (a set of loaded relations). */
interface Shape {
  columns: string;
  joins: string;
  decode: Decoder;
  /** findOne's statement texts in this shape, by kind of lookup (a handful at most). */
  findOne: Map<number, string>;
}

// PostgreSQL cuts identifiers at 63 bytes: a longer alias would silently read as another (or none).
const maxAliasLength = 63;

/**
 * The alias a table's own rows are read under: its name, unless one of its belongsTo relations has
 * that name too (their joins are aliased by relation name).
 */
export function rootAlias(spec: TableSpec): string {
  return Object.hasOwn(spec.belongsTo, spec.name) ? `${spec.name}.row` : spec.name;
}

/** `"table"`, or `"table" AS "alias"` when they differ. */
function fromClause(spec: TableSpec): string {
  const alias = rootAlias(spec);
  return alias === spec.name ? quote(spec.name) : `${quote(spec.name)} AS ${quote(alias)}`;
}

/** Every column of a table: the standard ones it has and those it declares. */
export function columnsOf(spec: TableSpec): Readonly<Record<string, ColumnKind>> {
  const { deleted_at, ...always } = standardColumns;
  return { ...always, ...(spec.softDelete ? { deleted_at } : {}), ...spec.columns };
}

/** The columns reads select: every column but the write-only ones. */
export function readableColumnsOf(spec: TableSpec): Readonly<Record<string, ColumnKind>> {
  const columns = columnsOf(spec);
  if (!spec.writeOnly?.length) return columns;
  const hidden = new Set<string>(spec.writeOnly);
  return Object.fromEntries(Object.entries(columns).filter(([name]) => !hidden.has(name)));
}

/** What binds a statement's values: each `add` returns the placeholder of the value it took. */
export interface Binder {
  add(value: unknown): string;
}

/** Collects a statement's values and hands out the dialect's placeholder for each. */
class Values implements Binder {
  readonly list: unknown[] = [];
  constructor(private readonly dialect: SqlDialect) {}
  add(value: unknown): string {
    this.list.push(value);
    return placeholder(this.dialect, this.list.length);
  }
}

/**
 * Typed reads and writes of one table, with statements built once per shape and prepared once by
 * the driver. belongsTo relations come from LEFT JOINs in the same statement (their hash, or the
 * whole record when loaded); hasMany relations from one more statement per relation for the whole
 * page: never a query per row. Aliases are the table and relation names, so a statement in a log
 * or an EXPLAIN reads like the schema.
 */
export class Table<Model, Row = Model> {
  private readonly shapes = new Map<string, Shape>();
  private readonly columns: Readonly<Record<string, ColumnKind>>;
  /** The quoted alias reads use (see rootAlias); writes and single-table statements use `table`. */
  private readonly alias: string;
  private readonly table: string;
  /** What writes whose row is the whole read return, made on first use (see `returning`). */
  private returnsRow?: { text: string; decode: Decoder };

  constructor(
    readonly sql: Sql,
    readonly spec: TableSpec<Model, Row>,
  ) {
    this.columns = columnsOf(spec);
    this.alias = quote(rootAlias(spec));
    this.table = quote(spec.name);
  }

  /**
   * This table on another handle (a transaction's), sharing its statement shapes: every read and
   * write of the copy runs on `sql`.
   */
  within(sql: Sql): this {
    return sql === this.sql
      ? this
      : (Object.create(this, { sql: { value: sql, enumerable: true } }) as this);
  }

  /** One row by hash or id (live only, trashed only, or either), with the relations asked for. */
  async findOne(
    where: { hash?: string; id?: number; deleted?: boolean },
    relations: readonly string[] = [],
    reach: Pick<FindOptions<Model>, "scope" | "scopeOf"> = {},
  ): Promise<Row | null> {
    const shape = this.shape(relations);
    const values = new Values(this.sql.dialect);
    if (where.hash !== undefined) values.list.push(where.hash);
    if (where.id !== undefined) values.list.push(where.id);
    let text = this.findOneText(shape, where);
    // Within the caller's reach: one statement, so "not yours" and "not there" are the same read.
    const scoped = reach.scope ? this.scopeConditions(reach.scope, values) : [];
    if (scoped.length > 0)
      text = `${text.slice(0, -" LIMIT 1".length)} AND ${scoped.join(" AND ")} LIMIT 1`;
    const row = await this.sql.get(text, values.list);
    if (!row) return null;
    const [record] = await this.withHasMany([shape.decode(row)], relations, reach.scopeOf);
    return record as Row;
  }

  /** The text of a findOne, built once per read shape and kind of lookup. */
  private findOneText(shape: Shape, where: { hash?: string; id?: number; deleted?: boolean }) {
    const kind =
      (where.hash === undefined ? 0 : 1) |
      (where.id === undefined ? 0 : 2) |
      (where.deleted === undefined ? 0 : where.deleted ? 4 : 8);
    let text = shape.findOne.get(kind);
    if (text === undefined) {
      const values = new Values(this.sql.dialect);
      const conditions: string[] = [];
      if (where.hash !== undefined)
        conditions.push(`${this.alias}."hash" = ${values.add(where.hash)}`);
      if (where.id !== undefined) conditions.push(`${this.alias}."id" = ${values.add(where.id)}`);
      if (this.spec.softDelete && where.deleted !== undefined)
        conditions.push(`${this.alias}."deleted_at" IS ${where.deleted ? "NOT NULL" : "NULL"}`);
      text = `SELECT ${shape.columns} FROM ${this.from()}${shape.joins} WHERE ${conditions.join(" AND ") || "TRUE"} LIMIT 1`;
      shape.findOne.set(kind, text);
    }
    return text;
  }

  /** The rows that match, in order: live ones only unless `withTrashed`. */
  async findMany(options: FindOptions<Model> = {}): Promise<Row[]> {
    const shape = this.shape(options.relations ?? []);
    const values = new Values(this.sql.dialect);
    // The read shape already joins every belongsTo under its name: relation filters use that join.
    let { conditions } = this.filter(options, values, false);
    const keys = this.orderKeys(options.orderBy ?? defaultOrder);
    if (options.after) {
      const after = options.after;
      const keyset = keysetCondition(keys, after, (index) =>
        values.add(this.encode(keys[index]!.name, after[index])),
      );
      conditions = conditions === "" ? ` WHERE ${keyset}` : `${conditions} AND ${keyset}`;
    }
    // NULL orders as the largest value on both databases (PostgreSQL's own rule; SQLite is told).
    const nulls = (key: (typeof keys)[number]) =>
      key.nullable && this.sql.dialect === "sqlite"
        ? key.direction === "asc"
          ? " NULLS LAST"
          : " NULLS FIRST"
        : "";
    const order = keys.map(
      (key) => `${key.column} ${key.direction === "desc" ? "DESC" : "ASC"}${nulls(key)}`,
    );
    // PostgreSQL does not take `deleted_at IS NULL` as fixing deleted_at (IS NULL is no equality to
    // its planner), so the (deleted_at, created_at, id) index could not give the order: every list
    // of live rows was a scan and a sort (5.4 ms at 100,000 rows). Ordering by deleted_at first —
    // the same order, every row in it has NULL there — lets it walk the index and seek a cursor's
    // position in it (0.02 ms). SQLite plans this already, and its NULLS LAST rule would not match.
    if (this.spec.softDelete && !options.withTrashed && this.sql.dialect === "postgresql")
      order.unshift(`${this.alias}."deleted_at" ${keys[0]?.direction === "desc" ? "DESC" : "ASC"}`);
    const limit = options.limit === undefined ? "" : ` LIMIT ${values.add(options.limit)}`;
    const offset = options.offset === undefined ? "" : ` OFFSET ${values.add(options.offset)}`;
    const rows = await this.sql.all(
      `SELECT ${shape.columns} FROM ${this.from()}${shape.joins}${conditions} ORDER BY ${order.join(", ")}${limit}${offset}`,
      values.list,
    );
    return (await this.withHasMany(
      rows.map(shape.decode),
      options.relations ?? [],
      options.scopeOf,
    )) as Row[];
  }

  async count(options: CountOptions<Model> = {}): Promise<number> {
    const filtered =
      Object.keys(options.where ?? {}).length > 0 ||
      Object.keys(options.related ?? {}).length > 0 ||
      (options.conditions?.length ?? 0) > 0 ||
      options.search !== undefined ||
      options.scope !== undefined;
    if (
      this.sql.dialect === "sqlite" &&
      this.spec.softDelete &&
      !options.withTrashed &&
      !filtered
    ) {
      // SQLite counts a whole table from its b-tree pages (≈ 10 µs for 10k rows) but a WHERE visits
      // every matching index entry (≈ 350 µs): all rows minus the few soft-deleted ones is the same
      // exact number, read in one statement (one snapshot).
      const row = await this.sql.get(
        `SELECT (SELECT COUNT(*) FROM ${this.table}) - (SELECT COUNT(*) FROM ${this.table} WHERE "deleted_at" IS NOT NULL) AS "total"`,
      );
      return Number(row?.total ?? 0);
    }
    const values = new Values(this.sql.dialect);
    const { joins, conditions } = this.filter(options, values, true);
    const row = await this.sql.get(
      `SELECT COUNT(*) AS "total" FROM ${this.from()}${joins}${conditions}`,
      values.list,
    );
    return Number(row?.total ?? 0);
  }

  /** How many of the rows `ids` name (once each) match every column = value pair. */
  async countAmong(
    ids: readonly number[],
    where: Readonly<Record<string, unknown>>,
  ): Promise<number> {
    const distinct = [...new Set(ids)];
    if (distinct.length === 0) return 0;
    const values = new Values(this.sql.dialect);
    const list = distinct.map((id) => values.add(id)).join(", ");
    const conditions = Object.entries(where).map(
      ([column, value]) => `${this.column(column)} = ${values.add(this.encode(column, value))}`,
    );
    const row = await this.sql.get(
      `SELECT COUNT(*) AS "total" FROM ${this.table} WHERE "id" IN (${list})${conditions.map((condition) => ` AND ${condition}`).join("")}`,
      values.list,
    );
    return Number(row?.total ?? 0);
  }

  /**
   * Whether a row (live or not) matches every column = value pair, other than the row `exceptId`;
   * a `caseless` column matches regardless of case.
   */
  async exists(where: Where<Model>, exceptId?: number): Promise<boolean> {
    const entries = Object.entries(where as Record<string, unknown>).filter(
      ([, value]) => value !== undefined,
    );
    // An object or array (from a body that failed validation) is no value a column holds: no row has it.
    if (
      entries.some(
        ([, value]) => typeof value === "object" && value !== null && !(value instanceof Date),
      )
    )
      return false;
    const values = new Values(this.sql.dialect);
    const conditions = entries.map(([column, value]) =>
      value === null
        ? `${this.column(column)} IS NULL`
        : this.spec.caseless?.includes(column)
          ? `lower(${this.column(column)}) = lower(${values.add(this.encode(column, value))})`
          : `${this.column(column)} = ${values.add(this.encode(column, value))}`,
    );
    if (exceptId !== undefined) conditions.push(`"id" <> ${values.add(exceptId)}`);
    const found = await this.sql.get(
      `SELECT 1 AS "found" FROM ${this.table} WHERE ${conditions.join(" AND ") || "TRUE"} LIMIT 1`,
      values.list,
    );
    return found !== undefined;
  }

  /**
   * The internal id of a live row, for writing a foreign key from a hash. Inside a transaction,
   * `lock: "share"` keeps the row live until the transaction ends: a concurrent delete waits, then
   * sees the new reference. `scope`: what the row must also match, checked under the same lock (the
   * caller's reach: an owned parent, a policy's scope); null when it does not.
   */
  async liveId(
    hash: string,
    lock?: "share",
    scope?: RowScope | readonly RowScope[],
  ): Promise<number | null> {
    const row = await this.reachedRow("hash", hash, lock, scope);
    return row ? Number(row.id) : null;
  }

  /**
   * Locks row `id` for a write and decides, under that lock, whether the caller still reaches it:
   * live (trashed, for a restore) and within `scope`. The parents a scope runs through are locked
   * first (FOR SHARE, the order a cascade locks in: parent, then child) and matched again, so a
   * doctor whose account moved, or a record reassigned, meanwhile is out of reach here and not
   * written afterwards. Run inside a transaction. The row's own columns as stored, or null when it is
   * gone or out of reach: then the write must not happen (the 404 of a missing record).
   */
  async lockReached(
    id: number,
    state: "live" | "trashed",
    scope?: RowScope | readonly RowScope[],
  ): Promise<SqlRow | null> {
    const throughs = scopeList(scope).flatMap((one) => Object.entries(one.through ?? {}));
    // A parent may change between reading its key and locking the row: read, lock, compare, again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const parents: Record<string, unknown> = {};
      if (throughs.length > 0) {
        const keys = await this.sql.get(
          `SELECT * FROM ${this.table} WHERE "id" = ${placeholder(this.sql.dialect, 1)}`,
          [id],
        );
        if (!keys) return null;
        for (const [name, where] of throughs) {
          const relation = this.relation(name);
          const parentId = keys[relation.foreignKey];
          if (parentId === null || parentId === undefined) return null;
          const parent = new Table(this.sql, relation.target());
          if (!(await parent.reachedRow("id", Number(parentId), "share", { where }))) return null;
          parents[relation.foreignKey] = parentId;
        }
      }
      const values = new Values(this.sql.dialect);
      const conditions = [`${this.alias}."id" = ${values.add(id)}`];
      if (this.spec.softDelete)
        conditions.push(`${this.alias}."deleted_at" IS ${state === "live" ? "" : "NOT "}NULL`);
      if (scope) conditions.push(...this.scopeConditions(scope, values));
      const row = await this.sql.get(
        `SELECT ${this.alias}.* FROM ${this.from()} WHERE ${conditions.join(" AND ")}${lockClause(this.sql.dialect, "update")}`,
        values.list,
      );
      if (!row) return null;
      const moved = Object.entries(parents).some(([key, parentId]) => row[key] !== parentId);
      if (!moved) return row;
    }
    return null;
  }

  /** One row by hash or id that is live and within `scope`, locked as asked: its id. */
  private async reachedRow(
    column: "hash" | "id",
    value: string | number,
    lock: "share" | undefined,
    scope: RowScope | readonly RowScope[] | undefined,
  ): Promise<SqlRow | undefined> {
    const values = new Values(this.sql.dialect);
    const conditions = [
      `${this.alias}.${quote(column)} = ${values.add(value)}`,
      ...this.reach(scope, values),
    ];
    return this.sql.get(
      `SELECT ${this.alias}."id" FROM ${this.from()} WHERE ${conditions.join(" AND ")} LIMIT 1${lockClause(this.sql.dialect, lock)}`,
      values.list,
    );
  }

  /** Inserts a row (timestamps set here, as Prisma's @default(now()) and @updatedAt would) and returns its id. */
  async insert(values: Writable<Model> & { hash: string }): Promise<number> {
    const insert = this.insertStatement(values);
    const inserted = await this.sql.get(`${insert.text} RETURNING "id"`, insert.values);
    return Number(inserted!.id);
  }

  /**
   * Inserts a row and reads it back with the relations asked for: in the same statement (RETURNING)
   * when the read needs no join, else by id.
   */
  async insertAndRead(
    values: Writable<Model> & { hash: string },
    relations: readonly string[] = [],
  ): Promise<Row> {
    const returning = this.returning(relations);
    if (returning === undefined)
      return (await this.findOne({ id: await this.insert(values) }, relations))!;
    const insert = this.insertStatement(values);
    const row = await this.sql.get(`${insert.text} ${returning.text}`, insert.values);
    return returning.decode(row!) as Row;
  }

  /**
   * Updates the given columns (and updated_at) of one row; false when no row has that id (with
   * `live`, none that is live: a row soft-deleted since it was read is not written).
   */
  async update(id: number, values: Writable<Model>, live = false): Promise<boolean> {
    const update = this.updateStatement(id, values, live);
    return (await this.sql.run(update.text, update.values)) > 0;
  }

  /** Updates one row and reads it back (see insertAndRead and update); null when none was written. */
  async updateAndRead(
    id: number,
    values: Writable<Model>,
    relations: readonly string[] = [],
    live = false,
  ): Promise<Row | null> {
    const returning = this.returning(relations);
    if (returning === undefined)
      return (await this.update(id, values, live)) ? this.findOne({ id }, relations) : null;
    const update = this.updateStatement(id, values, live);
    const row = await this.sql.get(`${update.text} ${returning.text}`, update.values);
    return row ? (returning.decode(row) as Row) : null;
  }

  /** The INSERT of a row (timestamps included) and its values. */
  private insertStatement(values: Writable<Model> & { hash: string }): Statement {
    const now = new Date();
    const row: Record<string, unknown> = { created_at: now, updated_at: now, ...defined(values) };
    const bound = new Values(this.sql.dialect);
    const columns = Object.keys(row);
    const list = columns.map((column) => bound.add(this.encode(column, row[column])));
    const names = columns.map((column) => this.column(column)).join(", ");
    return {
      text: `INSERT INTO ${this.table} (${names}) VALUES (${list.join(", ")})`,
      values: bound.list,
    };
  }

  /** The UPDATE of one row's given columns and updated_at (of a live row only, with `live`), and its values. */
  private updateStatement(id: number, values: Writable<Model>, live: boolean): Statement {
    const row: Record<string, unknown> = { ...defined(values), updated_at: new Date() };
    const bound = new Values(this.sql.dialect);
    const assignments = Object.keys(row).map(
      (column) => `${this.column(column)} = ${bound.add(this.encode(column, row[column]))}`,
    );
    const stillLive = live && this.spec.softDelete ? ` AND "deleted_at" IS NULL` : "";
    const text = `UPDATE ${this.table} SET ${assignments.join(", ")} WHERE "id" = ${bound.add(id)}${stillLive}`;
    return { text, values: bound.list };
  }

  /**
   * A write's RETURNING list and decoder when the row it returns is the whole read (a table without
   * belongsTo, whose read shape has no join, and no hasMany asked for); undefined otherwise.
   */
  private returning(relations: readonly string[]): { text: string; decode: Decoder } | undefined {
    if (Object.keys(this.spec.belongsTo).length > 0 || this.loadsMany(relations)) return undefined;
    this.returnsRow ??= {
      text: `RETURNING ${Object.keys(readableColumnsOf(this.spec)).map(quote).join(", ")}`,
      decode: this.shape([]).decode,
    };
    return this.returnsRow;
  }

  async delete(id: number): Promise<void> {
    await this.sql.run(
      `DELETE FROM ${this.table} WHERE "id" = ${placeholder(this.sql.dialect, 1)}`,
      [id],
    );
  }

  /** Whether live rows elsewhere point at this one through a restrict relation (a delete would be refused). */
  async isReferenced(id: number): Promise<boolean> {
    return isReferenced(this.sql, this.spec, [id]);
  }

  /**
   * Soft-deletes a live row and applies its relations' onDelete to what points at it (see
   * TableSpec.cascadeTo), all or nothing. Run inside a transaction: the row is locked first, so a
   * write that references it either finished before (and is seen here) or waits and then finds it
   * deleted. "referenced" when a restrict relation (here or down a cascade) still has live rows.
   */
  async softDelete(id: number): Promise<"deleted" | "referenced" | "gone"> {
    const locked = await this.sql.get(
      `SELECT "id" FROM ${this.table} WHERE "id" = ${placeholder(this.sql.dialect, 1)} AND "deleted_at" IS NULL${lockClause(this.sql.dialect, "update")}`,
      [id],
    );
    if (!locked) return "gone";
    return (await softDeleteRows(this.sql, this.spec, [id], new Date())) ? "deleted" : "referenced";
  }

  /**
   * Restores a soft-deleted row with the rows its delete cascaded to (those deleted at the same
   * instant). Run inside a transaction: the parents it points at are locked live, or the name of
   * the first deleted one comes back ("parent"), as a new record pointing at it would be refused.
   */
  async restore(
    id: number,
  ): Promise<{ outcome: "restored" | "gone" } | { outcome: "parent"; relation: string }> {
    const dialect = this.sql.dialect;
    const row = await this.sql.get(
      `SELECT * FROM ${this.table} WHERE "id" = ${placeholder(dialect, 1)} AND "deleted_at" IS NOT NULL${lockClause(dialect, "update")}`,
      [id],
    );
    if (!row) return { outcome: "gone" };
    for (const [name, relation] of Object.entries(this.spec.belongsTo)) {
      const parentId = row[relation.foreignKey];
      if (parentId === null || parentId === undefined) continue;
      const parent = relation.target();
      if (!parent.softDelete) continue;
      const live = await this.sql.get(
        `SELECT "id" FROM ${quote(parent.name)} WHERE "id" = ${placeholder(dialect, 1)} AND "deleted_at" IS NULL${lockClause(dialect, "share")}`,
        [parentId],
      );
      if (!live) return { outcome: "parent", relation: name };
    }
    await restoreRows(this.sql, this.spec, [id], row.deleted_at);
    return { outcome: "restored" };
  }

  private from(): string {
    return fromClause(this.spec);
  }

  private encode(column: string, value: unknown): unknown {
    return encodeValue(this.columns[column]!, value, this.sql.dialect);
  }

  /** A column name from code or a validated query: anything else is a programming error, never SQL. */
  private column(name: string): string {
    if (!Object.hasOwn(this.columns, name))
      throw new Error(`${this.spec.name} has no column ${name}`);
    return quote(name);
  }

  /** The keys of an order, qualified; the table's own columns other than the standard ones may be NULL. */
  private orderKeys(orderBy: readonly Partial<Record<string, "asc" | "desc">>[]) {
    return orderBy.flatMap((entry) =>
      Object.entries(entry).map(([name, direction]) => ({
        name,
        column: `${this.alias}.${this.column(name)}`,
        direction: (direction === "desc" ? "desc" : "asc") as "asc" | "desc",
        nullable: !Object.hasOwn(standardColumns, name),
      })),
    );
  }

  private filter(
    options: CountOptions<Model>,
    values: Values,
    joinRelations: boolean,
  ): { joins: string; conditions: string } {
    const conditions: string[] = [];
    const joins: string[] = [];
    if (this.spec.softDelete && !options.withTrashed)
      conditions.push(`${this.alias}."deleted_at" IS NULL`);
    for (const [column, value] of Object.entries(
      (options.where ?? {}) as Record<string, unknown>,
    )) {
      if (value === undefined) continue;
      conditions.push(
        value === null
          ? `${this.alias}.${this.column(column)} IS NULL`
          : `${this.alias}.${this.column(column)} = ${values.add(this.encode(column, value))}`,
      );
    }
    for (const [name, hash] of Object.entries(options.related ?? {})) {
      const relation = this.relation(name);
      const alias = quote(name);
      if (joinRelations)
        joins.push(
          ` JOIN ${quote(relation.target().name)} AS ${alias} ON ${alias}."id" = ${this.alias}.${quote(relation.foreignKey)}`,
        );
      conditions.push(`${alias}."hash" = ${values.add(hash)}`);
    }
    for (const condition of options.conditions ?? []) {
      if ("linkedFrom" in condition) {
        conditions.push(this.linkedFromCondition(condition.linkedFrom, values));
        continue;
      }
      if ("relation" in condition && Object.hasOwn(this.spec.belongsToMany, condition.relation)) {
        const hashes = (condition.value as readonly string[]).map((hash) => values.add(hash));
        conditions.push(
          linkedToAny(this.manyRelation(condition.relation), `${this.alias}."id"`, hashes),
        );
        continue;
      }
      if ("relation" in condition) {
        const relation = this.relation(condition.relation);
        const foreignKey = `${this.alias}.${quote(relation.foreignKey)}`;
        conditions.push(
          condition.op === "null"
            ? `${foreignKey} IS ${condition.value === true ? "" : "NOT "}NULL`
            : `${foreignKey} IN (SELECT "id" FROM ${quote(relation.target().name)} WHERE "hash" IN (${(condition.value as readonly string[]).map((hash) => values.add(hash)).join(", ")}))`,
        );
        continue;
      }
      const { column } = condition;
      // Text matches compare text: a pattern is bound as text whatever the column's kind.
      const text = textMatchOperators.has(condition.op);
      conditions.push(
        columnComparison(
          this.sql.dialect,
          `${this.alias}.${this.column(column)}`,
          condition,
          (value) => values.add(text ? value : this.encode(column, value)),
        ),
      );
    }
    if (options.search && options.search.words.length > 0) {
      const columns = options.search.columns.map((name) => `${this.alias}.${this.column(name)}`);
      conditions.push(
        searchCondition(this.sql.dialect, columns, options.search.words, (pattern) =>
          values.add(pattern),
        ),
      );
    }
    if (options.scope) conditions.push(...this.scopeConditions(options.scope, values));
    return {
      joins: joins.join(""),
      conditions: conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "",
    };
  }

  /** What a row the caller reaches must be: live, and within `scope` when given (qualified by the alias). */
  private reach(scope: RowScope | readonly RowScope[] | undefined, values: Binder): string[] {
    return [
      ...(this.spec.softDelete ? [`${this.alias}."deleted_at" IS NULL`] : []),
      ...(scope ? this.scopeConditions(scope, values) : []),
    ];
  }

  /** A scope's conditions on this table's rows (see RowScope); its columns come from code, never from a request. */
  private scopeConditions(scope: RowScope | readonly RowScope[], values: Binder): string[] {
    return scopeList(scope).flatMap((one) => this.oneScopeConditions(one, values));
  }

  private oneScopeConditions(scope: RowScope, values: Binder): string[] {
    const equal = (column: string, kind: ColumnKind, value: unknown, owner: string) =>
      value === null || value === undefined
        ? `${owner}${quote(column)} IS NULL`
        : `${owner}${quote(column)} = ${values.add(encodeValue(kind, value, this.sql.dialect))}`;
    const conditions = Object.entries(scope.where ?? {}).map(([column, value]) => {
      this.column(column); // a column of this table, or a programming error
      return equal(column, this.columns[column]!, value, `${this.alias}.`);
    });
    for (const [name, where] of Object.entries(scope.through ?? {})) {
      const relation = this.relation(name);
      const target = relation.target();
      const kinds = columnsOf(target);
      const inner = Object.entries(where).map(([column, value]) => {
        if (!Object.hasOwn(kinds, column))
          throw new Error(`${target.name} has no column ${column}`);
        return equal(column, kinds[column]!, value, "");
      });
      if (target.softDelete) inner.push(`"deleted_at" IS NULL`);
      conditions.push(
        `${this.alias}.${quote(relation.foreignKey)} IN (SELECT "id" FROM ${quote(target.name)} WHERE ${inner.join(" AND ") || "TRUE"})`,
      );
    }
    return conditions;
  }

  private relation(name: string): RelationSpec {
    const relation = Object.hasOwn(this.spec.belongsTo, name)
      ? this.spec.belongsTo[name]
      : undefined;
    if (!relation) throw new Error(`${this.spec.name} has no belongsTo relation ${name}`);
    return relation;
  }

  private shape(relations: readonly string[]): Shape {
    const loaded = Object.keys(this.spec.belongsTo).filter((name) => relations.includes(name));
    const key = loaded.join(",");
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = buildShape(this.spec, loaded, this.sql.dialect);
      this.shapes.set(key, shape);
    }
    return shape;
  }

  /** The read shape of a hasMany's items (their own belongsTo as hashes), built once per relation. */
  private hasManyShape(name: string, target: TableSpec): Shape {
    const key = `hasMany:${name}`;
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = buildShape(target, [], this.sql.dialect);
      this.shapes.set(key, shape);
    }
    return shape;
  }

  private loadsMany(relations: readonly string[]): boolean {
    return relations.some(
      (name) =>
        Object.hasOwn(this.spec.hasMany, name) || Object.hasOwn(this.spec.belongsToMany, name),
    );
  }

  /** Loads each requested hasMany for every record at once: one statement per relation, ordered like lists. */
  private async withHasMany(
    records: Record<string, unknown>[],
    relations: readonly string[],
    scopeOf?: FindOptions<Model>["scopeOf"],
  ): Promise<Record<string, unknown>[]> {
    for (const [name, relation] of Object.entries(this.spec.hasMany)) {
      if (!relations.includes(name)) continue;
      const byParent = nestedLists(records, name);
      if (records.length === 0) continue;
      const target = relation.target();
      const shape = this.hasManyShape(name, target);
      const { items, values } = this.nestedItems(target, shape, byParent.keys(), scopeOf?.(name));
      const rows = await this.sql.all(hasManyItems(relation, items), values.list);
      for (const row of rows.map(shape.decode))
        byParent.get(row[relation.foreignKey] as number)?.push(row);
    }
    for (const [name, relation] of Object.entries(this.spec.belongsToMany))
      if (relations.includes(name)) await this.withLinked(records, name, relation, scopeOf);
    return records;
  }

  /**
   * Loads one belongsToMany for every record at once: one statement through the pivot, live related
   * records only (a soft-deleted one stays linked, unseen), each with its `pivot` values.
   */
  private async withLinked(
    records: Record<string, unknown>[],
    name: string,
    relation: ManyToManySpec,
    scopeOf?: FindOptions<Model>["scopeOf"],
  ): Promise<void> {
    const byOwner = nestedLists(records, name);
    if (records.length === 0) return;
    const target = relation.target();
    const shape = this.hasManyShape(`belongsToMany:${name}`, target);
    const { items, values } = this.nestedItems(target, shape, byOwner.keys(), scopeOf?.(name));
    const pivotKinds = relation.pivotColumns ?? {};
    for (const row of await this.sql.all(linkedItems(relation, items), values.list)) {
      const record = shape.decode(row);
      if (Object.keys(pivotKinds).length > 0) record.pivot = this.pivotOf(pivotKinds, row, "link.");
      byOwner.get(Number(row["link.owner"]))?.push(record);
    }
  }

  /**
   * The parts of the statement that loads a page's nested records of `target` (has-many.ts,
   * belongs-to-many.ts): their read shape, the parents' ids bound, and what the records must also
   * be — live, and within the caller's reach in their own resource, as a list of them would be.
   */
  private nestedItems(
    target: TableSpec,
    shape: Shape,
    parentIds: Iterable<number>,
    scope: RowScope | readonly RowScope[] | undefined,
  ): { items: NestedItems; values: Values } {
    const values = new Values(this.sql.dialect);
    const parents = [...parentIds].map((id) => values.add(id)).join(", ");
    const reach = new Table(this.sql, target)
      .reach(scope, values)
      .map((condition) => ` AND ${condition}`)
      .join("");
    const items = {
      columns: shape.columns,
      joins: shape.joins,
      from: fromClause(target),
      alias: rootAlias(target),
      parents,
      reach,
    };
    return { items, values };
  }

  /** The pivot values of row `ownId`'s links to `records` (set as their `pivot`), for a relation's own list. */
  async withPivot(
    ownId: number,
    name: string,
    records: readonly Record<string, unknown>[],
  ): Promise<void> {
    const relation = this.manyRelation(name);
    const kinds = relation.pivotColumns ?? {};
    if (Object.keys(kinds).length === 0) return;
    const found = await pivotRows(
      this.sql,
      relation,
      ownId,
      records.map((record) => record.id as number),
    );
    for (const record of records)
      record.pivot = this.pivotOf(kinds, found.get(record.id as number) ?? {}, "");
  }

  /** A link's pivot values, decoded from a row that holds them under `prefix`. */
  private pivotOf(
    kinds: Readonly<Record<string, ColumnKind>>,
    row: SqlRow,
    prefix: string,
  ): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(kinds).map(([column, kind]) => [
        column,
        decodeValue(kind, row[`${prefix}${column}`], this.sql.dialect),
      ]),
    );
  }

  /**
   * Links row `ownId` to exactly `links` through relation `name`, among the related rows the
   * caller reaches (`scope`, live ones): see relations/belongs-to-many.ts syncLinks.
   */
  async syncLinks(
    ownId: number,
    name: string,
    links: readonly Link[],
    scope?: RowScope | readonly RowScope[],
  ): Promise<void> {
    const relation = this.manyRelation(name);
    const target = new Table(this.sql, relation.target());
    // The related rows the caller reaches, read under the alias their conditions name.
    await syncLinks(this.sql, relation, ownId, links, (values) => ({
      from: fromClause(target.spec),
      conditions: target.reach(scope, values),
    }));
  }

  /** Links row `ownId` to one related row (idempotent; pivot values given are written). */
  attach(ownId: number, name: string, link: Link): Promise<void> {
    return attachLink(this.sql, this.manyRelation(name), ownId, link);
  }

  /** Unlinks row `ownId` from one related row; false when they were not linked. */
  detach(ownId: number, name: string, otherId: number): Promise<boolean> {
    return detachLink(this.sql, this.manyRelation(name), ownId, otherId);
  }

  /** This table's rows that row `ownId` of another table links to through its relation. */
  private linkedFromCondition(from: LinkedCondition["linkedFrom"], values: Values): string {
    if (from.relation.target() !== this.spec)
      throw new Error(`That belongsToMany does not point at ${this.spec.name}`);
    return linkedFrom(from.relation, `${this.alias}."id"`, values.add(from.ownId));
  }

  private manyRelation(name: string): ManyToManySpec {
    const relation = Object.hasOwn(this.spec.belongsToMany, name)
      ? this.spec.belongsToMany[name]
      : undefined;
    if (!relation) throw new Error(`${this.spec.name} has no belongsToMany relation ${name}`);
    return relation;
  }
}

/**
 * The Table of each TableSpec among `tables` (what openTables(db) returns: its `sql` handle is not a
 * table), for code that knows a resource by its declaration.
 */
export function tableLookup(
  tables: Readonly<Record<string, unknown>>,
): (spec: TableSpec) => Table<any, any> {
  const bySpec = new Map<TableSpec, Table<any, any>>();
  for (const table of Object.values(tables))
    if (table instanceof Table) bySpec.set(table.spec, table);
  return (spec) => {
    const table = bySpec.get(spec);
    if (!table) throw new Error(`No table for ${spec.name}`);
    return table;
  };
}

function buildShape(spec: TableSpec, loaded: readonly string[], dialect: SqlDialect): Shape {
  const columns: string[] = [];
  const joins: string[] = [];
  const decode = readShape(spec, rootAlias(spec), "", loaded, columns, joins, dialect);
  return { columns: columns.join(", "), joins: joins.join(""), decode, findOne: new Map() };
}

/**
 * Adds the columns of `spec` (joined as `alias`) to the SELECT list and returns the function that
 * turns a result row back into a record: belongsTo relations as `{ hash }`, or as whole records
 * (with their own belongsTo as hashes) when loaded. A joined column is named by its path:
 * `"patient"."name" AS "patient.name"`.
 */
function readShape(
  spec: TableSpec,
  alias: string,
  path: string,
  loaded: readonly string[],
  columns: string[],
  joins: string[],
  dialect: SqlDialect,
): Decoder {
  const select = (column: string, from: string, prefix: string) => {
    const readable = `${prefix}${column}`;
    const name = readable.length > maxAliasLength ? `c${columns.length}` : readable;
    columns.push(
      prefix === ""
        ? `${quote(from)}.${quote(column)}`
        : `${quote(from)}.${quote(column)} AS ${quote(name)}`,
    );
    return name;
  };
  const fields = Object.entries(readableColumnsOf(spec)).map(([name, kind]) => ({
    name,
    kind,
    column: select(name, alias, path),
  }));
  const relations = Object.entries(spec.belongsTo).map(([name, relation]) => {
    const readable = `${path}${name}`;
    const joined = readable.length > maxAliasLength ? `j${joins.length}` : readable;
    joins.push(belongsToJoin(relation, joined, alias));
    const read: Decoder = loaded.includes(name)
      ? readShape(relation.target(), joined, `${joined}.`, [], columns, joins, dialect)
      : hashOnly(select("hash", joined, `${joined}.`));
    return { name, foreignKey: relation.foreignKey, read };
  });
  return (row) => {
    const record: Record<string, unknown> = {};
    for (const field of fields)
      record[field.name] = decodeValue(field.kind, row[field.column], dialect);
    for (const relation of relations)
      record[relation.name] = record[relation.foreignKey] === null ? null : relation.read(row);
    return record;
  };
}

/** A reach as a list of scopes that must all hold (none when undefined). */
function scopeList(scope: RowScope | readonly RowScope[] | undefined): readonly RowScope[] {
  if (scope === undefined) return [];
  return Array.isArray(scope) ? scope : [scope as RowScope];
}

function defined(values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

// Ids per statement of a cascade: well under SQLite's and PostgreSQL's bound-value limits.
const idsPerStatement = 500;

/** `"column" IN (…)` for a chunk of ids bound from the `first`-th value of the statement on. */
function inIds(dialect: SqlDialect, column: string, ids: readonly number[], first = 1): string {
  const list = ids.map((_, index) => placeholder(dialect, first + index)).join(", ");
  return `${quote(column)} IN (${list})`;
}

function chunks(ids: readonly number[]): number[][] {
  const all: number[][] = [];
  for (let start = 0; start < ids.length; start += idsPerStatement)
    all.push(ids.slice(start, start + idsPerStatement));
  return all;
}

/** Whether live rows point at any of `ids` through one of the table's restrict relations. */
async function isReferenced(sql: Sql, spec: TableSpec, ids: readonly number[]): Promise<boolean> {
  for (const relation of spec.restrictedBy) {
    const target = relation.target();
    const live = target.softDelete ? ` AND "deleted_at" IS NULL` : "";
    for (const chunk of chunks(ids)) {
      const found = await sql.get(
        `SELECT 1 AS "found" FROM ${quote(target.name)} WHERE ${inIds(sql.dialect, relation.foreignKey, chunk)}${live} LIMIT 1`,
        chunk,
      );
      if (found !== undefined) return true;
    }
  }
  return false;
}

/** The rows one soft delete takes: each table's ids, the row asked for first and its cascade after it. */
type SoftDeletion = { spec: TableSpec; ids: number[] }[];

/**
 * What soft-deleting the live rows `ids` of `spec` takes, decided before anything is written:
 * false when a restrict relation (here or down a cascade) has live rows, else the rows, with each
 * soft-delete cascade's rows locked and followed down in turn.
 */
async function planSoftDelete(
  sql: Sql,
  spec: TableSpec,
  ids: number[],
  plan: SoftDeletion,
): Promise<boolean> {
  if (ids.length === 0) return true;
  if (await isReferenced(sql, spec, ids)) return false;
  plan.push({ spec, ids });
  for (const relation of spec.cascadeTo) {
    const target = relation.target();
    if (!target.softDelete) continue;
    for (const chunk of chunks(ids)) {
      const children = await sql.all(
        `SELECT "id" FROM ${quote(target.name)} WHERE ${inIds(sql.dialect, relation.foreignKey, chunk)} AND "deleted_at" IS NULL${lockClause(sql.dialect, "update")}`,
        chunk,
      );
      const childIds = children.map((child) => Number(child.id));
      if (!(await planSoftDelete(sql, target, childIds, plan))) return false;
    }
  }
  return true;
}

/**
 * Soft-deletes the live rows `ids` of `spec` at `at` and applies onDelete to what points at them:
 * restrict → false, and nothing is written; setNull → links cleared; cascade → soft-deleted at the
 * same instant or, without soft delete, deleted (the database's own foreign keys apply below those,
 * and a refusal there throws its foreign-key error, which rolls the transaction back).
 */
async function softDeleteRows(
  sql: Sql,
  spec: TableSpec,
  ids: number[],
  at: Date,
): Promise<boolean> {
  const plan: SoftDeletion = [];
  if (!(await planSoftDelete(sql, spec, ids, plan))) return false;
  const { dialect } = sql;
  const stamp = encodeValue("datetime", at, dialect);
  for (const step of plan) {
    for (const chunk of chunks(step.ids)) {
      for (const relation of step.spec.nullOnDelete)
        await sql.run(
          `UPDATE ${quote(relation.target().name)} SET ${quote(relation.foreignKey)} = NULL, "updated_at" = ${placeholder(dialect, 1)} WHERE ${inIds(dialect, relation.foreignKey, chunk, 2)}`,
          [stamp, ...chunk],
        );
      for (const relation of step.spec.cascadeTo.filter((entry) => !entry.target().softDelete))
        await sql.run(
          `DELETE FROM ${quote(relation.target().name)} WHERE ${inIds(dialect, relation.foreignKey, chunk)}`,
          chunk,
        );
      await sql.run(
        `UPDATE ${quote(step.spec.name)} SET "deleted_at" = ${placeholder(dialect, 1)}, "updated_at" = ${placeholder(dialect, 2)} WHERE ${inIds(dialect, "id", chunk, 3)} AND "deleted_at" IS NULL`,
        [stamp, stamp, ...chunk],
      );
    }
  }
  return true;
}

/** Restores the rows `ids` of `spec`, and what their soft delete cascaded to (deleted at `at`, the same instant). */
async function restoreRows(
  sql: Sql,
  spec: TableSpec,
  ids: readonly number[],
  at: unknown,
): Promise<void> {
  const { dialect } = sql;
  for (const relation of spec.cascadeTo) {
    const target = relation.target();
    if (!target.softDelete) continue;
    for (const chunk of chunks(ids)) {
      const children = await sql.all(
        `SELECT "id" FROM ${quote(target.name)} WHERE ${inIds(dialect, relation.foreignKey, chunk)} AND "deleted_at" = ${placeholder(dialect, chunk.length + 1)}${lockClause(dialect, "update")}`,
        [...chunk, at],
      );
      if (children.length > 0)
        await restoreRows(
          sql,
          target,
          children.map((child) => Number(child.id)),
          at,
        );
    }
  }
  const now = encodeValue("datetime", new Date(), dialect);
  for (const chunk of chunks(ids))
    await sql.run(
      `UPDATE ${quote(spec.name)} SET "deleted_at" = NULL, "updated_at" = ${placeholder(dialect, 1)} WHERE ${inIds(dialect, "id", chunk, 2)}`,
      [now, ...chunk],
    );
}
