// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { isoInstant, parseDate, parseDateTime } from "./dates.js";

/** Output conversions shared by every serializer: dates as ISO strings, decimals as exact strings. */

export function isoDateTime(value: Date | null): string | null {
  return value === null ? null : isoInstant(value);
}

export function isoDate(value: Date | null): string | null {
  return value === null ? null : isoInstant(value).slice(0, 10);
}

export function decimalString(
  value: { toFixed(digits: number): string } | null,
  scale: number,
): string | null {
  return value === null ? null : value.toFixed(scale);
}

/**
 * How a stored value of a column kind is output (dates, datetimes, decimals with `scale` places);
 * undefined when it is output as stored.
 */
export function outputOf(kind: string, scale = 0): ((value: unknown) => unknown) | undefined {
  switch (kind) {
    case "date":
      return (value) => isoDate((value ?? null) as Date | null);
    case "datetime":
      return (value) => isoDateTime((value ?? null) as Date | null);
    case "decimal":
      return (value) =>
        decimalString((value ?? null) as { toFixed(digits: number): string } | null, scale);
    default:
      return undefined;
  }
}

/**
 * Payload conversions: JSON dates become Date objects for the database. The validator has already
 * refused anything these parsers do not read (dates.ts), so a miss here is a bug, not bad input.
 */
export function toDate(value: string | null | undefined): Date | null | undefined {
  if (value === null || value === undefined) return value;
  const date = value.length === 10 ? parseDate(value) : parseDateTime(value);
  if (!date) throw new Error(`toDate: "${value}" passed validation but is not a date`);
  return date;
}
