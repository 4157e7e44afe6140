// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { databaseDialect } from "./driver.js";

/*
 * The errors the service tells apart, as this project's database reports them: each question goes
 * to the dialect of the driver it was generated with (SqlDialect.errors), so the shared code never
 * holds a database's codes or words. Code with an Sql at hand may ask `sql.dialect.errors` itself.
 */

const errors = databaseDialect.errors;

export const isUniqueViolation = (error: unknown): boolean => errors.isUniqueViolation(error);
export const isForeignKeyViolation = (error: unknown): boolean =>
  errors.isForeignKeyViolation(error);
export const isStatementTimeout = (error: unknown): boolean => errors.isStatementTimeout(error);
export const isDatabaseAway = (error: unknown): boolean => errors.isDatabaseAway(error);
export const isSchemaBehind = (error: unknown): boolean => errors.isSchemaBehind(error);
export const uniqueViolationColumn = (error: unknown, table?: string): string | undefined =>
  errors.uniqueViolationColumn(error, table);
