// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { propertyOf } from "../base/records.js";
import { StatementTimeout, type DatabaseErrors } from "./sql.js";

const codeOf = (error: unknown) => String(propertyOf(error, "code") ?? "");

/** How pg reports what the shared code tells apart (DatabaseErrors in sql.ts), by SQLSTATE. */
export const postgresErrors: DatabaseErrors = {
  isUniqueViolation: (error) => codeOf(error) === "23505",
  isForeignKeyViolation: (error) => codeOf(error) === "23503",
  // query_canceled by statement_timeout, or pg's own timer behind a pooler (driver.ts).
  isStatementTimeout: (error) => ["57014", StatementTimeout.code].includes(codeOf(error)),
  /**
   * The server refused or dropped the connection (Node's socket errors), is shutting down or
   * starting (57P01–57P03), or a pooler in front of it cannot reach it (class 08, PgBouncer's
   * "server login has been failing").
   */
  isDatabaseAway(error) {
    if (
      /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|08...|57P0[1-3])$/.test(codeOf(error))
    )
      return true;
    const message = String(propertyOf(error, "message") ?? "");
    return /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/.test(
      message,
    );
  },
  // undefined_table, undefined_column.
  isSchemaBehind: (error) => ["42P01", "42703"].includes(codeOf(error)),
  /** From the detail: "Key (code)=(X1) already exists.", "Key (lower(email::text))=…". */
  uniqueViolationColumn(error) {
    const detail = propertyOf(error, "detail");
    if (typeof detail !== "string") return undefined;
    return /^Key \((?:lower\()?"?([^",():]+)"?(?:::\w+)?\)?\)=/.exec(detail)?.[1];
  },
};
