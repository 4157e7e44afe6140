// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * One key of a built object and how its value is written: from the builder's three arguments, or,
 * with `from`, from that property of the first one alone.
 */
export type BuiltKey<A, B, C> =
  | { readonly key: string; readonly from: string; readonly write: (value: unknown) => unknown }
  | {
      readonly key: string;
      readonly from?: undefined;
      readonly write: (a: A, b: B, c: C) => unknown;
    };

/**
 * A function that makes an object with these keys, in this order, each value written as its
 * BuiltKey says.
 *
 * Why not a loop of `object[key] = value`: a store or a load under a key known only at run time
 * costs ≈ 10 ns in V8 (a lookup of the key in the object's shape, every time), an object literal's
 * or a named property's ≈ 1 ns; a `?with=` page outputs 60 records and decodes as many
 * (bench/README.md "Issue 32"). So the builder is compiled once, per read shape or per resource
 * and role, as one object literal: keys and `from` properties are JSON-quoted in it (they come
 * from the specs, never from a request) and each value is its writer's. Where a process refuses
 * code from strings (`node --disallow-code-generation-from-strings`), or a key would set the
 * prototype, the same object is assigned key by key.
 */
export function objectBuilder<A, B, C>(
  keys: readonly BuiltKey<A, B, C>[],
): (a: A, b: B, c: C) => Record<string, unknown> {
  const writers = keys.map(({ write }) => write);
  if (!keys.some(({ key }) => key === "__proto__")) {
    const fields = keys.map(({ key, from }, index) => {
      const value =
        from === undefined ? `w[${index}](a, b, c)` : `w[${index}](a[${JSON.stringify(from)}])`;
      return `${JSON.stringify(key)}: ${value}`;
    });
    try {
      const compile = new Function("w", `return (a, b, c) => ({ ${fields.join(", ")} });`);
      return compile(writers) as (a: A, b: B, c: C) => Record<string, unknown>;
    } catch {
      // Code generation refused: assigned key by key below.
    }
  }
  return (a, b, c) => {
    const object: Record<string, unknown> = {};
    for (const built of keys) {
      const value =
        built.from === undefined
          ? built.write(a, b, c)
          : built.write((a as Record<string, unknown>)[built.from]);
      // An assignment to "__proto__" would set the prototype: it is defined as an own key instead.
      if (built.key === "__proto__")
        Object.defineProperty(object, built.key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else object[built.key] = value;
    }
    return object;
  };
}
