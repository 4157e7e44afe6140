// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Decimal } from "@prisma/client/runtime/client";
import {
  isoInstant,
  parseDate,
  parseDateTime,
  storedInstant,
  storedIsoInstant,
} from "../base/dates.js";
import type { FilterKind } from "./list-operators.js";
import { anyHashPattern, uuidPattern } from "../base/public-names.js";
import type { SqlDialect } from "../db/sql.js";

/*
 * How a value of each kind travels, in one place: from the database (decode), to it (encode), to
 * JSON (output), from a query string (parseQueryValue) and into a cursor and back (cursorValue,
 * fromCursorValue), and how a message names the kind.
 */

/** How a stored column becomes the value Prisma's row types promise, and back. */
export type ColumnKind =
  "integer" | "string" | "decimal" | "boolean" | "date" | "datetime" | "json";

type Decode = (value: NonNullable<unknown>, dialect: SqlDialect) => unknown;

const asIs: Decode = (value) => value;
const decodeInstant: Decode = (value) =>
  // SQLite holds Prisma's ISO text; PostgreSQL a Date (timestamptz) or "YYYY-MM-DD" (date, kept as text).
  value instanceof Date ? value : storedInstant(value as string);

/** Each kind's decoding of a stored value that is not null, looked up once per column by a read shape. */
const decoders: Record<ColumnKind, Decode> = {
  date: decodeInstant,
  datetime: decodeInstant,
  decimal: (value) => new Decimal(value as string | number),
  boolean: (value) => value === true || value === 1,
  json: (value, dialect) =>
    dialect.jsonAsText && typeof value === "string" ? JSON.parse(value) : value,
  integer: (value) =>
    typeof value === "bigint" || typeof value === "string" ? Number(value) : value,
  string: asIs,
};

/**
 * How a stored column of `kind` is decoded: once per read shape, not a switch per value. A read
 * made only to be output (`forOutput`) keeps dates as stored (SQLite's text, PostgreSQL's Date or
 * day text), which outputOf writes exactly as it writes the Date: a `?with=` page of 60 records
 * holds 165 dates, and making a Date of each was a tenth of the request.
 */
export function decoderOf(
  kind: ColumnKind,
  dialect: SqlDialect,
  forOutput = false,
): (value: unknown) => unknown {
  const decode =
    forOutput && (kind === "date" || kind === "datetime") ? asIs : (decoders[kind] ?? asIs);
  return (value) => (value === null || value === undefined ? null : decode(value, dialect));
}

/** A stored instant (a datetime column) as a Date; null for NULL. */
export function decodedInstant(value: unknown, dialect: SqlDialect): Date | null {
  const decoded = decodeValue("datetime", value, dialect);
  return decoded instanceof Date ? decoded : null;
}

/** A stored instant of a column that is never NULL (an event's, a delivery's), as a Date. */
export function requiredInstant(value: unknown, dialect: SqlDialect): Date {
  const decoded = decodedInstant(value, dialect);
  if (decoded === null) throw new Error("an instant was read as NULL");
  return decoded;
}

export function decodeValue(kind: ColumnKind, value: unknown, dialect: SqlDialect): unknown {
  if (value === null || value === undefined) return null;
  return (decoders[kind] ?? asIs)(value, dialect);
}

export function encodeValue(kind: ColumnKind, value: unknown, dialect: SqlDialect): unknown {
  if (value === null || value === undefined) return null;
  if (kind === "json") return JSON.stringify(value);
  if (kind === "decimal" && typeof value === "object") return String(value);
  // A calendar date is the UTC day: never let the driver shift it by the server's time zone.
  if (kind === "date" && dialect.datesAsDayText && value instanceof Date)
    return value.toISOString().slice(0, 10);
  return value;
}

/** A date as output: a Date, or a date kept in its stored text (decoderOf's `forOutput`). */
function outputInstant(value: unknown): string {
  return typeof value === "string" ? storedIsoInstant(value) : isoInstant(value as Date);
}

/**
 * How a stored value of a column kind is output (dates, datetimes, decimals with `scale` places);
 * undefined when it is output as stored.
 */
export function outputOf(kind: string, scale = 0): ((value: unknown) => unknown) | undefined {
  switch (kind) {
    case "date":
      return (value) => (value == null ? null : outputInstant(value).slice(0, 10));
    case "datetime":
      return (value) => (value == null ? null : outputInstant(value));
    case "decimal":
      return (value) =>
        value === null || value === undefined
          ? null
          : (value as { toFixed(digits: number): string }).toFixed(scale);
    default:
      return undefined;
  }
}

// Anything else matches no row, and PostgreSQL's uuid type would refuse it outright.
const uuidText = new RegExp(uuidPattern);
const anyHash = new RegExp(anyHashPattern);
// Integer columns are 32-bit (Prisma's Int): a value outside them matches nothing and would make
// PostgreSQL fail, so it is refused like any other invalid value.
const int32 = { min: -2_147_483_648, max: 2_147_483_647 };

/** How a kind is named in a filter's message, where that is not the kind itself. */
const kindNouns: Partial<Record<FilterKind, string>> = { relation: "identifier", uuid: "UUID" };

export function kindNoun(kind: FilterKind): string {
  return kindNouns[kind] ?? kind;
}

/**
 * A query-string value read as the kind reads it in payloads (dates by dates.ts, decimals exact as
 * text), or undefined when it is not one. Enum values are checked against the field's values by
 * the caller, which knows them.
 */
export function parseQueryValue(
  kind: FilterKind,
  raw: string,
): string | number | boolean | Date | undefined {
  switch (kind) {
    case "integer": {
      if (!/^-?\d{1,10}$/.test(raw)) return undefined;
      const value = Number(raw);
      return value >= int32.min && value <= int32.max ? value : undefined;
    }
    case "decimal":
      return /^-?\d{1,65}(\.\d{1,30})?$/.test(raw) ? raw : undefined;
    case "boolean":
      return queryBoolean(raw);
    case "date":
      return parseDate(raw);
    case "datetime":
      return parseDateTime(raw);
    case "relation":
      return anyHash.test(raw) ? raw : undefined;
    case "uuid":
      return uuidText.test(raw) ? raw : undefined;
    default:
      return isStorableText(raw) ? raw : undefined;
  }
}

/**
 * Text that no column can hold faithfully, in a body or a query: a lone UTF-16 surrogate (it would
 * be stored as invalid UTF-8 and grow past `max`) or a NUL character (PostgreSQL refuses it in
 * text and jsonb).
 */
const unstorable = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;
export function isStorableText(text: string): boolean {
  return !unstorable.test(text);
}

/** A sort key's value as a cursor holds it: JSON, exact (decimals and instants as text). */
export function cursorValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date)
    return kind === "date" ? isoInstant(value).slice(0, 10) : isoInstant(value);
  if (kind === "decimal") return String(value);
  return value;
}

/** A cursor's value back as the column's value, or undefined when it is not one of that kind. */
export function fromCursorValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null) return null;
  switch (kind) {
    case "integer":
      return Number.isSafeInteger(value) ? value : undefined;
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "decimal":
      return typeof value === "string" && /^-?\d{1,65}(\.\d{1,30})?$/.test(value)
        ? value
        : undefined;
    case "date":
      return typeof value === "string" ? parseDate(value) : undefined;
    case "datetime":
      return typeof value === "string" ? parseDateTime(value) : undefined;
    case "string":
      return typeof value === "string" && isStorableText(value) ? value : undefined;
    default:
      return undefined;
  }
}

/** A boolean of a query string, as a form or a link writes it: `true`/`false` or `1`/`0`. */
export function queryBoolean(raw: string): boolean | undefined {
  return raw === "true" || raw === "1" ? true : raw === "false" || raw === "0" ? false : undefined;
}
