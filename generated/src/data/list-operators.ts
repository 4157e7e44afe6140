// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * The list query language (docs/spec-format.md "List queries" in hashapi), defined once: hashapi's
 * own src/model/list-operators.ts is this very file (a link), so the spec checks, openapi.json and
 * the service agree on every operator of every kind.
 */

/** How a filter value from the query string parses: a field type's kind, or a belongsTo's hash. */
export const filterKinds = [
  "string",
  "enum",
  "uuid",
  "integer",
  "decimal",
  "boolean",
  "date",
  "datetime",
  "relation",
] as const;
export type FilterKind = (typeof filterKinds)[number];

export const filterOperators = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "between",
  "in",
  "nin",
  "contains",
  "starts_with",
  "ends_with",
  "null",
] as const;
export type FilterOperator = (typeof filterOperators)[number];

const textOperators = [
  "eq",
  "ne",
  "in",
  "nin",
  "contains",
  "starts_with",
  "ends_with",
  "null",
] as const satisfies readonly FilterOperator[];
const rangeOperators = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "between",
  "in",
  "nin",
  "null",
] as const satisfies readonly FilterOperator[];

/** Every operator a kind takes; a field takes them all unless its spec narrows them (`filter:`). */
export const operatorsOf: Readonly<Record<FilterKind, readonly FilterOperator[]>> = {
  string: textOperators,
  enum: textOperators,
  uuid: textOperators,
  integer: rangeOperators,
  decimal: rangeOperators,
  date: rangeOperators,
  datetime: rangeOperators,
  boolean: ["eq", "null"],
  relation: ["eq", "in", "null"],
};

/** Operators whose value is a comma-separated list: `in` and `nin` (1..maxListValues), `between` (2). */
export const listOperators: ReadonlySet<FilterOperator> = new Set(["in", "nin", "between"]);
/** Operators that match part of a text, case-insensitively, with `%` and `_` taken literally. */
export const textMatchOperators: ReadonlySet<FilterOperator> = new Set([
  "contains",
  "starts_with",
  "ends_with",
]);
/** The most values an `in` or `nin` takes: each is a bound value of the statement. */
export const maxListValues = 100;
/** `?search=`: at most this many words, each matched against every searchable field. */
export const maxSearchWords = 8;
/** The longest text a `?search=`, a text match or a cursor may be (characters). */
export const maxQueryText = 512;
/**
 * The longest pattern a text match (contains, starts_with, ends_with) and each `?search=` word may
 * be (characters): matching costs up to the text's length times the pattern's on every row a list
 * reads (a 512-character pattern over 200 texts of 5,000 characters held SQLite for 4.8 s).
 */
export const maxMatchText = 64;

/**
 * The most records one relation nests in one record (`?with=`, eager loads): the first ones in list
 * order; the related resource's list, filtered by this record, serves the rest. A doctor with 3,000
 * appointments made a 6.6 MB answer before; now a page costs at most perPage × this many records.
 */
export const maxNestedPerParent = 50;

const filterOperatorSet: ReadonlySet<string> = new Set(filterOperators);

/** Whether `name` is an operator at all (own names only: `?filter[x][constructor]=` is not one). */
export function isFilterOperator(name: string): name is FilterOperator {
  return filterOperatorSet.has(name);
}
