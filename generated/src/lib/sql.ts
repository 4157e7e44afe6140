// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { propertyOf } from "./records.js";

/**
 * The service's one path to the database at run time: statements prepared once per connection and
 * reused for every request (see lib/driver.ts for the database this project uses).
 *
 * Why not Prisma Client here: Prisma 6.19's WebAssembly engine spends ≈ 0.7 ms of CPU per lookup
 * against ≈ 14 µs for a prepared statement (Prisma 7's plan cache ≈ 0.3 ms, and its CLI needs a
 * binary download). Prisma keeps the schema, the migrations and the row types. See
 * docs/decisions.md in hashapi.
 */
export type DatabaseName = "sqlite" | "postgresql";

/**
 * What differs between the databases, supplied by the driver (lib/dialect.ts beside it): the shared
 * code asks this object and never compares database names. Identifiers are quoted alike (ANSI
 * double quotes) on both, so `quote` below is one function for both.
 */
export interface SqlDialect {
  readonly name: DatabaseName;
  /**
   * The placeholder of the `position`-th value (from 1) of a statement. Statements get theirs from a
   * Binder (one per use of a value), never by position by hand: SQLite's `?` cannot be repeated as
   * PostgreSQL's `$1` can, so a text that reuses a position is right on one database only.
   */
  placeholder(position: number): string;
  /**
   * The row lock a read inside a transaction takes: `share` keeps a row from being changed until the
   * transaction ends (a parent a new child points at), `update` keeps others from sharing or changing
   * it (a row about to be deleted), `claim` locks rows no other transaction holds and skips the
   * others (a worker taking deliveries). Empty where the transaction already holds the one write lock.
   */
  lockClause(lock: "share" | "update" | "claim" | undefined): string;
  /** What follows a nullable ORDER BY key so that NULL orders as the largest value on both databases. */
  nullsLargest(direction: "asc" | "desc"): string;
  /** A column's text in lower case, correctly for every alphabet (see list-conditions.ts). */
  foldedText(column: string): string;
  /**
   * Whether a list of live rows orders by deleted_at first: PostgreSQL's planner does not take
   * `deleted_at IS NULL` as fixing that column, so only then does it walk the soft-delete index.
   */
  readonly ordersLiveByDeletedAt: boolean;
  /** Whether a whole table's live rows are counted as all rows minus the trashed ones (cheaper there). */
  readonly countsLiveBySubtraction: boolean;
  /** Whether json columns come back as their text, to be parsed. */
  readonly jsonAsText: boolean;
  /** Whether a calendar date is written as its `YYYY-MM-DD` text, so the driver cannot shift it by a time zone. */
  readonly datesAsDayText: boolean;
  /** Whether the database is a file of this machine (a test database is a temporary file). */
  readonly embedded: boolean;
  /** The DATABASE_URL form it opens, for the message that refuses another (lib/database.ts). */
  readonly url: { readonly test: RegExp; readonly example: string; readonly label: string };
  readonly migrations: MigrationDialect;
}

/** How lib/migrations.ts applies migrations on this database. */
export interface MigrationDialect {
  /** Prisma's `_prisma_migrations` table, created when missing. */
  readonly recordsTable: string;
  /** Statements that make this migrator the only one until `unlock` (none where BEGIN IMMEDIATE is). */
  readonly lock: readonly string[];
  readonly unlock: readonly string[];
  /** What starts a migration's transaction. */
  readonly begin: string;
  /**
   * Statements around a migration for a database that rebuilds tables to change them (SQLite turns
   * foreign keys off for that, and only outside a transaction); a foreign-key check must then find no
   * orphan before the commit.
   */
  readonly foreignKeysOff?: string;
  readonly foreignKeysOn?: string;
  /** The statement that lists rows pointing at rows that do not exist (SQLite: PRAGMA foreign_key_check). */
  readonly foreignKeyCheck?: string;
}

/**
 * Collects a statement's values and hands out the dialect's placeholder for each use: a value used
 * twice is bound twice, so the same text is right on both databases.
 */
export class Binder {
  readonly list: unknown[] = [];
  constructor(private readonly dialect: SqlDialect) {}
  add(value: unknown): string {
    this.list.push(value);
    return this.dialect.placeholder(this.list.length);
  }
  /** Placeholders for each of `values`, comma-separated (an IN list). */
  addAll(values: readonly unknown[]): string {
    return values.map((value) => this.add(value)).join(", ");
  }
}

export type SqlRow = Record<string, unknown>;

/**
 * A row as an array of its values in the order of the SELECT list: what reads that know their
 * columns take (table/shape.ts). Building an object per row costs the drivers ≈ 0.5 µs more a row
 * than an array (bench/README.md "Issue 32, item 7").
 */
export type SqlValues = unknown[];

/**
 * A statement with its values apart from its text, written with the `sql` tag: each `${value}`
 * becomes the database's own placeholder (`?` on SQLite, `$1`, `$2`… on PostgreSQL). Nothing else in
 * the text is touched, so PostgreSQL's jsonb operators `?`, `?|` and `?&` keep working.
 */
export interface SqlQuery {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlQuery {
  return { strings, values };
}

/**
 * Where a GET request's reads go (DATABASE_REPLICA_URLS, lib/replicas.ts ReplicaSet): `work` runs
 * with its reads on a replica that holds the caller's last write (event id `lastEvent`), or on the
 * primary. Declared here, where Sql names it, so this file imports nothing back up.
 */
export interface ReadRouting {
  reading<T>(lastEvent: number | undefined, work: () => Promise<T>): Promise<T>;
}

export interface Sql {
  readonly dialect: SqlDialect;
  /**
   * Rows of a statement: an `sql` query, or a text already written with this dialect's placeholders
   * (see Binder) and its values.
   */
  all(query: SqlQuery | string, values?: readonly unknown[]): Promise<SqlRow[]>;
  get(query: SqlQuery | string, values?: readonly unknown[]): Promise<SqlRow | undefined>;
  /** Rows of a statement as arrays of values, in the order of its SELECT (or RETURNING) list. */
  rows(query: SqlQuery | string, values?: readonly unknown[]): Promise<SqlValues[]>;
  /** Runs a write; resolves to the number of rows it changed. */
  run(query: SqlQuery | string, values?: readonly unknown[]): Promise<number>;
  /**
   * Runs a script as written, without values and without preparing it (DDL, PRAGMA, BEGIN/COMMIT).
   * Statements of one transaction must share a connection: see lib/migrations.ts.
   */
  exec(script: string): Promise<void>;
  /**
   * Runs `work` as one transaction on one connection: committed when it resolves, rolled back when
   * it throws. `work` must run its statements through the handle it is given. Locking reads inside
   * it (see SqlDialect.lockClause) are how a check and the write it guards decide together: on PostgreSQL a
   * row lock, on SQLite the database's single writer (BEGIN IMMEDIATE), which no other connection
   * or request of this process can interleave with.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The connection pool's use now (PostgreSQL; SQLite has one connection and no pool): /metrics. */
  poolUse?(): PoolUse;
  /** How many connections the server accepts in all (PostgreSQL's max_connections). */
  connectionLimit?(): Promise<number>;
  /** DATABASE_REPLICA_URLS: where a GET request's reads may go (lib/replicas.ts). */
  readonly replicas?: ReadRouting;
}

/** How many of a pool's connections exist and wait, and how many queries wait for one. */
export interface PoolUse {
  readonly size: number;
  readonly open: number;
  readonly idle: number;
  readonly waiting: number;
}

/** A table, column or alias name as both dialects quote it ("doctor.user" stays one name). */
export function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

// The text of a tagged statement depends only on its call site and dialect: built once for each.
const texts: Record<DatabaseName, WeakMap<readonly string[], string>> = {
  sqlite: new WeakMap(),
  postgresql: new WeakMap(),
};

/** The text and values a driver runs for a statement given either way. */
export function statementOf(
  dialect: SqlDialect,
  query: SqlQuery | string,
  values: readonly unknown[] = [],
): { text: string; values: readonly unknown[] } {
  if (typeof query === "string") return { text: query, values };
  let text = texts[dialect.name].get(query.strings);
  if (text === undefined) {
    text = query.strings.reduce((all, part, index) => `${all}${dialect.placeholder(index)}${part}`);
    texts[dialect.name].set(query.strings, text);
  }
  return { text, values: query.values };
}

/**
 * Statement texts come from a bounded set of shapes, but sort and filter combinations chosen by
 * clients multiply them: a driver keeps at most this many prepared; past it, a new text runs
 * without being kept.
 */
export const maxPreparedStatements = 1000;

const uniqueViolations = new Set([
  "SQLITE_CONSTRAINT_UNIQUE",
  "SQLITE_CONSTRAINT_PRIMARYKEY",
  "23505",
]);
/*
 * A delete that others still reference, or a write that references a row deleted a moment ago.
 * SQLite reports an ON DELETE RESTRICT refusal as a trigger constraint (SQLITE_CONSTRAINT_TRIGGER);
 * the schema has no triggers of its own.
 */
const foreignKeyViolations = new Set([
  "SQLITE_CONSTRAINT_FOREIGNKEY",
  "SQLITE_CONSTRAINT_TRIGGER",
  "23503",
]);

const codeOf = (error: unknown) => propertyOf(error, "code");

/**
 * A statement stopped for running past DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL's query_canceled,
 * or SQLite's text folding giving up (lib/driver.ts), which is where a SQLite statement spends
 * per-row time that grows with the data a client chose to match.
 */
export class StatementTimeout extends Error {
  readonly code = "HASHAPI_STATEMENT_TIMEOUT";
  constructor() {
    super("The statement ran past DATABASE_STATEMENT_TIMEOUT_MS.");
  }
}

export function isStatementTimeout(error: unknown): boolean {
  const code = codeOf(error);
  return code === "57014" || code === "HASHAPI_STATEMENT_TIMEOUT";
}

/**
 * The database is away, not the statement wrong: the server refused or dropped the connection
 * (Node's socket errors), is shutting down or starting (57P01–57P03), or a pooler in front of it
 * cannot reach it (class 08, PgBouncer's "server login has been failing"). The request is answered
 * 503 with Retry-After, as readiness says, never a 500.
 */
export function isDatabaseAway(error: unknown): boolean {
  const code = String(codeOf(error) ?? "");
  if (/^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|08...|57P0[1-3])$/.test(code))
    return true;
  const message = String(propertyOf(error, "message") ?? "");
  return /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/.test(
    message,
  );
}

/** A UNIQUE violation, from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return uniqueViolations.has(String(codeOf(error)));
}

/**
 * The column a UNIQUE violation is about, from the database's own words: SQLite's message
 * ("UNIQUE constraint failed: members.code", or for an index regardless of case "… failed: index
 * 'members_email_lower_key'"), PostgreSQL's detail ("Key (code)=(X1) already exists.", "Key
 * (lower(email::text))=…"); undefined for several columns or another shape.
 */
export function uniqueViolationColumn(error: unknown, table?: string): string | undefined {
  const [message, detail] = [propertyOf(error, "message"), propertyOf(error, "detail")];
  if (typeof message === "string") {
    const sqlite = /UNIQUE constraint failed: [^.,\s]+\.([^.,\s]+)$/.exec(message);
    if (sqlite) return sqlite[1];
    const index = /UNIQUE constraint failed: index '([^']+)_lower_key'$/.exec(message)?.[1];
    if (index !== undefined && table !== undefined && index.startsWith(`${table}_`))
      return index.slice(table.length + 1);
  }
  const postgres =
    typeof detail === "string"
      ? /^Key \((?:lower\()?"?([^",():]+)"?(?:::\w+)?\)?\)=/.exec(detail)
      : null;
  return postgres?.[1];
}

/**
 * A statement that names a table or column the database does not have: the schema is behind this
 * build (a migration not applied yet, say while `hashapi generate --watch` adds a resource). SQLite
 * says so only in its message; PostgreSQL by code (undefined_table, undefined_column).
 */
export function isSchemaBehind(error: unknown): boolean {
  const code = codeOf(error);
  if (code === "42P01" || code === "42703") return true;
  const message = propertyOf(error, "message");
  return (
    code === "SQLITE_ERROR" &&
    typeof message === "string" &&
    /^no such (table|column)\b|has no column named\b/.test(message)
  );
}

/** A FOREIGN KEY violation, from either driver. */
export function isForeignKeyViolation(error: unknown): boolean {
  return foreignKeyViolations.has(String(codeOf(error)));
}
