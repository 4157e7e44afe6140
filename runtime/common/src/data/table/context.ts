// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { encodeValue, type ColumnKind } from "../column-codec.js";
import { quote, type Sql, type SqlValues } from "../../db/sql.js";
import {
  columnsOf,
  relationNamed,
  relationOfKind,
  rootAlias,
  type BelongsToSpec,
  type ManyToManySpec,
  type RelationSpec,
  type TableSpec,
} from "./spec.js";

/**
 * One table on one database handle: what every module of lib/table/ works from. The statement
 * shapes it builds are kept in `cache`, shared by the same table on a transaction's handle.
 */
export interface TableContext {
  readonly sql: Sql;
  readonly spec: TableSpec;
  /** Every column of the table and its kind. */
  readonly columns: Readonly<Record<string, ColumnKind>>;
  /** The quoted alias reads use (see rootAlias); writes and single-table statements use `table`. */
  readonly alias: string;
  readonly table: string;
  readonly cache: TableCache;
}

/** Statement shapes built once per table: read shapes by loaded relations, and a write's RETURNING. */
export interface TableCache {
  readonly shapes: Map<string, Shape>;
  /** A list order's qualified keys, by the order's entries (reads.ts orderKeys). */
  readonly orders: Map<string, readonly OrderKey[]>;
  /** The statements of nested pages (nested-items.ts nestedPage). */
  readonly nestedStatements: Map<string, NestedStatements>;
  /** Related tables, on the handle they were made for (nested-items.ts). */
  readonly targets: Map<TableSpec, TableContext>;
  returnsRow?: ReturnedRow;
  /** Whether the database writes every column of the table as the service outputs it (one-statement.ts). */
  outputsInDatabase?: boolean;
}

export function tableContext(sql: Sql, spec: TableSpec, cache?: TableCache): TableContext {
  return {
    sql,
    spec,
    columns: columnsOf(spec),
    alias: quote(rootAlias(spec)),
    table: quote(spec.name),
    cache: cache ?? {
      shapes: new Map(),
      orders: new Map(),
      nestedStatements: new Map(),
      targets: new Map(),
    },
  };
}

/** A column name from code or a validated query: anything else is a programming error, never SQL. */
export function columnName(context: TableContext, name: string): string {
  if (!Object.hasOwn(context.columns, name))
    throw new Error(`${context.spec.name} has no column ${name}`);
  return quote(name);
}

/** A column qualified by the alias reads use: `"patients"."name"`. */
export function qualified(context: TableContext, name: string): string {
  return `${context.alias}.${columnName(context, name)}`;
}

/** A value as column `column` stores it on this database. */
export function encodeColumn(context: TableContext, column: string, value: unknown): unknown {
  return encodeValue(context.columns[column]!, value, context.sql.dialect);
}

/** Relation `name` of the table, from code or a validated query: anything else is a programming error. */
export function relationOf(context: TableContext, name: string): RelationSpec {
  const relation = relationNamed(context.spec, name);
  if (!relation) throw new Error(`${context.spec.name} has no relation ${name}`);
  return relation;
}

export function belongsToOf(context: TableContext, name: string): BelongsToSpec {
  const relation = relationOfKind(context.spec, name, "belongsTo");
  if (!relation) throw new Error(`${context.spec.name} has no belongsTo relation ${name}`);
  return relation;
}

export function belongsToManyOf(context: TableContext, name: string): ManyToManySpec {
  const relation = relationOfKind(context.spec, name, "belongsToMany");
  if (!relation) throw new Error(`${context.spec.name} has no belongsToMany relation ${name}`);
  return relation;
}

// The statement shapes a table caches (below), declared here so the files that build them import
// this one and nothing imports back up.

export type Decoder = (row: SqlValues) => Record<string, unknown>;

export interface Shape {
  readonly columns: string;
  /** How many values the SELECT list has: a statement may add its own after them. */
  readonly width: number;
  readonly joins: string;
  readonly decode: Decoder;
  /**
   * The same row for the serializer only: dates kept as stored (column-codec.ts decoderOf's
   * `forOutput`), which the serializer outputs as it outputs Dates. Never for code that reads the
   * values (services, policies, hooks, cursors).
   */
  readonly decodeForOutput: Decoder;
  /** findOne's statement texts in this shape, by kind of lookup (a handful at most). */
  readonly findOne: Map<number, string>;
}

/** What a write whose row is the whole read returns: its RETURNING list and decoder. */
export interface ReturnedRow {
  readonly text: string;
  readonly decode: Decoder;
}

/** One key of a list's order, qualified. */
export interface OrderKey {
  readonly name: string;
  readonly column: string;
  readonly direction: "asc" | "desc";
  readonly nullable: boolean;
}

/** See firstPerParent. */
export interface NestedStatements {
  readonly plain: string;
  /** Built only when it runs: most pages never need it. */
  readonly ranked: () => string;
  /** The most rows the plain statement may return and still have read every item. */
  readonly cap: number;
}
