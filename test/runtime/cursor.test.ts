import { createSecretKey, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CursorCodec } from "../../runtime/common/src/http/cursor.js";

/** Cursors are sealed (AES-GCM, bound to their query): anything but the exact text sealed is no cursor. */
describe("list cursors", () => {
  const codec = new CursorCodec(createSecretKey(randomBytes(32)));
  const position = { direction: "next" as const, values: ["2026-11-28T10:00:00.000Z", 42] };

  it("opens what it sealed, for the query it was sealed for only", () => {
    const cursor = codec.seal(position, "GET /api/patients?sort=name");
    expect(codec.open(cursor, "GET /api/patients?sort=name")).toEqual(position);
    expect(codec.open(cursor, "GET /api/patients?sort=-name")).toBeUndefined();
  });

  it("refuses a cursor with a character added, removed or changed, even where decoding would ignore it", () => {
    // Cursors of every length modulo 4: where it is 0, base64url decoding drops one character more.
    const cursors = Array.from({ length: 8 }, (_, n) => codec.seal({ ...position, values: ["x".repeat(n)] }, "q"));
    expect(new Set(cursors.map((cursor) => cursor.length % 4)).size).toBeGreaterThanOrEqual(3);
    for (const cursor of cursors) refusesAlterations(cursor);
  });

  function refusesAlterations(cursor: string): void {
    expect(codec.open(cursor, "q")).toBeDefined();
    for (const extra of ["A", "a", "0", "_", "-", "AA"]) expect(codec.open(cursor + extra, "q"), extra).toBeUndefined();
    expect(codec.open(cursor.slice(0, -1), "q")).toBeUndefined();
    const last = cursor.at(-1) === "A" ? "B" : "A";
    expect(codec.open(cursor.slice(0, -1) + last, "q")).toBeUndefined();
    expect(codec.open(`${cursor}=`, "q")).toBeUndefined();
  }
});
