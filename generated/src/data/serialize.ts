// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { parseDate, parseDateTime } from "../base/dates.js";

/** Output conversions live with the column kinds (column-codec.ts); payloads convert here. */
export { outputOf } from "./column-codec.js";

/**
 * Payload conversions: JSON dates become Date objects for the database. The validator has already
 * refused anything these parsers do not read (dates.ts), so a miss here is a bug, not bad input.
 */
export function toDate(value: unknown): Date | null | undefined {
  if (value === null || value === undefined) return value;
  if (typeof value !== "string")
    throw new Error(`toDate: a ${typeof value} passed validation as a date`);
  const date = value.length === 10 ? parseDate(value) : parseDateTime(value);
  if (!date) throw new Error(`toDate: "${value}" passed validation but is not a date`);
  return date;
}
