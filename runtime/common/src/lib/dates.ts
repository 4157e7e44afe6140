// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * The one reading of dates and date-times that payloads, query filters and the database share.
 * Stricter than `Date.parse` on purpose: "2023-02-31" is not March 3rd, second 60 does not exist in a
 * JavaScript Date, and an instant outside years 0001–9999 (after its offset is applied) could not be
 * written back in the documented `YYYY-MM-DDTHH:mm:ss.sssZ` form — PostgreSQL has no year 0 either.
 */

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const firstInstant = utc(1, 1, 1); // 0001-01-01T00:00:00.000Z
const lastInstant = utc(9999, 12, 31, 23, 59, 59, 999);

function utc(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
): number {
  const date = new Date(0);
  // setUTCFullYear keeps years 0–99 literal (Date.UTC would read 5 as 1905).
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return new Date(utc(year, month, day)).getUTCDate() === day;
}

/** `YYYY-MM-DD` as that UTC day, or undefined when it is not a real calendar day in 0001–9999. */
export function parseDate(text: string): Date | undefined {
  const match = datePattern.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || !isCalendarDay(year, month, day)) return undefined;
  return new Date(utc(year, month, day));
}

/** An RFC 3339 date-time with an offset, or undefined when any part is out of range. */
export function parseDateTime(text: string): Date | undefined {
  const match = dateTimePattern.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (match[9] !== undefined) {
    const offsetHours = Number(match[10]);
    const offsetRest = Number(match[11]);
    if (offsetHours > 23 || offsetRest > 59) return undefined;
    offsetMinutes = (match[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const ms = match[7] === undefined ? 0 : Math.floor(Number(`0.${match[7]}`) * 1000);
  const instant = utc(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  if (instant < firstInstant || instant > lastInstant) return undefined;
  return new Date(instant);
}

const twoDigits = (value: number): string => (value < 10 ? `0${value}` : `${value}`);

/**
 * `date.toISOString()`, by hand for years 0000–9999: V8's builtin takes ≈ 0.7 µs a call and this
 * ≈ 0.25 µs, which counts where a page of records writes dozens of dates. Other years (written
 * `+010000-…` by toISOString) and an invalid Date (a RangeError) go to toISOString itself.
 */
export function isoInstant(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const ms = date.getUTCMilliseconds();
  const paddedYear = `${year}`.padStart(4, "0");
  const paddedMs = ms >= 100 ? `${ms}` : ms >= 10 ? `0${ms}` : `00${ms}`;
  return `${paddedYear}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}T${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}.${paddedMs}Z`;
}
