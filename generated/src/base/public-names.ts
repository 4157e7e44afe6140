// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * Names the generator and the generated service must agree on, defined once: hashapi's own
 * src/model/public-names.ts is this very file (a link), so a change here reaches both.
 */

/** Public ids (docs/api-contract.md §2 in hashapi): `<PREFIX>_<CODE>`, CODE being 8 symbols without O, 0, I and 1. */
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

/**
 * A `uuid` field's text: the canonical form, lowercase as PostgreSQL's uuid type answers (SQLite
 * stores what was sent, so only this form reads back the same on both databases). The payload
 * schema and the `?field=` filter both hold values to it.
 */
/** An upload's token as a payload names it (files/keys.ts): `upl_` and 26 base32 characters. */
export const uploadTokenPattern = "^upl_[a-z2-7]{26}$";

export const uuidPattern = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

/** List query parameters of every collection: no field may be named like one. */
export const reservedQueryParameters = [
  "page",
  "per_page",
  "sort",
  "with",
  "with_trashed",
  "only_trashed",
  "filter",
  "search",
  "cursor",
] as const;
