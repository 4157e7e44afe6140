import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoInstant, parseDate, parseDateTime, storedInstant, storedIsoInstant } from "../../runtime/common/src/base/dates.js";
import { outputOf } from "../../runtime/common/src/data/column-codec.js";

const isoDateTime = outputOf("datetime")!;
const isoDate = outputOf("date")!;

describe("storedInstant (runtime/common/src/base/dates.ts)", () => {
  const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");

  it("reads the text Prisma stores on SQLite as the instant Date reads, and outputs it as toISOString", () => {
    const from = Date.UTC(1000, 0, 1);
    const to = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), (ms) => {
        const text = stored(new Date(ms));
        const date = storedInstant(text);
        expect(date).toBeInstanceOf(Date);
        expect(date.getTime()).toBe(new Date(text).getTime());
        expect(isoInstant(date)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it("parses any other text as Date does: other writers, early years, days that do not exist", () => {
    for (const text of [
      "2026-11-27 06:30:00",
      "2026-11-27T06:30:00Z",
      "2026-11-27T06:30:00.000-03:00",
      "0099-06-15T01:02:03.004+00:00",
      "2026-02-30T00:00:00.000+00:00",
      "2026-13-01T00:00:00.000+00:00",
      "2026-01-01T24:00:00.000+00:00",
      "2026-11-27",
      "not a date",
    ]) {
      const date = storedInstant(text);
      const expected = new Date(text);
      expect(Number.isNaN(date.getTime())).toBe(Number.isNaN(expected.getTime()));
      if (!Number.isNaN(expected.getTime())) expect(isoInstant(date)).toBe(expected.toISOString());
    }
  });

  it("outputs a Date changed after it was read as it now is, not as it was stored", () => {
    const date = storedInstant("2026-11-27T06:30:00.123+00:00");
    date.setUTCFullYear(2027);
    expect(isoInstant(date)).toBe("2027-11-27T06:30:00.123Z");
    expect(outputOf("date")!(date)).toBe("2027-11-27");
  });
});

describe("dates kept as stored, in reads for output (runtime/common/src/base/dates.ts)", () => {
  const stored = (date: Date) => date.toISOString().replace("Z", "+00:00");
  const oddTexts = [
    "2026-11-27 06:30:00",
    "2026-11-27T06:30:00Z",
    "2026-11-27T06:30:00.000-03:00",
    "0099-06-15T01:02:03.004+00:00",
    "2024-02-29T00:00:00.000+00:00",
    "2026-02-29T00:00:00.000+00:00",
    "2026-02-30T00:00:00.000+00:00",
    "2026-04-31T00:00:00.000+00:00",
    "2026-13-01T00:00:00.000+00:00",
    "2026-00-10T00:00:00.000+00:00",
    "2026-01-00T00:00:00.000+00:00",
    "2026-01-01T24:00:00.000+00:00",
    "2026-01-01T23:60:00.000+00:00",
    "2026-01-01T23:59:60.000+00:00",
    "2025-02-29T00:00:00.000+00:00",
    "2000-02-29T00:00:00.000+00:00",
    "1900-02-29T00:00:00.000+00:00",
    "2026-06-31T12:00:00.000+00:00",
    "2026-12-31T23:59:59.999+00:00",
    "2026-12-32T00:00:00.000+00:00",
    "0999-12-31T23:59:59.999+00:00",
    "2026-11-27",
  ];

  it("outputs a stored text exactly as the Date read from it outputs, and has its instant", () => {
    const from = Date.UTC(1000, 0, 1);
    const to = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), (ms) => {
        const text = stored(new Date(ms));
        expect(storedIsoInstant(text)).toBe(isoInstant(storedInstant(text)));
        expect(storedInstant(text).getTime()).toBe(ms);
        expect(isoDateTime(text)).toBe(isoDateTime(storedInstant(text)));
        expect(isoDate(text)).toBe(isoDate(storedInstant(text)));
      }),
      { numRuns: 20_000 },
    );
    // An output, or the error that output is (a text that names no instant fails on both paths).
    const outcome = (output: () => unknown) => {
      try {
        return output();
      } catch (error) {
        return error instanceof Error ? error.name : "thrown";
      }
    };
    for (const text of oddTexts) {
      expect(outcome(() => storedIsoInstant(text))).toBe(outcome(() => isoInstant(storedInstant(text))));
      // What Date's own parser reads (it rolls a 30 February over to March: the output must too).
      expect(storedInstant(text).getTime()).toBe(new Date(text).getTime());
      expect(outcome(() => storedIsoInstant(text))).toBe(outcome(() => new Date(text).toISOString()));
      expect(outcome(() => isoDate(text))).toBe(outcome(() => isoDate(storedInstant(text))));
    }
  });

  it("orders as its instants do: nested lists sort stored texts as SQLite's ORDER BY does (nested-items.ts)", () => {
    const from = Date.UTC(1000, 0, 1);
    const to = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), fc.integer({ min: from, max: to }), (a, b) => {
        const [left, right] = [stored(new Date(a)), stored(new Date(b))];
        expect(left < right ? -1 : left > right ? 1 : 0).toBe(Math.sign(a - b));
      }),
      { numRuns: 20_000 },
    );
  });

  it("fails where the Date read from it fails: a text that is no date", () => {
    expect(() => storedIsoInstant("not a date")).toThrow(RangeError);
    expect(() => isoInstant(storedInstant("not a date"))).toThrow(RangeError);
    expect(Number.isNaN(storedInstant("not a date").getTime())).toBe(true);
  });
});

describe("isoInstant (runtime/common/src/base/dates.ts)", () => {
  it("writes exactly what toISOString writes, for any instant of years 0000–9999", () => {
    const yearZero = new Date(0);
    yearZero.setUTCFullYear(0, 0, 1);
    const lastInstant = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    fc.assert(
      fc.property(fc.integer({ min: yearZero.getTime(), max: lastInstant }), (ms) => {
        const date = new Date(ms);
        expect(isoInstant(date)).toBe(date.toISOString());
      }),
      { numRuns: 20_000 },
    );
    for (const text of ["0000-01-01T00:00:00.000Z", "0099-12-31T23:59:59.999Z", "0999-06-15T01:02:03.004Z", "1970-01-01T00:00:00.000Z", "2024-02-29T12:00:00.050Z", "9999-12-31T23:59:59.999Z"])
      expect(isoInstant(new Date(text))).toBe(text);
  });

  it("leaves other years and invalid dates to toISOString", () => {
    expect(isoInstant(new Date("+010000-01-01T00:00:00.000Z"))).toBe("+010000-01-01T00:00:00.000Z");
    expect(isoInstant(new Date("-000001-01-01T00:00:00.000Z"))).toBe("-000001-01-01T00:00:00.000Z");
    expect(() => isoInstant(new Date(Number.NaN))).toThrow(RangeError);
  });

  it("is what the serializer outputs for date-times and dates, and reads back as the same instant", () => {
    const instant = parseDateTime("2026-11-24T18:45:07.3+02:00")!;
    expect(isoDateTime(instant)).toBe("2026-11-24T16:45:07.300Z");
    expect(isoDate(parseDate("0042-03-05")!)).toBe("0042-03-05");
    expect(parseDateTime(isoDateTime(instant) as string)!.getTime()).toBe(instant.getTime());
  });
});
