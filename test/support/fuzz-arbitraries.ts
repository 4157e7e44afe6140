import fc from "fast-check";
import type { Operation, Schema } from "./fuzz-document.js";

/**
 * What the fuzz suite sends: for one operation of openapi.json, a request built from its documented
 * parameters and body schema, each part either valid or mutated the way a hostile client would.
 */

/** `valid`: the admin's (first role); `otherRole`: a valid token of another role (FuzzRequest.role picks which). */
export type TokenKind = "valid" | "otherRole" | "none" | "garbage" | "forged" | "unsigned" | "critical";

/**
 * What happens to the request on the wire, past what fetch() can send: no Host, two Hosts, an
 * Expect the server does not know, or CONNECT instead of the operation's method.
 */
export type WireMutation = "plain" | "noHost" | "twoHosts" | "expect" | "connect";

/**
 * With tenancy, the X-Tenant header: the fuzz users' own tenant (`home`), none, another tenant that
 * exists (`foreign`), or garbage.
 */
export type TenantKind = "home" | "none" | "foreign" | "garbage";

export interface FuzzRequest {
  operation: Operation;
  method: string;
  /** Path with parameters filled in and the query string, possibly with odd encodings. */
  target: string;
  /** The body as sent, or undefined for none. */
  body: string | undefined;
  contentType: string | undefined;
  token: TokenKind;
  /** With the `otherRole` token: which of the other roles (an index, modulo their number). */
  role: number;
  wire: WireMutation;
  /** The Expect header's value, for the `expect` mutation. */
  expectation: string;
  tenant: TenantKind;
}

/** Hashes the suite knows, by prefix, filled as creates succeed. */
export type HashPool = Map<string, string[]>;

const prototypeNames = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

/** Values of any type that break assumptions: boundaries, odd text, wrong shapes. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e-308, "", " ", "0", "-1", "1e309", "NaN", "true", "null"),
  fc.constantFrom("\u0000", "\ud800", "a\udc00b", "🩺".repeat(50), "x".repeat(5000), "'; DROP TABLE patients; --", "<script>", "%ZZ", "../../etc/passwd", "\r\nX-Injected: 1"),
  fc.constantFrom("2026-02-30", "2026-06-30T23:59:60Z", "9999-12-31T23:00:00-05:00", "0000-01-01", "2026-01-01T00:00:00+24:00", "+010000-01-01T00:00:00Z"),
  fc.constantFrom("12.345", "123456789", "-0.001", "99999999999999999999999", "1e2", "0x10", " 12"),
  // Look-alikes of one value: trailing and leading space, decomposed and precomposed accents, full-width digits.
  fc.constantFrom("X123", "X123 ", " X123", "Ｘ１２３", "É1", "E\u03011", " E\u03011 ", "12345678901 ", "１２３４５６７８９０１"),
  fc.constantFrom([], {}, [1, "a", null], { nested: { deeper: [1, 2, 3] } }, Object.fromEntries(prototypeNames.map((name) => [name, 1]))),
  fc.string({ maxLength: 40, unit: "binary" }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 4 }),
);

/** A value valid for a JSON Schema as hashapi emits them (and the hashes the suite knows). */
export function validValue(schema: Schema, pool: HashPool): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as (string | undefined)[];
  const options: fc.Arbitrary<unknown>[] = [];
  if (types.includes("null")) options.push(fc.constant(null));
  const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
  const prefix = pattern ? /^\^([A-Z]{3})_/.exec(pattern)?.[1] : undefined;
  if (prefix) options.push(fc.constantFrom(...(pool.get(prefix) ?? []), `${prefix}_AAAAAAAA`));
  else if (types.includes("integer")) options.push(fc.integer({ min: Number(schema.minimum ?? -1000), max: Number(schema.maximum ?? 1000) }));
  else if (schema["x-decimal"]) {
    const { scale } = schema["x-decimal"] as { scale: number };
    const limit = Math.min(Number(schema.maximum ?? 999), 999);
    const number = fc.integer({ min: Math.max(Number(schema.minimum ?? -limit), -limit) * 10 ** scale, max: limit * 10 ** scale }).map((value) => value / 10 ** scale);
    options.push(number, number.map((value) => value.toFixed(scale)));
  } else if (types.includes("boolean")) options.push(fc.boolean());
  else if (schema.format === "date") options.push(fc.date({ min: new Date("1900-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)));
  else if (schema.format === "date-time") options.push(fc.date({ min: new Date("0001-01-02"), max: new Date("9999-12-30"), noInvalidDate: true }).map((date) => date.toISOString()));
  else if (schema.format === "email") options.push(fc.nat(1_000_000).map((n) => `fuzz${n}@example.com`));
  else if (pattern === "^[0-9]{11}$") options.push(fc.nat(99_999_999).map((n) => `${20_000_000_000 + n * 97}`.slice(0, 11)));
  else if (types.includes("string")) {
    const maxLength = Number(schema.maxLength ?? 60);
    options.push(fc.string({ minLength: Math.max(Number(schema.minLength ?? 1), 1), maxLength: Math.min(maxLength, 60), unit: "grapheme" }));
  } else options.push(fc.jsonValue({ maxDepth: 3 }));
  return fc.oneof(...options);
}

/** A JSON object for a payload schema: each property left out, valid or hostile; sometimes an extra key. */
function payload(schema: Schema, pool: HashPool, limitedKeys: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const entries = Object.entries(properties).map(([key, property]) => {
    // Keys only some roles may send (x-writable-by, the server sets them for the others) are mostly
    // left out, so that most payloads can pass; sometimes sent, to be refused.
    const limited = limitedKeys.includes(key);
    const value = fc.oneof({ weight: 12, arbitrary: validValue(property, pool) }, { weight: 1, arbitrary: hostileValue });
    const left = fc.constant(undefined);
    return fc.oneof({ weight: limited ? 4 : 1, arbitrary: left }, { weight: limited ? 1 : 11, arbitrary: value }).map((chosen) => [key, chosen] as const);
  });
  // An extra key the document does not list, in one payload of six (fc.option's freq is the odds of none).
  const extra = fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...prototypeNames, "id", "hash", "patient_id", "created_at"), fc.string({ maxLength: 12 })), hostileValue) });
  return fc.tuple(fc.tuple(...entries), extra).map(([pairs, more]) => {
    const body: Record<string, unknown> = {};
    // defineProperty: a key named __proto__ must become an own key, as JSON.parse on the server makes it.
    const set = (key: string, value: unknown) => Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
    for (const [key, value] of pairs) if (value !== undefined) set(key, value);
    if (more) set(more[0], more[1]);
    return body;
  });
}

/** Bodies no JSON.stringify makes: broken syntax, deep nesting, non-finite numbers, lone surrogates. */
const rawBodies = fc.constantFrom(
  "{",
  "[1,2",
  '{"a":1,}',
  "null",
  '"just a string"',
  "[]",
  `{"name":${"[".repeat(3000)}${"]".repeat(3000)}}`,
  '{"amount":1e309,"label":"x"}',
  '{"label":"\\ud800"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  "\u0000",
  '{"label":"a"}'.repeat(200),
);

function bodyOf(operation: Operation, pool: HashPool): fc.Arbitrary<{ body: string | undefined; contentType: string | undefined }> {
  const json = (text: string) => ({ body: text, contentType: "application/json" });
  const documented = operation.body ? payload(operation.body, pool, Object.keys(operation.writableBy)).map((value) => json(JSON.stringify(value))) : fc.constant({ body: undefined, contentType: undefined });
  return fc.oneof(
    { weight: 16, arbitrary: documented },
    { weight: 2, arbitrary: rawBodies.map(json) },
    { weight: 1, arbitrary: fc.constantFrom({ body: "name=x", contentType: "application/x-www-form-urlencoded" }, { body: "{}", contentType: "text/plain" }, { body: "{}", contentType: "application/json; charset=utf-16" }) },
  );
}

/** Percent-encodes what encodeURIComponent can; a lone surrogate becomes the bytes a hostile client would send. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

function queryOf(operation: Operation, pool: HashPool): fc.Arbitrary<string> {
  const documented = operation.parameters.filter((parameter) => parameter.in === "query");
  const pairs = documented.map((parameter) =>
    fc.option(
      fc.oneof(
        { weight: 4, arbitrary: validValue(parameter.schema, pool).map((value) => (typeof value === "string" ? value : JSON.stringify(value))) },
        { weight: 1, arbitrary: hostileValue.map((value) => (typeof value === "string" ? value : JSON.stringify(value))) },
        { weight: 1, arbitrary: fc.constantFrom("name,-created_at", "-name,name", "name,".repeat(500), "appointments,patient,doctor,x", "-1", "0", "100", "101", "99999999999999999999", "true", "maybe") },
      ),
      { freq: 3 },
    ).map((value) => (value === null ? "" : `${encode(parameter.name)}=${encode(value)}`)),
  );
  const extras = fc.array(
    fc.oneof(
      fc.constantFrom(...prototypeNames, "page", "with", "sort").map((key) => `${key}=1`),
      fc.constantFrom("%ZZ=1", "name=%ZZ", "name=%00", "name=%ED%A0%80", "page[]=1", "a=1&a=2", "=x", "&&&", "with_trashed=true&with_trashed=false", "only_trashed=maybe", "only_trashed=true&with_trashed=false", "only_trashed[]=1"),
      // List queries (issue 23): bracket keys that are not filters, prototype names inside them,
      // oversized lists, cursors that were never issued, text no column holds.
      fc.constantFrom("filter[__proto__]=1", "filter[name][constructor]=1", "filter[name][toString]=1", "filter[[]]=1", "filter[]=1", "filter=1", "filter[name][eq][eq]=1", "filter%5Bname%5D%5Bcontains%5D=%25_%5C", `filter[name][in]=${",".repeat(200)}`, "filter[name][between]=a,b,c", "cursor=", "cursor=AAAA", `cursor=${"A".repeat(600)}`, "cursor=%00", "search=%00", "search=%ED%A0%80", `search=${"a%20".repeat(20)}`, "cursor=&page=2"),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...pairs), extras).map(([parts, more]) => [...parts, ...more].filter(Boolean).join("&"));
}

function pathOf(operation: Operation, pool: HashPool): fc.Arbitrary<string> {
  if (!operation.path.includes("{hash}")) return fc.constant(operation.path);
  // Mostly hashes of this resource (its prefix is in the parameter's example), sometimes another's.
  const example = operation.parameters.find((parameter) => parameter.name === "hash")?.schema.examples as string[] | undefined;
  const own = pool.get(example?.[0]?.slice(0, 3) ?? "") ?? [];
  const known = own.length > 0 ? own : [...pool.values()].flat();
  const hash = fc.oneof(
    { weight: 6, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant("PAT_AAAAAAAA") },
    { weight: 1, arbitrary: fc.constantFrom("PAT_AAAAAAAA", "1", "0", "-1", "%ZZ", "%00", "..", "PAT_%FF", "a".repeat(300), "USR_AAAAAAAA", "constructor") },
  );
  // A belongsToMany's routes name a related record too: any known hash, or a hostile segment.
  const all = [...pool.values()].flat();
  const related = fc.oneof(
    { weight: 6, arbitrary: all.length > 0 ? fc.constantFrom(...all) : fc.constant("SPC_AAAAAAAA") },
    { weight: 1, arbitrary: fc.constantFrom("SPC_AAAAAAAA", "%ZZ", "%00", "..", "constructor", "a".repeat(300)) },
  );
  return fc.tuple(hash, related).map(([value, other]) => operation.path.replace("{hash}", value).replace("{related}", other));
}

export function requestFor(operation: Operation, pool: HashPool): fc.Arbitrary<FuzzRequest> {
  const token = fc.oneof({ weight: 12, arbitrary: fc.constant<TokenKind>("valid") }, { weight: 6, arbitrary: fc.constant<TokenKind>("otherRole") }, { weight: 1, arbitrary: fc.constantFrom<TokenKind>("none", "garbage", "forged", "unsigned", "critical") });
  const wire = fc.oneof({ weight: 24, arbitrary: fc.constant<WireMutation>("plain") }, { weight: 1, arbitrary: fc.constantFrom<WireMutation>("noHost", "twoHosts", "expect", "connect") });
  // Node reads any Expect holding the token 100-continue as that (then a 100 comes first): not an unknown expectation.
  const expectation = fc.oneof(fc.constantFrom("999-nope", "101-switch", "x"), fc.stringMatching(/^[a-z0-9-]{1,20}$/)).filter((value) => !/(?:^|\W)100-continue(?:$|\W)/i.test(value));
  const hasQuery = operation.parameters.some((parameter) => parameter.in === "query");
  const tenant = fc.oneof({ weight: 20, arbitrary: fc.constant<TenantKind>("home") }, { weight: 1, arbitrary: fc.constantFrom<TenantKind>("none", "foreign", "garbage") });
  return fc.record({ path: pathOf(operation, pool), query: hasQuery ? queryOf(operation, pool) : fc.constant(""), body: bodyOf(operation, pool), token, role: fc.nat(7), wire, expectation, tenant }).map(({ path, query, body, token: kind, role, wire, expectation, tenant }) => ({
    operation,
    method: operation.method,
    target: query ? `${path}?${query}` : path,
    body: operation.method === "GET" || operation.method === "DELETE" ? undefined : body.body,
    contentType: operation.method === "GET" || operation.method === "DELETE" ? undefined : body.contentType,
    token: kind,
    role,
    wire,
    expectation,
    tenant,
  }));
}
