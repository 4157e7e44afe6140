import { dialectOf } from "../dialects/index.js";
import { markedFields } from "./marked-fields.js";
import type { Provider } from "./prisma-diff.js";

/**
 * E-mails are unique regardless of case, and the database enforces it: a unique index on
 * `lower("<column>")` for the users' e-mail and for every unique `email` field (of a resource or
 * of the users), which Prisma's schema language cannot express. The schema carries a doc line on
 * the column instead; a migration from a schema without it to one with it gets the index (the first
 * migration of a new project has it from the start), and one that loses it drops the index.
 */
export function caseInsensitiveMarker(table: string, column: string, within?: string): string {
  const scope = within === undefined ? "" : ` within each ${within}`;
  return `hashapi: unique regardless of case${scope} (index ${caselessIndexName(table, column, within)}, written into the migration)`;
}

/** Kept by name for the users' e-mail, which every project's schema has carried since issue 20. */
export const caseInsensitiveEmailMarker = caseInsensitiveMarker("users", "email");

export function caselessIndexName(table: string, column: string, within?: string): string {
  return within === undefined ? `${table}_${column}_lower_key` : `${table}_${within}_${column}_lower_key`;
}

/** A unique index on `lower(column)`, as a schema's doc line declares it. */
export interface CaselessIndex {
  /** As the marker names it: the index a migration made. */
  readonly name: string;
  readonly table: string;
  readonly column: string;
  /** With tenancy, a tenanted table's: the column the index leads with (unique within each tenant). */
  readonly within?: string;
}

const markerPattern = /^\s*\/\/\/ hashapi: unique regardless of case(?: within each (\w+))? \(index (\S+), written into the migration\)$/;

/**
 * The indexes a schema's doc lines declare: the marker names the index, the field line under it
 * the column and the model's `@@map` the table (so a renamed column or table is seen as moved).
 */
export function caselessIndexes(schema: string | null): CaselessIndex[] {
  return markedFields(schema, markerPattern).map(({ table, column, marker }) => ({ name: marker[2]!, table, column, ...(marker[1] ? { within: marker[1] } : {}) }));
}

/**
 * SQLite changes a column by copying the table (Prisma's "RedefineTables"), which drops every index
 * Prisma does not know of: after a rebuild of the table the index is made again (the copied rows
 * were unique under it already, so no check is needed).
 */
export function rebuildsTable(sql: string, table: string): boolean {
  return new RegExp(`^DROP TABLE "${table.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}";$`, "m").test(sql);
}

export function recreateCaselessIndexSql(index: CaselessIndex): string {
  const what = isUsersEmail(index) ? "e-mail index" : `index of ${index.column}`;
  return [`-- The ${index.table} table was rebuilt: its ${what} regardless of case is made again`, createIndex(index), ""].join("\n");
}

export function dropCaselessIndexSql(index: CaselessIndex): string {
  return [`-- ${index.table}.${index.column} is no longer unique regardless of case`, `DROP INDEX IF EXISTS "${index.name}";`, ""].join("\n");
}

/**
 * The statements that add the index: first a check the migrator runs before anything else, which
 * refuses the migration (listing the clashing values) when existing rows differ only in case,
 * since the index could not be built and which row to keep is the owner's decision.
 */
export function caselessIndexSql(index: CaselessIndex, provider: Provider): string {
  const column = `"${index.column}"`;
  const together = dialectOf(provider).joinedTexts(column);
  const groups = index.within === undefined ? `lower(${column})` : `"${index.within}", lower(${column})`;
  const users = isUsersEmail(index);
  const advice = users
    ? "Users whose e-mails differ only in case must become one account (or get another e-mail) before e-mails can be unique regardless of case; change or delete all but one of each group below, then run `npm run db:migrate` again."
    : `Rows of ${index.table}${index.within === undefined ? "" : ` of one ${index.within}`} whose ${index.column} differ only in case must be told apart before ${index.column} can be unique regardless of case; change or delete all but one of each group below, then run \`npm run db:migrate\` again.`;
  return [
    users ? "-- E-mails are unique regardless of case (the index Prisma's schema cannot express)" : `-- ${index.table}.${index.column} is unique regardless of case (the index Prisma's schema cannot express)`,
    `-- hashapi:refuse-when-rows ${advice}`,
    // Rows without a value clash with nothing (users' e-mails are never empty).
    `SELECT ${together} AS "${users ? "e-mails" : index.column}" FROM "${index.table}"${users ? "" : ` WHERE ${column} IS NOT NULL`} GROUP BY ${groups} HAVING COUNT(*) > 1;`,
    createIndex(index),
    "",
  ].join("\n");
}

const isUsersEmail = (index: CaselessIndex) => index.table === "users" && index.column === "email";

function createIndex(index: CaselessIndex): string {
  const lead = index.within === undefined ? "" : `"${index.within}", `;
  return `CREATE UNIQUE INDEX "${index.name}" ON "${index.table}"(${lead}lower("${index.column}"));`;
}
