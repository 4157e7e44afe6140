// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * Text matches compare folded text: a column's text in lower case, correctly for every alphabet on
 * both databases (SqlDialect.foldedText: SQLite's lower() and LIKE fold ASCII only, so its driver
 * registers `hashapi_fold`; PostgreSQL's lower() is asked for ICU's root collation). Kept beside
 * the drivers, which register the function, below the list conditions that use it.
 */

/** The SQLite function the driver registers for case folding (see SqlDialect.foldedText). */
export const foldFunction = "hashapi_fold";

/** The same folding in JavaScript, for what a query compares the column with. */
export function foldText(text: string): string {
  return text.toLowerCase();
}
