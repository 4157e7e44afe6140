// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decoderOf } from "../column-codec.js";
import { belongsToJoin, hashOnly } from "../relations/belongs-to.js";
import { quote, type SqlDialect, type SqlValues } from "../sql.js";
import type { TableContext } from "./context.js";
import { readableColumnsOf, relationsOfKind, rootAlias, type TableSpec } from "./spec.js";

/*
 * A read shape: the SELECT list, the joins and the decoder of one set of loaded relations. Built once
 * per table and shape, so a request only binds values. belongsTo relations are LEFT JOINs of the
 * record's own statement (their hash, or the whole record when loaded); aliases are the table and
 * relation names, so a statement in a log or an EXPLAIN reads like the schema. Rows are read as
 * arrays (Sql.rows): a decoder takes each value at its place in the SELECT list.
 */

export type Decoder = (row: SqlValues) => Record<string, unknown>;

export interface Shape {
  readonly columns: string;
  /** How many values the SELECT list has: a statement may add its own after them. */
  readonly width: number;
  readonly joins: string;
  readonly decode: Decoder;
  /** findOne's statement texts in this shape, by kind of lookup (a handful at most). */
  readonly findOne: Map<number, string>;
}

/** What a write whose row is the whole read returns: its RETURNING list and decoder. */
export interface ReturnedRow {
  readonly text: string;
  readonly decode: Decoder;
}

// PostgreSQL cuts identifiers at 63 bytes (with a notice): a longer alias gets a short name instead.
// Rows are read by position, so an alias only serves whoever reads the statement.
const maxAliasLength = 63;

/** The read shape of a table's rows with the belongsTo relations among `relations` loaded. */
export function shapeOf(context: TableContext, relations: readonly string[]): Shape {
  const loaded = relationsOfKind(context.spec, "belongsTo")
    .map(([name]) => name)
    .filter((name) => relations.includes(name));
  return cachedShape(context, loaded.join(","), context.spec, loaded);
}

/** The read shape of a relation's nested records (their own belongsTo as hashes), built once per relation. */
export function nestedShape(context: TableContext, key: string, target: TableSpec): Shape {
  return cachedShape(context, `nested:${key}`, target, []);
}

function cachedShape(
  context: TableContext,
  key: string,
  spec: TableSpec,
  loaded: readonly string[],
): Shape {
  let shape = context.cache.shapes.get(key);
  if (!shape) {
    shape = buildShape(spec, loaded, context.sql.dialect);
    context.cache.shapes.set(key, shape);
  }
  return shape;
}

function buildShape(spec: TableSpec, loaded: readonly string[], dialect: SqlDialect): Shape {
  const columns: string[] = [];
  const joins: string[] = [];
  const decode = readShape(spec, rootAlias(spec), "", loaded, { columns, joins, dialect });
  return {
    columns: columns.join(", "),
    width: columns.length,
    joins: joins.join(""),
    decode,
    findOne: new Map(),
  };
}

/** The SELECT list and joins a shape is being built into. */
interface ShapeParts {
  readonly columns: string[];
  readonly joins: string[];
  readonly dialect: SqlDialect;
}

/**
 * Adds the columns of `spec` (joined as `alias`) to the SELECT list and returns the function that
 * turns a result row back into a record: belongsTo relations as `{ hash }`, or as whole records
 * (with their own belongsTo as hashes) when loaded. A joined column is named by its path, for
 * whoever reads the statement: `"patient"."name" AS "patient.name"`.
 */
function readShape(
  spec: TableSpec,
  alias: string,
  path: string,
  loaded: readonly string[],
  parts: ShapeParts,
): Decoder {
  const { columns, joins, dialect } = parts;
  /** Adds a column to the SELECT list; returns its place there. */
  const select = (column: string, from: string, prefix: string): number => {
    const readable = `${prefix}${column}`;
    const name = readable.length > maxAliasLength ? `c${columns.length}` : readable;
    columns.push(
      prefix === ""
        ? `${quote(from)}.${quote(column)}`
        : `${quote(from)}.${quote(column)} AS ${quote(name)}`,
    );
    return columns.length - 1;
  };
  const fields = Object.entries(readableColumnsOf(spec)).map(([name, kind]) => ({
    name,
    decode: decoderOf(kind, dialect),
    at: select(name, alias, path),
  }));
  const relations = relationsOfKind(spec, "belongsTo").map(([name, relation]) => {
    const readable = `${path}${name}`;
    const joined = readable.length > maxAliasLength ? `j${joins.length}` : readable;
    joins.push(belongsToJoin(relation, joined, alias));
    const read: Decoder = loaded.includes(name)
      ? readShape(relation.target(), joined, `${joined}.`, [], parts)
      : hashOnly(select("hash", joined, `${joined}.`));
    return { name, foreignKey: relation.foreignKey, read };
  });
  return (row) => {
    const record: Record<string, unknown> = {};
    for (const field of fields) record[field.name] = field.decode(row[field.at]);
    for (const relation of relations)
      record[relation.name] = record[relation.foreignKey] === null ? null : relation.read(row);
    return record;
  };
}
