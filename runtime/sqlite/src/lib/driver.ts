// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import Sqlite from "better-sqlite3";
import { isoInstant } from "./dates.js";
import { foldFunction, foldText } from "./list-conditions.js";
import {
  maxPreparedStatements,
  StatementTimeout,
  statementOf,
  type Sql,
  type SqlDialect,
  type SqlRow,
} from "./sql.js";

/** Prisma's SQLite adapter stores DateTime as ISO 8601 text with an explicit offset; so do we. */
function encode(value: unknown): unknown {
  if (value instanceof Date) return `${isoInstant(value).slice(0, -1)}+00:00`;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** The values as SQLite binds them; the same array when none needs converting (the usual case). */
function encodeAll(values: readonly unknown[]): readonly unknown[] {
  for (const value of values)
    if (value instanceof Date || typeof value === "boolean") return values.map(encode);
  return values;
}

/** The database this project's driver speaks. */
export const databaseDialect: SqlDialect = "sqlite";

/** DATABASE_URL when neither the environment nor `.env` sets it. */
export const defaultDatabaseUrl = "file:./data/app.db";

/** `file:./data/app.db` → `./data/app.db`, relative to the working directory as Prisma reads it. */
export function sqliteFile(url: string): string {
  return url.replace(/^file:/, "").replace(/\?.*$/, "");
}

/**
 * DATABASE_STATEMENT_TIMEOUT_MS when unset. Short: the driver is synchronous, so while a statement
 * runs its process answers nothing else (not even /api/health).
 */
export const defaultStatementTimeoutMs = 250;

// How often the folding function looks at the clock: each look costs ≈ 40 ns, each call ≈ 1 µs.
const callsPerClockLook = 64;

/**
 * One connection per process (`poolSize` is PostgreSQL's): SQLite serializes writes anyway, and a
 * prepared statement answers in ≈ 14 µs. `statementTimeoutMs` (0: no limit) bounds the statements
 * that match text: SQLite has no statement timeout its Node driver can set, but every text match
 * goes through the folding function below once per row and column, which gives up past the deadline.
 */
export function openSql(url: string, poolSize?: number, statementTimeoutMs = 0): Sql {
  void poolSize;
  const db = new Sqlite(sqliteFile(url));
  // WAL lets readers run beside the writer; busy_timeout waits for a lock instead of failing at
  // once when several processes share the file; foreign keys make restrict/cascade real.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  // Case-insensitive text matching for every alphabet (list-conditions.ts foldedText): SQLite's
  // own lower() and LIKE fold ASCII letters only. Deterministic, so SQLite may call it once per value.
  let deadline = Infinity;
  let folds = 0;
  db.function(foldFunction, { deterministic: true }, (value: unknown) => {
    folds += 1;
    if (folds % callsPerClockLook === 0 && performance.now() > deadline)
      throw new StatementTimeout();
    return typeof value === "string" ? foldText(value) : value;
  });
  const statements = new Map<string, Sqlite.Statement>();
  // Prepared on first use, not at start-up: a service on an unmigrated database still starts and
  // answers its health check.
  const prepare = (text: string): Sqlite.Statement => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      if (statements.size < maxPreparedStatements) statements.set(text, statement);
    }
    return statement;
  };
  const run = (query: Parameters<Sql["all"]>[0], values?: readonly unknown[]) => {
    // Each statement runs to its end before the next starts (synchronously): its own deadline.
    if (statementTimeoutMs > 0) deadline = performance.now() + statementTimeoutMs;
    const statement = statementOf("sqlite", query, values);
    return { prepared: prepare(statement.text), values: encodeAll(statement.values) };
  };
  // The statements themselves, run at once on the one connection.
  const direct: Omit<Sql, "transaction" | "close"> = {
    dialect: "sqlite",
    async all(query, values) {
      const { prepared, values: bound } = run(query, values);
      return prepared.all(bound) as SqlRow[];
    },
    async get(query, values) {
      const { prepared, values: bound } = run(query, values);
      return prepared.get(bound) as SqlRow | undefined;
    },
    async run(query, values) {
      const { prepared, values: bound } = run(query, values);
      return prepared.run(bound).changes;
    },
    async exec(script) {
      db.exec(script);
    },
  };
  /*
   * The connection is shared by every request of the process, and a transaction's statements are
   * awaited one by one: while one is open, any other statement waits for it to end instead of
   * running inside it (where a rollback would take it along).
   */
  let open: Promise<void> | undefined;
  const idle = async () => {
    while (open) await open;
  };
  const inside: Sql = { ...direct, transaction: (work) => work(inside), close: async () => {} };
  return {
    dialect: "sqlite",
    async all(query, values) {
      if (open) await idle();
      return direct.all(query, values);
    },
    async get(query, values) {
      if (open) await idle();
      return direct.get(query, values);
    },
    async run(query, values) {
      if (open) await idle();
      return direct.run(query, values);
    },
    async exec(script) {
      if (open) await idle();
      return direct.exec(script);
    },
    async transaction(work) {
      // Checked and taken with no await between: two transactions cannot both find it free.
      while (open) await open;
      let end!: () => void;
      open = new Promise((resolve) => (end = resolve));
      try {
        // IMMEDIATE takes the write lock now, so a check and its write see the same database
        // even when other processes share the file.
        db.exec("BEGIN IMMEDIATE");
        try {
          const result = await work(inside);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        }
      } finally {
        open = undefined;
        end();
      }
    },
    async close() {
      await idle();
      db.close();
    },
  };
}
