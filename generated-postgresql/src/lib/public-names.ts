// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * Names the generator and the generated service must agree on, defined once: hashapi's own
 * src/model/public-names.ts is this very file (a link), so a change here reaches both.
 */

/** Public ids (api-contract.md §2): `<PREFIX>_<CODE>`, CODE being 8 symbols without O, 0, I and 1. */
export const hashAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const hashCodeLength = 8;
/** The alphabet as a regular-expression character class. */
export const hashCodeClass = "[A-HJ-NP-Z2-9]";

/** The pattern of one resource's public ids. */
export function hashPattern(prefix: string): string {
  return `^${prefix}_${hashCodeClass}{${hashCodeLength}}$`;
}

/** The pattern of any resource's public id, for a relation filter (prefixes are three capitals). */
export const anyHashPattern = `^[A-Z]{3}_${hashCodeClass}{${hashCodeLength}}$`;

/** List query parameters of every collection: no field may be named like one. */
export const reservedQueryParameters = [
  "page",
  "per_page",
  "sort",
  "with",
  "with_trashed",
] as const;
