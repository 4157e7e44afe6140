// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import pg from "pg";
import { dialect } from "./dialect.js";
import { propertyOf } from "../base/records.js";
import {
  maxPreparedStatements,
  statementOf,
  StatementTimeout,
  type Sql,
  type SqlDialect,
} from "./sql.js";

// DATE stays text (pg would make a local-time Date of it); COUNT(*) is int8, which pg leaves as text.
const dateOid = 1082;
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === dateOid) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/** The database this project's driver speaks. */
export const databaseDialect: SqlDialect = dialect;

/** Request limits live in the database (hashapi_rate_limits): every worker of every instance counts together. */
export const requestLimitsShared = true;

/** DATABASE_URL when neither the environment nor `.env` sets it. */
export const defaultDatabaseUrl = "postgresql://localhost:5432/app";

/** DATABASE_STATEMENT_TIMEOUT_MS when unset: a statement may wait for locks and work this long. */
export const defaultStatementTimeoutMs = 2000;

/**
 * A pool of `poolSize` connections per process; each prepares a statement once and reuses it, and
 * the server stops any of its statements after `statementTimeoutMs` (0: no limit; scripts).
 *
 * `pooled`: DATABASE_URL is a pooler in transaction mode (PgBouncer), where consecutive statements
 * of one connection may run on different server connections. Named prepared statements would then
 * meet another client's statement of the same name (or none), and a startup parameter such as
 * statement_timeout is refused; so statements go unnamed (parsed on each run) and the timeout is
 * set inside each transaction (`SET LOCAL`), for statements outside one see docs (role settings).
 */
export function openSql(url: string, poolSize = 10, statementTimeoutMs = 0, pooled = false): Sql {
  const pool = openPool(url, poolSize, statementTimeoutMs, pooled);
  const nameOf = pooled ? () => undefined : statementNames();
  const begin = beginStatement(pooled, statementTimeoutMs);
  /** Runs one statement on the pool (any free connection) or on a transaction's own connection. */
  const query = (
    on: pg.Pool | pg.PoolClient,
    input: Parameters<Sql["all"]>[0],
    values?: readonly unknown[],
    arrays = false,
  ) => {
    const statement = statementOf(dialect, input, values);
    const name = nameOf(statement.text);
    const running = on.query({
      ...(name === undefined ? {} : { name }),
      ...(arrays ? { rowMode: "array" } : {}),
      text: statement.text,
      values: [...statement.values],
      types,
    });
    return pooled ? running.catch(asStatementTimeout) : running;
  };
  const on = (connection: pg.Pool | pg.PoolClient): Omit<Sql, "transaction" | "close"> => ({
    dialect,
    async all(input, values) {
      return (await query(connection, input, values)).rows;
    },
    async get(input, values) {
      return (await query(connection, input, values)).rows[0];
    },
    async rows(input, values) {
      return (await query(connection, input, values, true)).rows;
    },
    async run(input, values) {
      return (await query(connection, input, values)).rowCount ?? 0;
    },
    async exec(script) {
      await connection.query(script);
    },
  });
  return {
    ...on(pool),
    transaction: (work) => inTransaction(pool, on, work, begin),
    async close() {
      await pool.end();
    },
    async connectionLimit() {
      const row: unknown = (await pool.query("SHOW max_connections")).rows[0];
      return Number(propertyOf(row, "max_connections"));
    },
    poolUse: () => ({
      size: poolSize,
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

/** A transaction's BEGIN: behind a pooler, with its statements' time limit (SET LOCAL ends with it). */
function beginStatement(pooled: boolean, statementTimeoutMs: number): string {
  return pooled && statementTimeoutMs > 0
    ? `BEGIN; SET LOCAL statement_timeout = ${Math.floor(statementTimeoutMs)}`
    : "BEGIN";
}

/**
 * The pool of connections. pg's pool replaces broken connections by itself: after a database
 * restart the next queries reconnect.
 */
function openPool(url: string, poolSize: number, statementTimeoutMs: number, pooled: boolean) {
  const pool = new pg.Pool({
    connectionString: withoutPoolerFlag(url),
    max: poolSize,
    ...(statementTimeoutMs > 0 && !pooled ? { statement_timeout: statementTimeoutMs } : {}),
    // Behind a pooler the bound is kept here: a pooler whose server is away holds a query in its
    // queue (PgBouncer: 120 s), and the request with it. A second past the statement's own bound.
    ...(statementTimeoutMs > 0 && pooled ? { query_timeout: statementTimeoutMs + 1000 } : {}),
  });
  pool.on("error", () => undefined); // an idle connection lost to a restart is simply replaced
  return pool;
}

/** pg's own timer (query_timeout) answered for the server: the 503 of a statement timeout. */
function asStatementTimeout(error: unknown): never {
  if (error instanceof Error && error.message === "Query read timeout")
    Object.assign(error, { code: StatementTimeout.code });
  throw error;
}

/** `pgbouncer=true` in the URL (Prisma's spelling) says "a pooler"; pg must not see it. */
function withoutPoolerFlag(url: string): string {
  return url.replace(/([?&])pgbouncer=[^&]*(&|$)/, (_match, before: string, after: string) =>
    after === "&" ? before : "",
  );
}

/** A name makes pg prepare the statement once per connection and reuse it: one per text, up to a bound. */
function statementNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < maxPreparedStatements) {
      name = `s${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}

/** Runs `work` as one transaction on one connection of the pool, again when PostgreSQL ends it for a deadlock. */
async function inTransaction<T>(
  pool: pg.Pool,
  on: (connection: pg.PoolClient) => Omit<Sql, "transaction" | "close">,
  work: (tx: Sql) => Promise<T>,
  begin: string,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    let broken: Error | undefined;
    const client = await pool.connect();
    // A connection that breaks between two statements (a pooler or the server gone) says so
    // with an 'error' event, which would end the process unheard: the next statement fails instead.
    const onError = (error: Error) => (broken = error);
    client.on("error", onError);
    const inside: Sql = {
      ...on(client),
      transaction: (nested) => nested(inside),
      close: async () => {},
    };
    try {
      await client.query(begin);
      const result = await work(inside);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((failure: Error) => (broken = failure));
      // Two transactions that each wait for a row the other locked: PostgreSQL ends one of
      // them, which simply runs again (its locks are gone, so the other one has finished).
      if (isRetryable(error) && attempt < maxAttempts) continue;
      throw error;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }
}

// deadlock_detected, serialization_failure: the transaction did nothing and may simply run again.
const retryableCodes = new Set(["40P01", "40001"]);
const maxAttempts = 3;

function isRetryable(error: unknown): boolean {
  return retryableCodes.has(String(propertyOf(error, "code")));
}
