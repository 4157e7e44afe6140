// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import Sqlite from "better-sqlite3";
import { isoInstant } from "../base/dates.js";
import { foldFunction, foldText } from "./text-folding.js";
import { maxPreparedStatements, StatementTimeout, type SqlRow, type SqlValues } from "./sql.js";

/** Prisma's SQLite adapter stores DateTime as ISO 8601 text with an explicit offset; so do we. */
function encode(value: unknown): unknown {
  if (value instanceof Date) return `${isoInstant(value).slice(0, -1)}+00:00`;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** The values as SQLite binds them; the same array when none needs converting (the usual case). */
export function encodeAll(values: readonly unknown[]): readonly unknown[] {
  for (const value of values)
    if (value instanceof Date || typeof value === "boolean") return values.map(encode);
  return values;
}

// How often the folding function looks at the clock: each look costs ≈ 40 ns, each call ≈ 1 µs
// plus the LIKE that follows it (up to ≈ 0.3 ms on 5,000 characters), so the deadline is kept to
// within a few milliseconds.
const callsPerClockLook = 4;

/** The ways a connection reads: rows as objects, the first one, rows as arrays. */
export type ReadMethod = "all" | "get" | "rows";

/**
 * One SQLite connection as the service uses it, on the main thread or on the text reader's. Each
 * method runs one statement text (prepared once) with values already in SQLite's forms, until
 * `deadline` (epoch ms; by default `statementTimeoutMs` from now).
 */
export interface Connection {
  readonly db: Sqlite.Database;
  all(text: string, values: readonly unknown[], deadline?: number): SqlRow[];
  get(text: string, values: readonly unknown[], deadline?: number): SqlRow | undefined;
  rows(text: string, values: readonly unknown[], deadline?: number): SqlValues[];
  run(text: string, values: readonly unknown[], deadline?: number): number;
  /**
   * Transaction control, prepared once: `db.exec("COMMIT")` parses its text on every call, ≈ 15 µs
   * a write more than a prepared statement (bench/README.md "Issue 47, item 7").
   */
  readonly control: {
    begin(): void;
    commit(): void;
    rollback(): void;
    /** One transaction of a group inside the open one (commit-group.ts). */
    savepoint(): void;
    release(): void;
    rollbackToSavepoint(): void;
  };
}

/**
 * Opens the database file with the service's settings. WAL lets readers run beside the writer;
 * busy_timeout waits for a lock instead of failing at once when several processes share the file;
 * foreign keys make restrict/cascade real. Case-insensitive matching for every alphabet goes through
 * `hashapi_fold` (list-conditions.ts foldedText; SQLite's lower() and LIKE fold ASCII only), which
 * is also where a statement's time limit is kept: SQLite has no statement timeout its Node driver
 * can set, but every text match calls this function once per row and column, and past
 * `statementTimeoutMs` (0: no limit) it throws StatementTimeout, which ends the statement.
 */
export function openConnection(file: string, statementTimeoutMs: number): Connection {
  const db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  let deadline = Infinity;
  let folds = 0;
  // Deterministic, so SQLite may call it once per value.
  db.function(foldFunction, { deterministic: true }, (value: unknown) => {
    folds += 1;
    if (folds % callsPerClockLook === 0 && Date.now() > deadline) throw new StatementTimeout();
    return typeof value === "string" ? foldText(value) : value;
  });
  // A statement answers in objects or in arrays (`raw`) for good once prepared: one cache for each.
  const statements = new Map<string, Sqlite.Statement>();
  const rawStatements = new Map<string, Sqlite.Statement>();
  // Prepared on first use, not at start-up: a service on an unmigrated database still starts and
  // answers its health check.
  const prepare = (text: string, until?: number, raw = false): Sqlite.Statement => {
    // Each statement runs to its end before the next starts (synchronously): its own deadline.
    deadline = until ?? (statementTimeoutMs > 0 ? Date.now() + statementTimeoutMs : Infinity);
    const cache = raw ? rawStatements : statements;
    let statement = cache.get(text);
    if (!statement) {
      statement = raw ? db.prepare(text).raw(true) : db.prepare(text);
      if (cache.size < maxPreparedStatements) cache.set(text, statement);
    }
    return statement;
  };
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");
  const savepoint = db.prepare('SAVEPOINT "hashapi_write"');
  const release = db.prepare('RELEASE "hashapi_write"');
  const rollbackToSavepoint = db.prepare('ROLLBACK TO "hashapi_write"');
  return {
    db,
    control: {
      begin: () => void begin.run(),
      commit: () => void commit.run(),
      rollback: () => void rollback.run(),
      savepoint: () => void savepoint.run(),
      release: () => void release.run(),
      rollbackToSavepoint: () => void rollbackToSavepoint.run(),
    },
    all: (text, values, until) => prepare(text, until).all(values) as SqlRow[],
    get: (text, values, until) => prepare(text, until).get(values) as SqlRow | undefined,
    rows: (text, values, until) => prepare(text, until, true).all(values) as SqlValues[],
    run: (text, values, until) => prepare(text, until).run(values).changes,
  };
}
