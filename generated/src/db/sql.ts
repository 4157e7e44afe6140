// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * The service's one path to the database at run time: statements prepared once per connection and
 * reused for every request (see db/driver.ts for the database this project uses).
 *
 * Why not Prisma Client here: Prisma 6.19's WebAssembly engine spends ≈ 0.7 ms of CPU per lookup
 * against ≈ 14 µs for a prepared statement (Prisma 7's plan cache ≈ 0.3 ms, and its CLI needs a
 * binary download). Prisma keeps the schema, the migrations and the row types. See
 * docs/decisions.md in hashapi.
 */
/** A database's name, for messages and logs: shared code decides nothing by it (SqlDialect below). */
export type DatabaseName = string;

/**
 * What differs between the databases, supplied by the driver (db/dialect.ts beside it): the shared
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
   * Where the trigram index is a table of its own (SQLite's FTS5): `narrowing` keeps `id` among the
   * rows `table` matches for the bound FTS5 query, and `driving` follows the root table in FROM so
   * that those rows drive the statement (SQLite would otherwise walk the order's index and probe
   * each row: 10 ms instead of 0.4 at 200,000 rows). Undefined where the index is on the compared
   * expression itself (PostgreSQL's GIN), which the planner reads without being told.
   */
  readonly textIndexTable?: {
    narrowing(id: string, table: string, query: string): string;
    readonly driving: string;
  };
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
  /**
   * A write and its event's row as one statement (a data-modifying WITH), the event's changes built
   * by the database from the row before and after: `outputJson` is a column's value as the JSON text
   * the service writes for a value of its kind (`integer`, `string`, `decimal` with `scale` places,
   * `boolean`, `date`, `datetime`, `json`; data/column-codec.ts outputOf and JSON.stringify), byte
   * for byte, NULL for NULL; undefined for a kind it cannot write so (the table's writes keep their
   * transaction). Undefined where the database has no such statement (SQLite: its writes share a
   * commit instead, commit-group.ts).
   */
  readonly writesWithEvent?: {
    outputJson(kind: string, column: string, scale: number): string | undefined;
  };
  /** How this database's driver reports the errors the shared code answers in its own way. */
  readonly errors: DatabaseErrors;
}

/**
 * The errors the service tells apart, as one database reports them (its driver's codes and words):
 * each dialect answers for its own, and db/database-errors.ts asks this project's.
 */
export interface DatabaseErrors {
  /** A UNIQUE violation. */
  isUniqueViolation(error: unknown): boolean;
  /** A delete others still reference, or a write referencing a row deleted a moment ago. */
  isForeignKeyViolation(error: unknown): boolean;
  /** A statement stopped for running past DATABASE_STATEMENT_TIMEOUT_MS (see StatementTimeout). */
  isStatementTimeout(error: unknown): boolean;
  /**
   * The database is away, not the statement wrong: answered 503 with Retry-After, as readiness
   * says, never a 500.
   */
  isDatabaseAway(error: unknown): boolean;
  /** A statement naming a table or column the database does not have: a migration not applied yet. */
  isSchemaBehind(error: unknown): boolean;
  /** The column a UNIQUE violation on `table` is about, from the database's own words; else undefined. */
  uniqueViolationColumn(error: unknown, table?: string): string | undefined;
}

/** How db/migrations.ts applies migrations on this database. */
export interface MigrationDialect {
  /** Prisma's `_prisma_migrations` table, created when missing. */
  readonly recordsTable: string;
  /**
   * The lock that makes this migrator the only one, taken without waiting: `take` answers one row
   * whose `taken` says whether it got it, `holder` one row per holder (`pid`, `client`, `seconds`,
   * `doing`), `release` gives it back. Undefined where each migration's BEGIN IMMEDIATE is the lock
   * (SQLite): a busy error there is waited on (db/migration-lock.ts).
   */
  readonly lock?: { readonly take: string; readonly holder: string; readonly release: string };
  /** Settings of the migrator's connection, once it holds the lock (PostgreSQL: lock_timeout). */
  readonly settings: readonly string[];
  /**
   * Where BEGIN waits by itself for another writer (SQLite's busy_timeout): the statements that stop
   * and restore that wait, so that a first attempt fails at once and the migrator can say so.
   */
  readonly waitless?: { readonly on: string; readonly off: string };
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
  constructor(readonly dialect: SqlDialect) {}
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
 * Where a GET request's reads go (DATABASE_REPLICA_URLS, db/replicas.ts ReplicaSet): `work` runs
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
   * Statements of one transaction must share a connection: see db/migrations.ts.
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
  /** DATABASE_REPLICA_URLS: where a GET request's reads may go (db/replicas.ts). */
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
const texts = new WeakMap<SqlDialect, WeakMap<readonly string[], string>>();

/** The text and values a driver runs for a statement given either way. */
export function statementOf(
  dialect: SqlDialect,
  query: SqlQuery | string,
  values: readonly unknown[] = [],
): { text: string; values: readonly unknown[] } {
  if (typeof query === "string") return { text: query, values };
  let byCallSite = texts.get(dialect);
  if (byCallSite === undefined) texts.set(dialect, (byCallSite = new WeakMap()));
  let text = byCallSite.get(query.strings);
  if (text === undefined) {
    text = query.strings.reduce((all, part, index) => `${all}${dialect.placeholder(index)}${part}`);
    byCallSite.set(query.strings, text);
  }
  return { text, values: query.values };
}

/**
 * Statement texts come from a bounded set of shapes, but sort and filter combinations chosen by
 * clients multiply them: a driver keeps at most this many prepared; past it, a new text runs
 * without being kept.
 */
export const maxPreparedStatements = 1000;

/**
 * A statement stopped for running past DATABASE_STATEMENT_TIMEOUT_MS, as a driver throws it: SQLite's
 * text folding giving up (db/connection.ts), which is where a SQLite statement spends per-row time
 * that grows with the data a client chose to match, or PostgreSQL's refusal behind a pooler.
 */
export class StatementTimeout extends Error {
  static readonly code = "HASHAPI_STATEMENT_TIMEOUT";
  readonly code = StatementTimeout.code;
  constructor() {
    super("The statement ran past DATABASE_STATEMENT_TIMEOUT_MS.");
  }
}
