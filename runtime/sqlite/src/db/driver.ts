// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { CommitGroup } from "./commit-group.js";
import { encodeAll, openConnection, type Connection, type ReadMethod } from "./connection.js";
import { dialect } from "./dialect.js";
import { foldFunction } from "./text-folding.js";
import { statementOf, type Sql, type SqlDialect, type SqlRow, type SqlValues } from "./sql.js";
import { TextReader } from "./text-reader.js";

/** The database this project's driver speaks. */
export const databaseDialect: SqlDialect = dialect;

/** Request limits live in memory (the supervisor's, for its workers): SQLite's service is one machine's, and a write per request would queue every read behind the one writer. */
export const requestLimitsShared = false;

/** DATABASE_URL when neither the environment nor `.env` sets it. */
export const defaultDatabaseUrl = "file:./data/app.db";

/**
 * DATABASE_STATEMENT_TIMEOUT_MS when unset. In a built service the statements that can run long
 * (text matches) run on the text reader's thread (text-reader.ts), so the process answers other
 * requests meanwhile.
 */
export const defaultStatementTimeoutMs = 2000;

/** `file:./data/app.db` → `./data/app.db`, relative to the working directory as Prisma reads it. */
export function sqliteFile(url: string): string {
  return url.replace(/^file:/, "").replace(/\?.*$/, "");
}

// A statement that folds text: one of the few whose cost grows with the data a client chose to match.
const foldsText = (text: string) => text.includes(`${foldFunction}(`);

/**
 * One connection per process (`poolSize` is PostgreSQL's): SQLite serializes writes anyway, and a
 * prepared statement answers in ≈ 14 µs. Reads that match text, outside transactions, go to a
 * second connection on a thread of its own (text-reader.ts). `statementTimeoutMs` (0: no limit)
 * bounds the statements that match text (connection.ts).
 */
export function openSql(
  url: string,
  poolSize?: number,
  statementTimeoutMs = 0,
  pooled?: boolean,
): Sql {
  // One connection, no server: neither a pool size nor a pooler in front means anything here.
  void poolSize;
  void pooled;
  const file = sqliteFile(url);
  const connection = openConnection(file, statementTimeoutMs);
  const { db } = connection;
  // An in-memory database is one connection's own: nothing to read it from elsewhere.
  const reader =
    file !== ":memory:" && TextReader.available()
      ? new TextReader(file, statementTimeoutMs)
      : undefined;
  const bound = (query: Parameters<Sql["all"]>[0], values?: readonly unknown[]) => {
    const statement = statementOf(dialect, query, values);
    return { text: statement.text, values: encodeAll(statement.values) };
  };
  // The statements themselves, run at once on the one connection.
  const direct: Omit<Sql, "transaction" | "close"> = {
    dialect,
    async all(query, values) {
      const statement = bound(query, values);
      return connection.all(statement.text, statement.values);
    },
    async get(query, values) {
      const statement = bound(query, values);
      return connection.get(statement.text, statement.values);
    },
    async rows(query, values) {
      const statement = bound(query, values);
      return connection.rows(statement.text, statement.values);
    },
    async run(query, values) {
      const statement = bound(query, values);
      return connection.run(statement.text, statement.values);
    },
    async exec(script) {
      db.exec(script);
    },
  };
  /** A read outside transactions: on the reader's thread when it matches text. */
  function read<T>(
    method: ReadMethod,
    query: Parameters<Sql["all"]>[0],
    values?: readonly unknown[],
  ): Promise<T> {
    const statement = bound(query, values);
    if (reader && foldsText(statement.text))
      return reader.query<T>(method, statement.text, statement.values);
    return Promise.resolve(connection[method](statement.text, statement.values) as T);
  }
  return oneTransactionAtATime(direct, read, connection, reader);
}

/**
 * The connection is shared by every request of the process, and a transaction's statements are
 * awaited one by one: while one runs, any other statement waits for it to end instead of running
 * inside it (where a rollback would take it along). Transactions that end in the same turn of the
 * event loop commit together (commit-group.ts); a plain write or script commits them first.
 */
function oneTransactionAtATime(
  direct: Omit<Sql, "transaction" | "close">,
  read: <T>(
    method: ReadMethod,
    query: Parameters<Sql["all"]>[0],
    values?: readonly unknown[],
  ) => Promise<T>,
  connection: Connection,
  reader: TextReader | undefined,
): Sql {
  let open: Promise<void> | undefined;
  const group = new CommitGroup(connection);
  const idle = async () => {
    while (open) await open;
  };
  // A write outside a transaction commits on its own, after the group waiting for its COMMIT.
  const alone = async () => {
    if (open) await idle();
    if (group.open) group.commit();
  };
  const inside: Sql = { ...direct, transaction: (work) => work(inside), close: async () => {} };
  const reading = readingWhenIdle(read, () => (open ? idle() : undefined));
  return {
    dialect,
    all: (query, values) => reading<SqlRow[]>("all", query, values),
    get: (query, values) => reading<SqlRow | undefined>("get", query, values),
    rows: (query, values) => reading<SqlValues[]>("rows", query, values),
    async run(query, values) {
      await alone();
      return direct.run(query, values);
    },
    async exec(script) {
      await alone();
      return direct.exec(script);
    },
    async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
      // Checked and taken with no await between: two transactions cannot both find it free.
      while (open) await open;
      let end!: () => void;
      open = new Promise((resolve) => (end = resolve));
      let done: { committed: Promise<T> };
      try {
        done = await group.add(() => work(inside));
      } finally {
        open = undefined;
        end();
      }
      return done.committed;
    },
    async close() {
      await alone();
      await reader?.close();
      connection.db.close();
    },
  };
}

/**
 * `read`, once no transaction is open (`busy` is the wait for it, undefined when none is). Reads
 * hand back read's own promise rather than wrap it in an async function's: a page runs three or
 * four statements, and each wrapper cost a promise and two turns of the queue.
 */
function readingWhenIdle(
  read: <T>(
    method: ReadMethod,
    query: Parameters<Sql["all"]>[0],
    values?: readonly unknown[],
  ) => Promise<T>,
  busy: () => Promise<void> | undefined,
) {
  return function whenIdle<T>(
    method: ReadMethod,
    query: Parameters<Sql["all"]>[0],
    values?: readonly unknown[],
  ): Promise<T> {
    const waiting = busy();
    if (waiting) return waiting.then(() => read<T>(method, query, values));
    try {
      return read<T>(method, query, values);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
}
