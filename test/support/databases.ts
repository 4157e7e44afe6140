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

/**
 * Runs statements in a transaction left open, holding their row locks (on SQLite, the write lock)
 * until `commit`: to make a request of the service meet a concurrent write at a chosen moment.
 */
export async function holdTransaction(url: string, cwd: string, statements: { text: string; values?: unknown[] }[]): Promise<{ commit(): Promise<void> }> {
  if (url.startsWith("file:")) {
    const db = new Database(join(cwd, url.slice("file:".length)));
    db.exec("BEGIN IMMEDIATE");
    for (const { text, values = [] } of statements) db.prepare(text.replace(/\$\d+/g, "?")).run(...values);
    return {
      async commit() {
        db.exec("COMMIT");
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  for (const { text, values = [] } of statements) await client.query(text, values);
  return {
    async commit() {
      await client.query("COMMIT");
      await client.end();
    },
  };
}

/** Statements run past the service on one connection, kept for a whole suite. */
export interface DatabaseReader {
  /** A statement's rows (none for one that writes); `$1`, `$2`… are its values on either database. */
  rows(statement: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A connection to a test database (`url`: a DATABASE_URL, `file:` relative to `cwd`). */
export async function openReader(url: string, cwd: string, options: { readonly?: boolean } = {}): Promise<DatabaseReader> {
  if (url.startsWith("file:")) {
    const db = new Database(join(cwd, url.slice("file:".length)), { readonly: options.readonly ?? false });
    db.pragma("busy_timeout = 5000");
    return {
      rows: async (statement, values = []) => {
        const prepared = db.prepare(statement.replace(/\$\d+/g, "?"));
        return prepared.reader ? (prepared.all(...values) as Record<string, unknown>[]) : (prepared.run(...values), []);
      },
      close: async () => void db.close(),
    };
  }
  const connection = new pg.Client({ connectionString: url });
  await connection.connect();
  return { rows: async (statement, values = []) => (await connection.query(statement, values)).rows, close: () => connection.end() };
}
