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
  // The pattern's first six groups are digits: each is there when it matched.
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map(Number);
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
 * A Date read from the text it is stored as, that keeps that text for its output: a page of records
 * outputs each date it read, and formatting a Date costs ≈ 0.3 µs where slicing its stored text costs
 * ≈ 0.01 µs (a `?with=` page holds over a hundred). A Date changed since it was read (its setters)
 * no longer matches `storedTime` and is formatted as any other.
 */
class StoredInstant extends Date {
  constructor(
    private readonly storedTime: number,
    private readonly storedText: string,
  ) {
    super(storedTime);
  }

  /** isoInstant(this), when the stored text still says it. */
  outputText(): string | undefined {
    return this.getTime() === this.storedTime ? `${this.storedText.slice(0, 23)}Z` : undefined;
  }
}

// How Prisma's SQLite adapter writes a DateTime (toISOString() with "+00:00" for "Z"), from year
// 1000 on, with each field in its range: the pattern checks all but the days 29–31 of a month.
// A page's 165 dates: 6.6 µs so, 12.0 µs with a shape-only pattern and each field's digits in code.
const storedInstantText =
  /^[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}\+00:00$/;
const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let index = from; index < from + count; index += 1)
    value = value * 10 + text.charCodeAt(index) - 48;
  return value;
}

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : daysInMonth[month - 1]!;
}

/**
 * Whether a text is in the form Prisma writes on SQLite and names a real instant from year 1000 on;
 * any other text (another writer's, a year before 1000, which Date.UTC would misread, a day that
 * does not exist) is read by Date's parser instead. Checked by the pattern, and the days 29–31 by
 * their month's length, without making a Date: a page of records checks over a hundred.
 */
function isStoredText(text: string): boolean {
  if (text.length !== 29 || !storedInstantText.test(text)) return false;
  const day = digitsAt(text, 8, 2);
  return day < 29 || day <= daysIn(digitsAt(text, 0, 4), digitsAt(text, 5, 2));
}

/** The instant of a text isStoredText accepts, read by its digits (≈ 2× cheaper than Date's parser). */
function storedTime(text: string): number | undefined {
  if (!isStoredText(text)) return undefined;
  return Date.UTC(
    digitsAt(text, 0, 4),
    digitsAt(text, 5, 2) - 1,
    digitsAt(text, 8, 2),
    digitsAt(text, 11, 2),
    digitsAt(text, 14, 2),
    digitsAt(text, 17, 2),
    digitsAt(text, 20, 3),
  );
}

/** A stored date or date-time as a Date, which keeps its stored text for output (StoredInstant). */
export function storedInstant(text: string): Date {
  const time = storedTime(text);
  return time === undefined ? new Date(text) : new StoredInstant(time, text);
}

/**
 * `isoInstant(storedInstant(text))` without the Date: what a date kept in its stored form outputs
 * (reads made only to be output keep their dates so, see column-codec.ts decoderOf).
 */
export function storedIsoInstant(text: string): string {
  return isStoredText(text) ? `${text.slice(0, 23)}Z` : isoInstant(new Date(text));
}

/**
 * `date.toISOString()`, by hand for years 0000–9999: V8's builtin takes ≈ 0.7 µs a call and this
 * ≈ 0.25 µs, which counts where a page of records writes dozens of dates. Other years (written
 * `+010000-…` by toISOString) and an invalid Date (a RangeError) go to toISOString itself.
 */
export function isoInstant(date: Date): string {
  const stored = date instanceof StoredInstant ? date.outputText() : undefined;
  if (stored !== undefined) return stored;
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const ms = date.getUTCMilliseconds();
  const paddedYear = `${year}`.padStart(4, "0");
  const paddedMs = ms >= 100 ? `${ms}` : ms >= 10 ? `0${ms}` : `00${ms}`;
  return `${paddedYear}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}T${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}.${paddedMs}Z`;
}
