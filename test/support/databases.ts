import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

/**
 * Statements run straight on a test database, past the service: to break it on purpose or to read
 * back what a migration kept. `url` is a DATABASE_URL (`file:` relative to `cwd`, or postgresql://).
 */
export async function queryDatabase(url: string, cwd: string, statement: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (url.startsWith("file:")) {
    const db = new Database(join(cwd, url.slice("file:".length)));
    try {
      const prepared = db.prepare(statement);
      return prepared.reader ? (prepared.all(...values) as Record<string, unknown>[]) : (prepared.run(...values), []);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/** Drops tables (and, on PostgreSQL, the constraints that point at them). */
export async function dropTables(url: string, cwd: string, tables: string[]): Promise<void> {
  for (const table of tables)
    await queryDatabase(url, cwd, url.startsWith("file:") ? `DROP TABLE "${table}"` : `DROP TABLE "${table}" CASCADE`);
}
