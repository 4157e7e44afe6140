// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ColumnKind } from "../column-codec.js";
import { quote } from "../../db/sql.js";

/*
 * What a table is, as the model declares it in `<name>.repository.ts`: its columns, its relations
 * and what a delete does to the rows pointing at it. Everything else in lib/table/ reads this.
 */

/** Columns every table has, declared here once: the internal id, the public hash, the timestamps. */
export type StandardColumn = "id" | "hash" | "created_at" | "updated_at" | "deleted_at";
export const standardColumns: Readonly<Record<StandardColumn, ColumnKind>> = {
  id: "integer",
  hash: "string",
  created_at: "datetime",
  updated_at: "datetime",
  deleted_at: "datetime",
};

/** What every stored row has: its internal id and its public hash. */
export interface StoredRow {
  id: number;
  hash: string;
}

/** One row by its id, or by its hash where nothing read it first (an update that reads nothing first). */
export type RowKey = { readonly id: number } | { readonly hash: string };

/** The condition that selects the row `key` names, qualified by `owner` (an alias and a dot, or ""). */
export function rowKeyCondition(
  key: RowKey,
  owner: string,
  add: (value: unknown) => string,
): string {
  return "id" in key ? `${owner}"id" = ${add(key.id)}` : `${owner}"hash" = ${add(key.hash)}`;
}

/** Names of a record type's own columns (not its relations). */
export type ColumnOf<Model> = Extract<keyof Model, string>;

/**
 * A foreign key pointing at a table: a belongsTo seen from either end, or (in restrictedBy,
 * cascadeTo, nullOnDelete) another table's belongsTo that points here.
 */
export interface ForeignKeySpec {
  /** The column holding the parent's id: on this table for belongsTo, on the target for the others. */
  readonly foreignKey: string;
  /** A function, because tables point at each other and modules load one after the other. */
  readonly target: () => TableSpec;
}

/** A column of this table holds the id of a row of another (relations/belongs-to.ts). */
export interface BelongsToSpec extends ForeignKeySpec {
  readonly kind: "belongsTo";
}

/** Rows of another table whose `foreignKey` holds this row's id (relations/has-many.ts). */
export interface HasManySpec extends ForeignKeySpec {
  readonly kind: "hasMany";
}

/** A many-to-many relation seen from one of its tables (relations/belongs-to-many.ts). */
export interface ManyToManySpec {
  readonly kind: "belongsToMany";
  /** The pivot table: `doctors_specialties`. */
  readonly pivot: string;
  /** This table's id in the pivot, and the related table's. */
  readonly ownKey: string;
  readonly otherKey: string;
  readonly target: () => TableSpec;
  /** The pivot's own columns (its fields), output as `pivot` on each related record. */
  readonly pivotColumns?: Readonly<Record<string, ColumnKind>>;
}

/** A relation of a table, by kind: each kind is one module of lib/relations/, registered there. */
export type RelationSpec = BelongsToSpec | HasManySpec | ManyToManySpec;

export type RelationKindName = RelationSpec["kind"];

/** The relation spec of one kind. */
export type RelationOfKind<Kind extends RelationKindName> = Extract<RelationSpec, { kind: Kind }>;

// A table's spec never changes once declared: what is derived from it is derived once, not on
// every request that reads the table.
const relationsByKind = new WeakMap<TableSpec, Map<RelationKindName, readonly unknown[]>>();

/** A table's relations of one kind, with their names, in declaration order. */
export function relationsOfKind<Kind extends RelationKindName>(
  spec: TableSpec,
  kind: Kind,
): readonly (readonly [string, RelationOfKind<Kind>])[] {
  let byKind = relationsByKind.get(spec);
  if (byKind === undefined) relationsByKind.set(spec, (byKind = new Map()));
  let found = byKind.get(kind) as (readonly [string, RelationOfKind<Kind>])[] | undefined;
  if (found === undefined) {
    found = [];
    for (const [name, relation] of Object.entries(spec.relations))
      if (isKind(relation, kind)) found.push([name, relation]);
    byKind.set(kind, found);
  }
  return found;
}

/** Relation `name` of the table (own keys only: a name from a request is never a prototype's). */
export function relationNamed(spec: TableSpec, name: string): RelationSpec | undefined {
  return Object.hasOwn(spec.relations, name) ? spec.relations[name] : undefined;
}

/** Relation `name` of the table when it is of `kind`. */
export function relationOfKind<Kind extends RelationKindName>(
  spec: TableSpec,
  name: string,
  kind: Kind,
): RelationOfKind<Kind> | undefined {
  const relation = relationNamed(spec, name);
  return relation !== undefined && isKind(relation, kind) ? relation : undefined;
}

function isKind<Kind extends RelationKindName>(
  relation: RelationSpec,
  kind: Kind,
): relation is RelationOfKind<Kind> {
  return relation.kind === kind;
}

/**
 * A table as the model describes it, typed by Prisma's row type `Model`: every column other than the
 * standard ones must be declared, with the right name, or the project does not compile. `Model`
 * defaults to `object`: code that handles any table (a registry, a cascade) reads columns by name.
 */
export interface TableSpec<Model = object, Row = StoredRow> {
  readonly name: string;
  /** What its records' events are named after: `medical_record` (`medical_record.updated`). */
  readonly event: string;
  readonly softDelete: boolean;
  readonly columns: {
    readonly [Column in Exclude<ColumnOf<Model>, StandardColumn>]-?: ColumnKind;
  };
  /** Columns that writes set and no read ever selects (a user's password hash). */
  readonly writeOnly?: readonly string[];
  /** Unique text columns whose uniqueness ignores case (e-mails): `exists` compares them lower-cased, as their index does. */
  readonly caseless?: readonly string[];
  /**
   * Text columns with a trigram index (the migration writes it): on SQLite a list's substring
   * conditions on them are narrowed to the rows its FTS5 table matches (data/text-index.ts).
   */
  readonly textIndexed?: readonly string[];
  /**
   * With tenancy: the column that holds a row's tenant (`tenant_id`; `id` on the tenant resource's
   * own table). A payload may name only records of the writer's tenant (resource/tenancy.ts).
   */
  readonly tenantColumn?: string;
  /** Relations by name, each with its kind (see RelationSpec). */
  readonly relations: Readonly<Record<string, RelationSpec>>;
  /** Other tables whose live rows keep a row of this one from being deleted (onDelete: restrict). */
  readonly restrictedBy: readonly ForeignKeySpec[];
  /**
   * What a delete of a row does to the rows pointing at it: `cascadeTo` tables' rows are deleted
   * with it, `nullOnDelete` tables' links are cleared. A soft delete does it itself (soft-deleting
   * the cascade's rows that have soft delete, and restoring them with it); a hard delete leaves it
   * to the database's own foreign keys and records its events (events/cascade-events.ts).
   */
  readonly cascadeTo: readonly ForeignKeySpec[];
  readonly nullOnDelete: readonly ForeignKeySpec[];
  /** Carries the read type only: never set. */
  readonly row?: Row;
}

/** A table as `<name>.repository.ts` declares it: what it lacks (no soft delete, no relations) is left out. */
export type TableDeclaration<Model, Row> = Pick<TableSpec<Model, Row>, "name" | "columns"> &
  Partial<
    Pick<
      TableSpec<Model, Row>,
      | "event"
      | "softDelete"
      | "writeOnly"
      | "caseless"
      | "textIndexed"
      | "tenantColumn"
      | "relations"
      | "restrictedBy"
      | "cascadeTo"
      | "nullOnDelete"
    >
  >;

/** A table's full spec, with what its declaration left out made explicit (false, none; events named after the table). */
export function defineTable<Model, Row = Model>(
  declaration: TableDeclaration<Model, Row>,
): TableSpec<Model, Row> {
  return {
    event: declaration.name,
    softDelete: false,
    relations: {},
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

/** Lists' order unless a sort is asked for: oldest first, the id breaking ties. */
export const defaultOrder: readonly Record<string, "asc" | "desc">[] = [
  { created_at: "asc" },
  { id: "asc" },
];

/**
 * The rows a caller may reach (a policy's `scope`), ANDed into the very statement that reads them:
 * columns equal to values, and belongsTo relations whose row matches columns of its own, such as
 * `{ through: { doctor: { user_id: 7 } } }` for "records of the doctors user 7 is".
 */
export interface RowScope {
  readonly where?: Readonly<Record<string, unknown>>;
  readonly through?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A caller's reach: one scope, or several that must all hold (a list's, a parent's). */
export type Reach = RowScope | readonly RowScope[];

/** A reach as a list of scopes that must all hold (none when undefined). */
export function scopeList(scope: Reach | undefined): readonly RowScope[] {
  if (scope === undefined) return [];
  return isScopeList(scope) ? scope : [scope];
}

/**
 * Two reaches together (both must hold: a policy's scope, the owner's, the tenant's), or undefined
 * when neither narrows.
 */
export function bothScopes(first: Reach | undefined, second: Reach | undefined): Reach | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return [...scopeList(first), ...scopeList(second)];
}

function isScopeList(scope: Reach): scope is readonly RowScope[] {
  return Array.isArray(scope);
}

/**
 * The alias a table's own rows are read under: its name, unless one of its belongsTo relations has
 * that name too (their joins are aliased by relation name).
 */
export function rootAlias(spec: TableSpec): string {
  return relationOfKind(spec, spec.name, "belongsTo") ? `${spec.name}.row` : spec.name;
}

/** `"table"`, or `"table" AS "alias"` when they differ. */
export function fromClause(spec: TableSpec): string {
  const alias = rootAlias(spec);
  return alias === spec.name ? quote(spec.name) : `${quote(spec.name)} AS ${quote(alias)}`;
}

const columnsBySpec = new WeakMap<TableSpec, Readonly<Record<string, ColumnKind>>>();

/** Every column of a table: the standard ones it has and those it declares. */
export function columnsOf(spec: TableSpec): Readonly<Record<string, ColumnKind>> {
  let columns = columnsBySpec.get(spec);
  if (columns === undefined) {
    const { deleted_at, ...always } = standardColumns;
    columns = {
      ...always,
      ...(spec.softDelete ? { deleted_at } : {}),
      ...spec.columns,
    };
    columnsBySpec.set(spec, columns);
  }
  return columns;
}

/** The columns reads select: every column but the write-only ones. */
export function readableColumnsOf(spec: TableSpec): Readonly<Record<string, ColumnKind>> {
  const columns = columnsOf(spec);
  if (!spec.writeOnly?.length) return columns;
  const hidden = new Set<string>(spec.writeOnly);
  return Object.fromEntries(Object.entries(columns).filter(([name]) => !hidden.has(name)));
}

/** With tenancy: the id of a row's tenant (its `tenantColumn`), or null for a table of no tenant. */
export function tenantOfRow(spec: TableSpec, row: object): number | null {
  if (spec.tenantColumn === undefined) return null;
  const value = (row as Record<string, unknown>)[spec.tenantColumn];
  return typeof value === "number" ? value : value == null ? null : Number(value);
}
