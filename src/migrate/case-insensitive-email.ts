import type { Provider } from "./prisma-diff.js";

/**
 * E-mails of users are unique regardless of case, and the database enforces it: a unique index on
 * `lower("email")`, which Prisma's schema language cannot express. The schema carries this doc
 * line on `users.email` instead; a migration from a schema without it to one with it gets the index
 * (and the first migration of a new project has it from the start).
 */
export const caseInsensitiveEmailMarker = "hashapi: unique regardless of case (index users_email_lower_key, written into the migration)";

export function hasCaseInsensitiveEmail(schema: string | null): boolean {
  return schema !== null && schema.includes(caseInsensitiveEmailMarker);
}

/**
 * SQLite changes a column by copying the table (Prisma's "RedefineTables"), which drops every index
 * Prisma does not know of: after a rebuild of users the index is made again (the copied rows were
 * unique under it already, so no check is needed).
 */
export function rebuildsUsers(sql: string): boolean {
  return /^DROP TABLE "users";$/m.test(sql);
}

export const recreateCaseInsensitiveEmailSql = [
  "-- The users table was rebuilt: its e-mail index regardless of case is made again",
  `CREATE UNIQUE INDEX "users_email_lower_key" ON "users"(lower("email"));`,
  "",
].join("\n");

/**
 * The statements that add the index: first a check the migrator runs before anything else, which
 * refuses the migration (listing the clashing e-mails) when existing users differ only in case,
 * since the index could not be built and which account to keep is the owner's decision.
 */
export function caseInsensitiveEmailSql(provider: Provider): string {
  const together = provider === "postgresql" ? `string_agg("email", ', ' ORDER BY "email")` : `group_concat("email", ', ')`;
  return [
    "-- E-mails are unique regardless of case (the index Prisma's schema cannot express)",
    "-- hashapi:refuse-when-rows Users whose e-mails differ only in case must become one account (or get another e-mail) before e-mails can be unique regardless of case; change or delete all but one of each group below, then run `npm run db:migrate` again.",
    `SELECT ${together} AS "e-mails" FROM "users" GROUP BY lower("email") HAVING COUNT(*) > 1;`,
    `CREATE UNIQUE INDEX "users_email_lower_key" ON "users"(lower("email"));`,
    "",
  ].join("\n");
}
