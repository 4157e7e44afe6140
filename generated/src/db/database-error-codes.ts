// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { propertyOf } from "../base/records.js";
import { StatementTimeout, type DatabaseErrors } from "./sql.js";

const codeOf = (error: unknown) => String(propertyOf(error, "code") ?? "");
const messageOf = (error: unknown) => String(propertyOf(error, "message") ?? "");

/*
 * A delete that others still reference, or a write that references a row deleted a moment ago.
 * SQLite reports an ON DELETE RESTRICT refusal as a trigger constraint (SQLITE_CONSTRAINT_TRIGGER);
 * the schema has no triggers of its own.
 */
const foreignKeyViolations = new Set(["SQLITE_CONSTRAINT_FOREIGNKEY", "SQLITE_CONSTRAINT_TRIGGER"]);

/** How better-sqlite3 reports what the shared code tells apart (DatabaseErrors in sql.ts). */
export const sqliteErrors: DatabaseErrors = {
  isUniqueViolation: (error) =>
    ["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"].includes(codeOf(error)),
  isForeignKeyViolation: (error) => foreignKeyViolations.has(codeOf(error)),
  // The text folding function's own limit (connection.ts): SQLite has no statement timeout.
  isStatementTimeout: (error) => codeOf(error) === StatementTimeout.code,
  // A file of this machine is never away: a missing or locked one is an error of its own.
  isDatabaseAway: () => false,
  // SQLite says so only in its message.
  isSchemaBehind: (error) =>
    codeOf(error) === "SQLITE_ERROR" &&
    /^no such (table|column)\b|has no column named\b/.test(messageOf(error)),
  /**
   * "UNIQUE constraint failed: members.code", or for an index regardless of case "… failed: index
   * 'members_email_lower_key'"; undefined for several columns or another shape.
   */
  uniqueViolationColumn(error, table) {
    const message = messageOf(error);
    const column = /UNIQUE constraint failed: [^.,\s]+\.([^.,\s]+)$/.exec(message);
    if (column) return column[1];
    const index = /UNIQUE constraint failed: index '([^']+)_lower_key'$/.exec(message)?.[1];
    if (index !== undefined && table !== undefined && index.startsWith(`${table}_`))
      return index.slice(table.length + 1);
    return undefined;
  },
};
