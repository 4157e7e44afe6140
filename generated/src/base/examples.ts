// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.
// hashapi's own src/model/example-values.ts is this very file (a link): the generator asks it whether
// a field's values can be made at all, the project's tests and seed data make them.

import { uploadTokenPattern, uuidPattern } from "./public-names.js";

/** The keywords of a payload property's JSON Schema that decide a valid value, as hashapi emits them. */
export interface PropertySchema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  /** Values the spec gave (`example:`), used where no value can be derived (a free-form regex). */
  examples?: readonly unknown[];
  "x-decimal"?: { precision: number; scale: number; minimum?: number; maximum?: number };
  /** A required json field: any JSON value but null (`{ not: { type: "null" } }`). */
  not?: { type?: string };
}

/** One action's payload rules as `<name>.resource.json` holds them (the parts examples need). */
export interface PayloadSchema {
  readonly schema: { readonly properties?: Readonly<Record<string, PropertySchema>> };
  readonly confirmed?: readonly string[];
}

const int32 = { min: -2_147_483_648, max: 2_147_483_647 };
// A relation's key: the related record's hash, which the caller supplies (a factory of that resource).
const hashKey = /^\^[A-Z]{3}_/;
const digitsOnly = /^\^\[0-9\]\{(\d+)\}\$$/;
const dayMs = 86_400_000;

function typesOf(property: PropertySchema): readonly string[] {
  return property.type === undefined
    ? []
    : typeof property.type === "string"
      ? [property.type]
      : property.type;
}

/** `n` as a short lowercase tag (base 36): distinct numbers give distinct tags. */
function tag(n: number): string {
  return Math.abs(Math.trunc(n)).toString(36);
}

/** Within [lo, hi], a different whole number for each n (cycling when there are fewer than n). */
function wholeIn(lo: number, hi: number, n: number): number {
  const start = Math.min(Math.max(1, lo), hi);
  const span = hi - lo + 1;
  return lo + ((((start - lo + n) % span) + span) % span);
}

function decimal(rule: NonNullable<PropertySchema["x-decimal"]>, n: number): string {
  const factor = 10 ** rule.scale;
  const largest = 10 ** (rule.precision - rule.scale) * factor - 1;
  const lo = Math.max(Math.ceil((rule.minimum ?? -Infinity) * factor), -largest);
  const hi = Math.min(Math.floor((rule.maximum ?? Infinity) * factor), largest);
  const units = wholeIn(lo, hi, n);
  const digits = String(Math.abs(units)).padStart(rule.scale + 1, "0");
  const whole =
    rule.scale === 0 ? digits : `${digits.slice(0, -rule.scale)}.${digits.slice(-rule.scale)}`;
  return `${units < 0 ? "-" : ""}${whole}`;
}

/** Text of the right length: the field's words and a tag unique to n, cut or padded to fit. */
// Lifelike text for fields whose names say what they hold: seed data that reads like data.
const firstNames = [
  "Maria",
  "João",
  "Ana",
  "Lucas",
  "Sofia",
  "Pedro",
  "Emma",
  "Noah",
  "Olivia",
  "Liam",
  "Ava",
  "Mateo",
  "Mia",
  "Hugo",
  "Léa",
  "Yuki",
  "Amara",
  "Omar",
  "Ingrid",
  "Kofi",
];
const lastNames = [
  "Silva",
  "Santos",
  "Smith",
  "Garcia",
  "Müller",
  "Rossi",
  "Kim",
  "Nguyen",
  "Okafor",
  "Dubois",
  "Kowalski",
  "Haddad",
  "Tanaka",
  "Costa",
  "Novak",
  "Jensen",
  "Ali",
  "Moreau",
  "Fischer",
  "Pereira",
];
const cities = [
  "Lisbon",
  "São Paulo",
  "Nairobi",
  "Osaka",
  "Toronto",
  "Lyon",
  "Kraków",
  "Austin",
  "Porto",
  "Accra",
  "Oslo",
  "Seville",
];
const words = [
  "annual",
  "review",
  "follow",
  "routine",
  "check",
  "summary",
  "plan",
  "stable",
  "improving",
  "visit",
  "first",
  "update",
  "report",
  "clear",
  "steady",
  "care",
  "morning",
  "short",
  "detailed",
  "new",
];

/** The item of `list` for n (spread by a multiplicative hash, so neighbours differ), salted per use. */
function pick<T>(list: readonly T[], n: number, salt: number): T {
  return list[(Math.imul(Math.abs(n) + salt * 7919, 2_654_435_761) >>> 0) % list.length]!;
}

/** `count` words of the list for n: a title or a sentence. */
function wordsFor(n: number, count: number): string {
  return Array.from({ length: count }, (_, index) => pick(words, n, index + 10)).join(" ");
}

/** What a field's name says it holds (a person's name, a title, notes, a city, a phone), or undefined. */
function lifelike(field: string, n: number): string | undefined {
  const name = field.toLowerCase();
  const first = pick(firstNames, n, 1);
  const last = pick(lastNames, n, 2);
  if (/(^|_)first_?name$/.test(name)) return first;
  if (/(^|_)(last_?name|surname|family_?name)$/.test(name)) return last;
  if (/(^|_)(name|full_?name|author|owner)$/.test(name)) return `${first} ${last}`;
  if (/(^|_)(city|town)$/.test(name)) return pick(cities, n, 3);
  if (/(^|_)(phone|mobile|telephone)$/.test(name))
    return `+1 555 ${String(Math.abs(n) % 10_000).padStart(4, "0")}`;
  if (/(^|_)(title|subject|headline|label)$/.test(name)) {
    const title = wordsFor(n, 3);
    return title.charAt(0).toUpperCase() + title.slice(1);
  }
  if (/(^|_)(notes?|summary|description|bio|body|comment|content|message)$/.test(name)) {
    const sentence = wordsFor(n, 8);
    return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
  }
  return undefined;
}

/**
 * Text of the right length. Lifelike where the field's name says what it holds and the field need
 * not be unique; otherwise the field's words and a tag unique to n, cut or padded to fit.
 */
function text(field: string, n: number, min: number, max: number, unique: boolean): string {
  const like = unique ? undefined : lifelike(field, n);
  if (like !== undefined && like.length >= min && like.length <= max) return like;
  const mark = tag(n);
  if (max < mark.length) return mark.slice(-max);
  if (min === max) return mark.padStart(max, "0");
  const labelled = `${field.replaceAll("_", " ")} ${mark}`;
  const value = labelled.length <= max ? labelled : mark;
  return value.padEnd(min, "x");
}

/** A lowercase version-4-shaped UUID unique to n (below 2^48). */
function uuidOf(n: number): string {
  return `00000000-0000-4000-8000-${Math.abs(n).toString(16).padStart(12, "0").slice(-12)}`;
}

/** An e-mail address unique to n, within the field's length limits. */
function email(n: number, min: number, max: number): string {
  const mark = tag(n);
  // The longest domain that leaves room for the tag: a `max:10` rule still gets a valid address.
  const domain =
    ["@example.com", "@ex.io", "@x.io"].find(
      (candidate) => mark.length + candidate.length <= max,
    ) ?? "@x.io";
  // Past that, the tag's last characters: a number as large as a test run's reaches stays within max.
  const room = Math.max(max - domain.length, 1);
  const local = `user.${mark}`;
  const fitted = local.length <= room ? local : mark.slice(-room);
  return `${fitted.padEnd(Math.max(min - domain.length, 1), "x")}${domain}`;
}

/**
 * A value derived from the property's rules alone, different for each n where the rules leave room
 * (a unique field stays unique), or undefined where no rule says how (a relation, a free-form regex).
 */
function derived(property: PropertySchema, field: string, n: number, unique: boolean): unknown {
  const types = typesOf(property);
  const values = property.enum?.filter((value) => value !== null);
  if (values && values.length > 0) return values[Math.abs(n) % values.length];
  if (property["x-decimal"]) return decimal(property["x-decimal"], n);
  if (types.includes("integer"))
    return wholeIn(
      Math.max(property.minimum ?? int32.min, int32.min),
      Math.min(property.maximum ?? int32.max, int32.max),
      n,
    );
  if (types.includes("boolean")) return n % 2 === 0;
  if (types.length === 0) return { example: n };
  if (!types.includes("string")) return null;
  const min = property.minLength ?? 0;
  const max = property.maxLength ?? 255;
  switch (property.format) {
    case "date":
      // Days of 2016–2025: plausible, and distinct for 3,650 numbers in a row.
      return new Date(Date.UTC(2016, 0, 1) + (Math.abs(n) % 3_650) * dayMs)
        .toISOString()
        .slice(0, 10);
    case "date-time":
      // Minutes of 2016–2025, at whole minutes.
      return new Date(Date.UTC(2016, 0, 1) + (Math.abs(n) % 5_256_000) * 60_000).toISOString();
    case "email":
      return email(n, min, max);
    case "uri":
      return `https://example.com/${tag(n)}`.slice(0, Math.max(max, 20));
    case "uuid":
      return uuidOf(n);
  }
  if (property.pattern === uuidPattern) return uuidOf(n);
  if (property.pattern !== undefined && hashKey.test(property.pattern)) return undefined;
  const digits = digitsOnly.exec(property.pattern ?? "");
  if (digits) return String(Math.abs(n)).padStart(Number(digits[1]), "0").slice(-Number(digits[1]));
  return text(field, n, min, max, unique);
}

/**
 * The example with n written over it, from its last character back: n's digits over its digits,
 * then also n's letters (base 26, in each letter's case) over its letters. The first variant the
 * pattern still accepts, so a unique field with a regex gets a different value for each n; the
 * example itself when none is.
 */
function variant(example: string, n: number, pattern: RegExp): string {
  const digits = [...String(Math.abs(n))].reverse();
  const letters: number[] = [];
  for (let rest = Math.abs(n); rest > 0; rest = Math.floor(rest / 26)) letters.push(rest % 26);
  const overwrite = (withLetters: boolean) => {
    const chars = [...example];
    let digit = 0;
    let letter = 0;
    for (let index = chars.length - 1; index >= 0; index -= 1) {
      const char = chars[index]!;
      if (/[0-9]/.test(char) && digit < digits.length) chars[index] = digits[digit++]!;
      else if (withLetters && /[A-Za-z]/.test(char) && letter < letters.length) {
        const base = char === char.toUpperCase() ? 65 : 97;
        chars[index] = String.fromCharCode(base + letters[letter++]!);
      }
    }
    return chars.join("");
  };
  // Digits alone while n fits in the example's digits; letters too once it does not (fewer repeats).
  const fits = digits.length <= [...example].filter((char) => /[0-9]/.test(char)).length;
  const candidates = fits
    ? [overwrite(false), overwrite(true)]
    : [overwrite(true), overwrite(false)];
  for (const candidate of candidates) if (pattern.test(candidate)) return candidate;
  return example;
}

/**
 * A valid value for one payload property, different for each n where its rules leave room: derived
 * from the rules, unless a pattern refuses that (a `regex` rule), then the spec's `example:`, varied
 * by n where the pattern allows. Undefined when neither fits: the field cannot be filled (the
 * generator warns about it).
 */
export function exampleValue(
  property: PropertySchema,
  field: string,
  n: number,
  /** Whether values must differ record by record (lifelike text repeats itself). */
  unique = true,
): unknown {
  const value = derived(property, field, n, unique);
  const pattern = property.pattern === undefined ? undefined : new RegExp(property.pattern, "u");
  if (value !== undefined && (typeof value !== "string" || !pattern || pattern.test(value)))
    return value;
  const given = property.examples?.filter((example) => example !== null) ?? [];
  if (given.length === 0) return undefined;
  const example = given[Math.abs(n) % given.length];
  return typeof example === "string" && pattern ? variant(example, n, pattern) : example;
}

/** Whether the property is a relation's hash, or a belongsToMany's list of them: the caller supplies those. */
export function isRelationKey(property: PropertySchema): boolean {
  if (typesOf(property).includes("array")) return true;
  return property.pattern !== undefined && hashKey.test(property.pattern);
}

/** Whether the property is a file field's upload token: only an upload makes one, never an example. */
export function isFileKey(property: PropertySchema): boolean {
  return property.pattern === uploadTokenPattern;
}

/**
 * A valid payload for an action (create or update) but for its relations, which the caller adds:
 * every property gets its example value, a `confirmed` field its copy under `<field>_confirmation`.
 * Fields not listed in `unique` (when it is given) may get lifelike text, which repeats; without
 * it every field is taken as unique. Keys no value can be made for are left out.
 */
export function examplePayload(
  rules: PayloadSchema,
  n: number,
  unique?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const confirmed = new Set(rules.confirmed ?? []);
  const payload: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(rules.schema.properties ?? {})) {
    if (isRelationKey(property) || isFileKey(property)) continue;
    if (field.endsWith("_confirmation") && confirmed.has(field.slice(0, -"_confirmation".length)))
      continue;
    const value = exampleValue(
      property,
      field,
      n,
      unique === undefined || Object.hasOwn(unique, field),
    );
    if (value === undefined) continue;
    payload[field] = value;
    if (confirmed.has(field)) payload[`${field}_confirmation`] = value;
  }
  return payload;
}

/** The unique field of a payload with the fewest distinct values, and how many it takes. */
export interface UniqueRoom {
  readonly field: string;
  readonly values: number;
}

/**
 * How many records a payload's unique fields leave room for, where a field's rules allow only so
 * many values (an enum, a boolean, a small integer range, a few digits): the field that allows
 * fewest, or undefined when every one allows more than `enough`. Counts what the rules accept,
 * which `examplePayload` reaches for as many consecutive numbers.
 */
export function uniqueRoom(
  rules: PayloadSchema,
  unique: Readonly<Record<string, unknown>>,
  enough = 1_000_000,
): UniqueRoom | undefined {
  let fewest: UniqueRoom | undefined;
  for (const [field, property] of Object.entries(rules.schema.properties ?? {})) {
    if (!Object.hasOwn(unique, field)) continue;
    const values = distinctValues(property);
    if (values !== undefined && values < enough && (fewest === undefined || values < fewest.values))
      fewest = { field, values };
  }
  return fewest;
}

/** How many distinct values derived() gives a property, when its rules bound them. */
export function distinctValues(property: PropertySchema): number | undefined {
  const values = property.enum?.filter((value) => value !== null);
  if (values && values.length > 0) return values.length;
  const types = typesOf(property);
  if (property["x-decimal"]) return undefined;
  if (types.includes("integer")) {
    const lo = Math.max(property.minimum ?? int32.min, int32.min);
    const hi = Math.min(property.maximum ?? int32.max, int32.max);
    return hi - lo + 1;
  }
  if (types.includes("boolean")) return 2;
  const digits = digitsOnly.exec(property.pattern ?? "");
  if (digits) return 10 ** Number(digits[1]);
  return undefined;
}
