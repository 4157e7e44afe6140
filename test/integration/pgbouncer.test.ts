import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { behindPooler } from "../../runtime/common/src/db/database.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { hasPgBouncer, startPgBouncer, type PgBouncer } from "../support/pgbouncer.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * The PostgreSQL driver behind PgBouncer in transaction mode (Debian's 1.18: no prepared statements
 * there), issue 36. Two pools stand for two workers: with named prepared statements they meet each
 * other's names on the pooler's shared server connections; pooled (`pgbouncer=true` or a
 * DIRECT_DATABASE_URL) they do not, and DATABASE_STATEMENT_TIMEOUT_MS still bounds every statement.
 */
type OpenSql = (url: string, poolSize?: number, statementTimeoutMs?: number, pooled?: boolean) => Sql;

async function driver(): Promise<OpenSql> {
  const path = "../../runtime/postgresql/src/db/driver.js";
  return ((await import(path)) as { openSql: OpenSql }).openSql;
}

describe.skipIf(!((postgresBinDir() && hasPgBouncer()) || process.env.CI))("PostgreSQL through PgBouncer in transaction mode", () => {
  let postgres: PostgresServer;
  let bouncer: PgBouncer;
  let openSql: OpenSql;
  const opened: Sql[] = [];
  const open = (...args: Parameters<OpenSql>) => {
    const sql = openSql(...args);
    opened.push(sql);
    return sql;
  };

  beforeAll(async () => {
    openSql = await driver();
    postgres = await startPostgres();
    await postgres.createDatabase("app");
    // Two server connections for everyone: statements of different clients share them.
    bouncer = await startPgBouncer(postgres, 2);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(opened.map((sql) => sql.close().catch(() => undefined)));
    await bouncer?.stop();
    await postgres?.destroy();
  });

  /** Statements of two "workers", each with texts of its own, interleaved on the pooler. */
  async function twoWorkers(first: Sql, second: Sql): Promise<unknown[]> {
    const failures: unknown[] = [];
    const work = async (sql: Sql, offset: number) => {
      for (let round = 0; round < 40; round += 1) {
        const text = round % 2 === 0 ? `SELECT $1::int + ${offset} AS "n"` : `SELECT $1::int * ${offset + 1} AS "n", 'x' AS "other"`;
        const row = await sql.get(text, [round]).catch((error: unknown) => (failures.push(error), undefined));
        if (row && Number(row.n) !== (round % 2 === 0 ? round + offset : round * (offset + 1))) failures.push(new Error(`worker ${offset}: a wrong answer ${JSON.stringify(row)}`));
      }
    };
    await Promise.all([work(first, 1), work(second, 2), work(first, 1), work(second, 2)]);
    return failures;
  }

  it("named prepared statements (a direct connection's way) break through it: why the pooled mode exists", async () => {
    const failures = await twoWorkers(open(bouncer.url("app"), 4), open(bouncer.url("app"), 4));
    expect(failures.length).toBeGreaterThan(0);
  });

  it("pooled (`pgbouncer=true`, a DIRECT_DATABASE_URL): every statement of both workers answers, rightly", async () => {
    const url = `${bouncer.url("app")}?pgbouncer=true`;
    expect(behindPooler(url, {})).toBe(true);
    expect(behindPooler(bouncer.url("app"), { DIRECT_DATABASE_URL: postgres.url("app") })).toBe(true);
    expect(behindPooler(bouncer.url("app"), {})).toBe(false);
    const failures = await twoWorkers(open(url, 4, 2000, true), open(url, 4, 2000, true));
    expect(failures).toEqual([]);
  });

  it("pooled: transactions commit and roll back, and a statement past the timeout stops (inside a transaction and outside)", async () => {
    const sql = open(bouncer.url("app"), 4, 500, true);
    await sql.exec(`CREATE TABLE IF NOT EXISTS "notes" ("id" SERIAL PRIMARY KEY, "body" TEXT NOT NULL)`);
    await sql.transaction(async (tx) => tx.run(`INSERT INTO "notes" ("body") VALUES ($1)`, ["kept"]));
    await expect(
      sql.transaction(async (tx) => {
        await tx.run(`INSERT INTO "notes" ("body") VALUES ($1)`, ["rolled back"]);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await sql.all(`SELECT "body" FROM "notes" ORDER BY "id"`)).map((row) => row.body)).toEqual(["kept"]);
    // Inside a transaction: the server's own statement_timeout (SET LOCAL), code 57014.
    const inside = await sql.transaction((tx) => tx.get("SELECT pg_sleep(3)")).catch((error: { code?: string }) => error);
    expect((inside as { code?: string }).code).toBe("57014");
    // Outside one: the driver's own bound (the pooler refuses statement_timeout at connection time).
    const outside = await sql.get("SELECT pg_sleep(3)").catch((error: { code?: string }) => error);
    expect((outside as { code?: string }).code).toBe("HASHAPI_STATEMENT_TIMEOUT");
    // And the pool still answers afterwards.
    expect(await sql.get(`SELECT 1 AS "one"`)).toEqual({ one: 1 });
  }, 30_000);

  it("says a server that is away is away (the API's 503, not a 500), directly, through the pooler, and mid-transaction", async () => {
    const direct = open(postgres.url("app"), 2, 2000, false);
    const pooled = open(bouncer.url("app"), 2, 2000, true);
    const held = open(postgres.url("app"), 2, 2000, false);
    await Promise.all([direct.get("SELECT 1"), pooled.get("SELECT 1")]);
    // A transaction that holds its connection while the server goes.
    let release!: () => void;
    const midway = held.transaction(async (tx) => {
      await tx.get("SELECT 1");
      await new Promise<void>((done) => (release = done));
      return tx.get("SELECT 1");
    });
    await new Promise((done) => setTimeout(done, 100));
    await postgres.stop("immediate");
    try {
      release();
      const failures = await Promise.all([
        midway.catch((error: unknown) => error),
        direct.get("SELECT 1").catch((error: unknown) => error),
        pooled.get("SELECT 1").catch((error: unknown) => error),
      ]);
      // Either is the 503 of http/error-handler.ts: the server away, or (behind the pooler, which
      // queues the statement) the driver's own bound on it.
      for (const failure of failures) expect(direct.dialect.errors.isDatabaseAway(failure) || direct.dialect.errors.isStatementTimeout(failure), String(failure)).toBe(true);
    } finally {
      await postgres.start();
    }
    // Both pools open new connections once the server is back (the pooler retries its login after 1 s).
    for (const sql of [direct, pooled]) {
      let answer: unknown;
      for (let attempt = 0; attempt < 50 && answer === undefined; attempt += 1) {
        answer = await sql.get(`SELECT 1 AS "one"`).catch(() => undefined);
        if (answer === undefined) await new Promise((done) => setTimeout(done, 200));
      }
      expect(answer).toEqual({ one: 1 });
    }
  }, 60_000);
});
