// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { AsyncLocalStorage } from "node:async_hooks";
import { eventsTable } from "./service-tables.js";
import type { Logger } from "../base/logger.js";
import { printableUrl } from "./database.js";
import { Binder, type ReadRouting, type Sql, type SqlQuery } from "./sql.js";

/*
 * Read replicas (DATABASE_REPLICA_URLS, docs/api-contract.md §9). A GET request's reads go to a
 * replica, the rest (writes, transactions, authentication, everything outside a GET) to the
 * primary. A caller reads their own writes: every committed write is an event with its actor
 * (data/outbox.ts), so the primary, asked for the caller's last event while it checks their
 * token anyway, says which event the replica must hold; the replica is asked for that one row (a
 * primary key lookup) and, if it does not hold it yet, the request reads from the primary. This
 * holds across workers and instances, with no clock and no window. Other callers' writes appear on
 * the replica when it replays them (seconds at worst, usually milliseconds).
 *
 * A replica that does not answer is left out until it answers again (checked every second): the
 * statement that found it gone runs again on the primary, so its absence is never a 5xx.
 */

/** The replica a GET request reads from, for the statements it runs outside a transaction. */
const readingFrom = new AsyncLocalStorage<Replica>();

interface Replica {
  readonly label: string;
  readonly sql: Sql;
  up: boolean;
}

/** How often a replica's health is checked. */
const checkEveryMs = 1000;

export class ReplicaSet implements ReadRouting {
  private readonly replicas: Replica[];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    replicas: readonly { url: string; sql: Sql }[],
    private readonly logger: Logger,
  ) {
    this.replicas = replicas.map(({ url, sql }) => ({ label: printableUrl(url), sql, up: true }));
  }

  /** Checks every replica now and then every second, saying when one goes or comes back. */
  start(): void {
    const check = () => void Promise.all(this.replicas.map((replica) => this.check(replica)));
    check();
    this.timer = setInterval(check, checkEveryMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.sql.close().catch(() => undefined)));
  }

  /**
   * Runs a GET request's `work` with its reads on a replica that answers and holds the caller's
   * last write (event id `lastEvent`), or on the primary when none does.
   */
  async reading<T>(lastEvent: number | undefined, work: () => Promise<T>): Promise<T> {
    const replica = this.pick();
    if (!replica) return work();
    if (lastEvent !== undefined && !(await this.holds(replica, lastEvent))) return work();
    return readingFrom.run(replica, work);
  }

  /** A statement's rows from the request's replica; from the primary when it is gone meanwhile. */
  async read<T>(run: (sql: Sql) => Promise<T>, primary: Sql): Promise<T> {
    const replica = readingFrom.getStore();
    if (!replica?.up) return run(primary);
    try {
      return await run(replica.sql);
    } catch (error) {
      if (!replica.sql.dialect.errors.isDatabaseAway(error)) throw error;
      this.down(replica, error);
      return run(primary);
    }
  }

  private pick(): Replica | undefined {
    for (let tried = 0; tried < this.replicas.length; tried += 1) {
      const replica = this.replicas[(this.next += 1) % this.replicas.length]!;
      if (replica.up) return replica;
    }
    return undefined;
  }

  private async holds(replica: Replica, eventId: number): Promise<boolean> {
    const values = new Binder(replica.sql.dialect);
    try {
      const row = await replica.sql.get(
        `SELECT 1 AS "found" FROM ${eventsTable} WHERE "id" = ${values.add(eventId)}`,
        values.list,
      );
      return row !== undefined;
    } catch (error) {
      this.down(replica, error);
      return false;
    }
  }

  private async check(replica: Replica): Promise<void> {
    try {
      await replica.sql.get("SELECT 1");
      if (!replica.up) this.logger.info({ replica: replica.label }, "read replica answers again");
      replica.up = true;
    } catch (error) {
      this.down(replica, error);
    }
  }

  private down(replica: Replica, error: unknown): void {
    if (replica.up)
      this.logger.warn(
        { replica: replica.label, err: error },
        "read replica does not answer: reads go to the primary until it does",
      );
    replica.up = false;
  }
}

/**
 * The primary, with the reads of a GET request (statements that start with SELECT, outside a
 * transaction) sent to that request's replica when it has one. Writes, locking reads and
 * transactions always run on the primary.
 */
export function withReplicas(primary: Sql, replicas: ReplicaSet): Sql {
  function routed<T>(text: SqlQuery | string, run: (sql: Sql) => Promise<T>): Promise<T> {
    return readingFrom.getStore() !== undefined && isPlainSelect(text)
      ? replicas.read(run, primary)
      : run(primary);
  }
  return {
    ...primary,
    all: (query, values) => routed(query, (sql) => sql.all(query, values)),
    get: (query, values) => routed(query, (sql) => sql.get(query, values)),
    rows: (query, values) => routed(query, (sql) => sql.rows(query, values)),
    replicas,
    async close() {
      await replicas.close();
      await primary.close();
    },
  };
}

/**
 * A read a replica can answer: SELECT, not locking rows (a lock is for a write that follows) nor
 * calling what a replica refuses (a sequence's next value, an advisory lock). An `sql` query is
 * judged on all its text parts: a locking clause may follow a value.
 */
export function isPlainSelect(query: SqlQuery | string): boolean {
  const text = typeof query === "string" ? query : query.strings.join(" ");
  return (
    /^\s*SELECT\b/i.test(text) &&
    !/\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b/i.test(text) &&
    !/\b(nextval|setval|pg_(try_)?advisory_(xact_)?lock(_shared)?)\s*\(/i.test(text)
  );
}
