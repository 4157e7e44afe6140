// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { openSql } from "./driver.js";
import type { Sql } from "./sql.js";

export { isForeignKeyViolation, isUniqueViolation, sql } from "./sql.js";

/** What the tables and the auth service read and write through (see sql.ts for why not Prisma Client). */
export type Database = Sql;

/**
 * Opens the database and checks that it answers, so a wrong DATABASE_URL fails at start-up.
 * `poolSize` is the connections per process on PostgreSQL; SQLite keeps one.
 */
export async function connectDatabase(url: string, poolSize = 10): Promise<Database> {
  const db = openSql(url, poolSize);
  try {
    await db.get("SELECT 1");
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}
