import { describe, expect, it } from "vitest";
import { objectBuilder, type BuiltKey } from "../../runtime/common/src/base/object-builder.js";

type Source = Record<string, unknown>;

describe("objectBuilder (runtime/common/src/base/object-builder.ts)", () => {
  const names = ["hash", "name", "created at", 'a"quote', "0"];
  const source: Source = { hash: "DOC_AAAAAAAA", name: "Lee", "created at": "today", 'a"quote': "q", 0: "zero" };

  it("makes an object with the keys in order, each value its writer's from the three arguments", () => {
    const keys = names.map((key): BuiltKey<Source, string, number> => ({ key, write: (row, prefix, suffix) => `${prefix}${String(row[key])}${suffix}` }));
    const built = objectBuilder(keys)(source, "<", 1);
    expect(built).toEqual({ hash: "<DOC_AAAAAAAA1", name: "<Lee1", "created at": "<today1", 'a"quote': "<q1", 0: "<zero1" });
    expect(Object.keys(built)).toEqual(["0", "hash", "name", "created at", 'a"quote']);
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
  });

  it("writes a key `from` a property of the first argument, that value alone", () => {
    const keys = names.map((key): BuiltKey<Source, string, number> => ({ key: `out ${key}`, from: key, write: (value) => `[${String(value)}]` }));
    const built = objectBuilder(keys)(source, "ignored", 0);
    expect(built).toEqual(Object.fromEntries(names.map((key) => [`out ${key}`, `[${String(source[key])}]`])));
    expect(objectBuilder<Source, void, void>([{ key: "missing", from: "nowhere", write: (value) => value ?? null }])({}, undefined, undefined)).toEqual({ missing: null });
  });

  it("makes a new object each time, and an empty one for no keys", () => {
    const build = objectBuilder<number, void, void>([{ key: "a", write: (value) => value }]);
    const first = build(1, undefined, undefined);
    const second = build(2, undefined, undefined);
    expect(first).not.toBe(second);
    expect([first, second]).toEqual([{ a: 1 }, { a: 2 }]);
    expect(objectBuilder([])(undefined, undefined, undefined)).toEqual({});
  });

  it("never lets a key set the prototype: __proto__ is an own key like any other", () => {
    const built = objectBuilder<Source, void, void>([
      { key: "__proto__", write: () => ({ polluted: true }) },
      { key: "x", from: "x", write: (value) => value },
    ])({ x: 1 }, undefined, undefined);
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect((built as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(built)).toEqual(["__proto__", "x"]);
    expect(JSON.stringify(built)).toBe('{"__proto__":{"polluted":true},"x":1}');
  });
});
