// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ColumnKind } from "../column-codec.js";
import { quote } from "../sql.js";

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

/** Names of a record type's own columns (not its relations). */
export type ColumnOf<Model> = Extract<keyof Model, string>;

/** A relation to another table, seen from this one (belongsTo; hasMany reuses the shape). */
export interface RelationSpec {
  /** The column holding the parent's id: on this table for belongsTo, on the target for hasMany. */
  readonly foreignKey: string;
  /** A function, because tables point at each other and modules load one after the other. */
  readonly target: () => TableSpec;
}

/** A many-to-many relation seen from one of its tables (relations/belongs-to-many.ts). */
export interface ManyToManySpec {
  /** The pivot table: `doctors_specialties`. */
  readonly pivot: string;
  /** This table's id in the pivot, and the related table's. */
  readonly ownKey: string;
  readonly otherKey: string;
  readonly target: () => TableSpec;
  /** The pivot's own columns (its fields), output as `pivot` on each related record. */
  readonly pivotColumns?: Readonly<Record<string, ColumnKind>>;
}

/**
 * A table as the model describes it, typed by Prisma's row type `Model`: every column other than the
 * standard ones must be declared, with the right name, or the project does not compile. `Model`
 * defaults to `object`: code that handles any table (a registry, a cascade) reads columns by name.
 */
export interface TableSpec<Model = object, Row = StoredRow> {
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

function isScopeList(scope: Reach): scope is readonly RowScope[] {
  return Array.isArray(scope);
}

/**
 * The alias a table's own rows are read under: its name, unless one of its belongsTo relations has
 * that name too (their joins are aliased by relation name).
 */
export function rootAlias(spec: TableSpec): string {
  return Object.hasOwn(spec.belongsTo, spec.name) ? `${spec.name}.row` : spec.name;
}

/** `"table"`, or `"table" AS "alias"` when they differ. */
export function fromClause(spec: TableSpec): string {
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
