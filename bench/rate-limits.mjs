#!/usr/bin/env node
// What counting a request costs (issue 36, `rateLimit`): rate-limiter-flexible's consume, as the
// generated service calls it, against the service's own per-request statement (the token check, a
// primary-key lookup). On SQLite the counts are in memory (one call, no I/O); on PostgreSQL each
// request upserts its count in hashapi_rate_limits through the service's connections. 8 callers,
// alternating slices, medians.
//
//   node bench/rate-limits.mjs [--slices 6] [--seconds 2]
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { RateLimiterMemory, RateLimiterPostgres } from "rate-limiter-flexible";
import { prepareProject } from "./lib/prepare-project.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";

const repo = new URL("..", import.meta.url).pathname;
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const slices = option("--slices", 6);
const seconds = option("--seconds", 2);
const log = (line) => process.stderr.write(`${line}\n`);

async function rate(work) {
  let done = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: 8 }, async (_, caller) => {
    while (Date.now() < until) {
      await work(caller);
      done += 1;
    }
  }));
  return done / seconds;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const memory = new RateLimiterMemory({ points: 1e9, duration: 60, keyPrefix: "user:600" });
const memoryRate = await rate((caller) => memory.consume(`u:USR_${caller}`));
console.log(`memory (SQLite's store)     ${Math.round(memoryRate).toLocaleString("en")} consumes/s (8 callers, no I/O)`);

const postgres = await startPostgres();
const opened = [];
try {
  const { projectDir } = await prepareProject({ repo, scratch: join(repo, ".tmp/bench"), log, database: "postgresql", migrateUrl: postgres.url("postgres") });
  const { openSql } = await import(pathToFileURL(join(projectDir, "dist/db/driver.js")).href);
  const sql = openSql(postgres.url("postgres"), 8, 2000);
  opened.push(sql);
  await sql.exec(`CREATE TABLE IF NOT EXISTS "hashapi_rate_limits" ("key" VARCHAR(255) PRIMARY KEY, "points" INTEGER NOT NULL DEFAULT 0, "expire" BIGINT)`);
  const store = new RateLimiterPostgres({ storeClient: { query: async (statement) => ({ rows: await sql.all(statement.text, statement.values ?? []) }) }, storeType: "pool", tableName: "hashapi_rate_limits", tableCreated: true, points: 1e9, duration: 60, keyPrefix: "user:600" });
  const lookup = (caller) => sql.get(`SELECT "id", "hash", "role" FROM "users" WHERE "hash" = $1 LIMIT 1`, [`USR_${caller}`]);
  const counts = { lookup: [], upsert: [] };
  for (let round = 0; round < slices; round += 1) {
    counts.lookup.push(await rate(lookup));
    counts.upsert.push(await rate((caller) => store.consume(`u:USR_${caller}`)));
  }
  console.log(`PostgreSQL, the token check  ${Math.round(median(counts.lookup)).toLocaleString("en")} statements/s`);
  console.log(`PostgreSQL, a count upserted ${Math.round(median(counts.upsert)).toLocaleString("en")} consumes/s (${(median(counts.upsert) / median(counts.lookup)).toFixed(2)}× the token check's rate: a committed write each)`);
} finally {
  await Promise.all(opened.map((sql) => sql.close().catch(() => undefined)));
  await postgres.destroy();
}
