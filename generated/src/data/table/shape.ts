// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decoderOf } from "../column-codec.js";
import { objectBuilder, type BuiltKey } from "../../base/object-builder.js";
import { belongsToJoin, hashOnly } from "../relations/belongs-to.js";
import { quote, type SqlDialect, type SqlValues } from "../../db/sql.js";
import type { Decoder, Shape, TableContext } from "./context.js";

export type { Decoder, ReturnedRow, Shape } from "./context.js";
import { readableColumnsOf, relationsOfKind, rootAlias, type TableSpec } from "./spec.js";

/*
 * A read shape: the SELECT list, the joins and the decoder of one set of loaded relations. Built once
 * per table and shape, so a request only binds values. belongsTo relations are LEFT JOINs of the
 * record's own statement (their hash, or the whole record when loaded); aliases are the table and
 * relation names, so a statement in a log or an EXPLAIN reads like the schema. Rows are read as
 * arrays (Sql.rows): a decoder takes each value at its place in the SELECT list.
 */

// PostgreSQL cuts identifiers at 63 bytes (with a notice): a longer alias gets a short name instead.
// Rows are read by position, so an alias only serves whoever reads the statement.
const maxAliasLength = 63;

/**
 * The read shape of a table's rows with the belongsTo relations among `relations` loaded, and those
 * in `unshown` (a read for output's, OutputRead) neither loaded nor joined.
 */
export function shapeOf(
  context: TableContext,
  relations: readonly string[],
  unshown: readonly string[] = [],
): Shape {
  const loaded = relationsOfKind(context.spec, "belongsTo")
    .map(([name]) => name)
    .filter((name) => relations.includes(name));
  const left = unshown.filter((name) => !loaded.includes(name));
  const key =
    left.length === 0 ? loaded.join(",") : `${loaded.join(",")} without ${left.join(",")}`;
  return cachedShape(context, key, context.spec, loaded, left);
}

/** The read shape of a relation's nested records (their own belongsTo as hashes), built once per relation. */
export function nestedShape(context: TableContext, key: string, target: TableSpec): Shape {
  return cachedShape(context, `nested:${key}`, target, [], []);
}

function cachedShape(
  context: TableContext,
  key: string,
  spec: TableSpec,
  loaded: readonly string[],
  unjoined: readonly string[],
): Shape {
  let shape = context.cache.shapes.get(key);
  if (!shape) {
    shape = buildShape(spec, loaded, unjoined, context.sql.dialect);
    context.cache.shapes.set(key, shape);
  }
  return shape;
}

function buildShape(
  spec: TableSpec,
  loaded: readonly string[],
  unjoined: readonly string[],
  dialect: SqlDialect,
): Shape {
  const columns: string[] = [];
  const joins: string[] = [];
  const parts = { columns, joins, dialect };
  const decoders = readShape(spec, rootAlias(spec), "", loaded, parts, unjoined);
  return {
    columns: columns.join(", "),
    width: columns.length,
    joins: joins.join(""),
    decode: decoders.row,
    decodeForOutput: decoders.forOutput,
    findOne: new Map(),
  };
}

/** The SELECT list and joins a shape is being built into. */
interface ShapeParts {
  readonly columns: string[];
  readonly joins: string[];
  readonly dialect: SqlDialect;
}

/** A read shape's two decoders of one row: for code (Row types), and for output only. */
interface Decoders {
  readonly row: Decoder;
  readonly forOutput: Decoder;
}

/**
 * Adds the columns of `spec` (joined as `alias`) to the SELECT list and returns the functions that
 * turn a result row back into a record: belongsTo relations as `{ hash }`, or as whole records
 * (with their own belongsTo as hashes) when loaded; those in `unjoined` not at all. A joined
 * column is named by its path, for whoever reads the statement: `"patient"."name" AS "patient.name"`.
 */
function readShape(
  spec: TableSpec,
  alias: string,
  path: string,
  loaded: readonly string[],
  parts: ShapeParts,
  unjoined: readonly string[] = [],
): Decoders {
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
    kind,
    at: select(name, alias, path),
  }));
  const kept = relationsOfKind(spec, "belongsTo").filter(([name]) => !unjoined.includes(name));
  const relations = kept.map(([name, relation]) => {
    const readable = `${path}${name}`;
    const joined = readable.length > maxAliasLength ? `j${joins.length}` : readable;
    joins.push(belongsToJoin(relation, joined, alias));
    const read: Decoders = loaded.includes(name)
      ? readShape(relation.target(), joined, `${joined}.`, [], parts)
      : bothAlike(hashOnly(select("hash", joined, `${joined}.`)));
    return { name, foreignKey: relation.foreignKey, read };
  });
  const decoder = (forOutput: boolean): Decoder => {
    const values = fields.map(({ name, kind, at }): BuiltKey<SqlValues, void, void> => {
      const decode = decoderOf(kind, dialect, forOutput);
      return { key: name, write: (row) => decode(row[at]) };
    });
    const related = relations.map(({ name, foreignKey, read }): BuiltKey<SqlValues, void, void> => {
      // A foreign key read as NULL (or absent) decodes to null: no related record.
      const at = fields.find((field) => field.name === foreignKey)?.at;
      const readRelated = forOutput ? read.forOutput : read.row;
      if (at === undefined) return { key: name, write: readRelated };
      return {
        key: name,
        write: (row) => (row[at] === null || row[at] === undefined ? null : readRelated(row)),
      };
    });
    const build = objectBuilder([...values, ...related]);
    return (row) => build(row, undefined, undefined);
  };
  return { row: decoder(false), forOutput: decoder(true) };
}

function bothAlike(decode: Decoder): Decoders {
  return { row: decode, forOutput: decode };
}
