// The statements the service runs for each list scenario, captured from a running service (see
// sql-capture-preload.mjs, pg-capture-preload.mjs), and their query plans on a seeded database:
// whether a declared index serves the filter and the order, or what is scanned. On PostgreSQL the
// plans are EXPLAIN ANALYZE of the statement with the values the service sent.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { exchange } from "./http-client.mjs";
import { stopProcess } from "./processes.mjs";
import { startServer } from "./servers.mjs";

const preloads = {
  sqlite: new URL("./sql-capture-preload.mjs", import.meta.url).pathname,
  postgresql: new URL("./pg-capture-preload.mjs", import.meta.url).pathname,
};
// Authentication's statements run on every request, and the service's own housekeeping at start:
// they are not the list's.
const notTheList = /FROM "(users|login_throttles|revoked_tokens)" WHERE|INTO "login_throttles"|_prisma_migrations|^SELECT 1$|^(BEGIN|COMMIT|ROLLBACK)|pg_advisory|^SET /;

/**
 * requests(context): [{ id, request(replies) }], where replies holds the bodies answered so far by
 * id. Returns, per id, the statements ({ text, values }) the service ran for that request first.
 * databaseUrl: a postgresql:// database instead of the SQLite file at databasePath.
 */
export async function captureListSql({ projectDir, databasePath, databaseUrl, scratch, requests, before }) {
  const capturePath = join(scratch, "list-sql.jsonl");
  rmSync(capturePath, { force: true });
  const server = await startServer("service", {
    projectDir,
    databasePath,
    ...(databaseUrl ? { databaseUrl } : {}),
    nodeArgs: ["--import", preloads[databaseUrl ? "postgresql" : "sqlite"]],
    env: { BENCH_SQL_CAPTURE: capturePath },
  });
  // The SQLite preload writes each text as a JSON string; the pg one { text, values }.
  const read = () =>
    readFileSync(capturePath, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .map((entry) => (typeof entry === "string" ? { text: entry, values: [] } : entry));
  const captured = {};
  const replies = {};
  try {
    const context = await before(server.baseUrl);
    let seen = read().length;
    for (const { id, request } of requests(context)) {
      const made = request(replies);
      const reply = await exchange(server.baseUrl, made);
      if (reply.status !== 200) throw new Error(`GET ${made.path} answered ${reply.status} while capturing SQL: ${reply.text}`);
      replies[id] = JSON.parse(reply.text);
      const texts = read();
      captured[id] = texts.slice(seen).filter(({ text }) => !notTheList.test(text.trim()));
      seen = texts.length;
    }
  } finally {
    await stopProcess(server.handle);
  }
  return captured;
}

// NULL for every placeholder: without STAT4 SQLite plans a prepared statement before it sees its
// values, so the plan is the one every request gets (no placeholder sits inside a string literal).
const unbound = (sql) => new Array((sql.match(/\?/g) ?? []).length).fill(null);

/** EXPLAIN QUERY PLAN of each statement ({ text }), on SQLite. */
export function explain(databasePath, statements) {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  // The service's case folding (runtime data/list-conditions.ts); the plan only needs it to exist.
  db.function("hashapi_fold", { deterministic: true }, (value) => (typeof value === "string" ? value.toLowerCase() : value));
  try {
    return Object.fromEntries(
      Object.entries(statements).map(([id, captured]) => [
        id,
        captured.map(({ text }) => ({
          sql: text,
          plan: db
            .prepare(`EXPLAIN QUERY PLAN ${text}`)
            .all(...unbound(text))
            .map((row) => row.detail),
        })),
      ]),
    );
  } finally {
    db.close();
  }
}

/** EXPLAIN ANALYZE of each statement ({ text, values }) with the values the service sent, on PostgreSQL. */
export async function explainPostgres(databaseUrl, statements) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const plans = {};
    for (const [id, captured] of Object.entries(statements)) {
      plans[id] = [];
      for (const { text, values } of captured) {
        if (!/^\s*SELECT/i.test(text)) continue;
        const result = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${text}`, values);
        plans[id].push({ sql: text, plan: result.rows.map((row) => row["QUERY PLAN"].trim()) });
      }
    }
    return plans;
  } finally {
    await client.end();
  }
}
