import { describe, expect, it } from "vitest";
import { serverSetValues } from "../../runtime/common/src/resource/server-set.js";

const settings = {
  author: { on: "create", from: "caller", bypass: ["admin"] },
  editor: { on: "write", from: "caller", bypass: [] },
  answered_at: { on: "create", from: "clock", bypass: [] },
  reviewed_on: { on: "write", from: "clock", bypass: ["admin"] },
};
const columns = { author_id: "integer", editor_id: "integer", answered_at: "datetime", reviewed_on: "date", body: "string" };
const now = new Date("2026-11-27T23:59:30.123Z");

describe("serverSetValues: what the server sets in a valid payload (set:)", () => {
  it("fills every entry on create: relations with the caller, a datetime with now, a date with its UTC day", () => {
    expect(serverSetValues(settings, columns, { body: "x" }, { creating: true, callerHash: "USR_AAAAAAAA", now })).toEqual({
      body: "x",
      author: "USR_AAAAAAAA",
      editor: "USR_AAAAAAAA",
      answered_at: "2026-11-27T23:59:30.123Z",
      reviewed_on: "2026-11-27",
    });
  });

  it("fills only the `write` entries on update, keeps a value sent (a bypass role's) and the payload object when nothing changes", () => {
    expect(serverSetValues(settings, columns, { reviewed_on: "2020-01-01" }, { creating: false, callerHash: "USR_BBBBBBBB", now })).toEqual({ reviewed_on: "2020-01-01", editor: "USR_BBBBBBBB" });
    const payload = { body: "y" };
    expect(serverSetValues(undefined, columns, payload, { creating: true, callerHash: undefined, now })).toBe(payload);
  });

  it("sets the time without a caller (a public action), and leaves relations to the caller alone", () => {
    expect(serverSetValues(settings, columns, {}, { creating: true, callerHash: undefined, now })).toEqual({ answered_at: "2026-11-27T23:59:30.123Z", reviewed_on: "2026-11-27" });
  });
});
