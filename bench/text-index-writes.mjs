#!/usr/bin/env node
// What a trigram index costs a write (issue 52): rows inserted, then updated, into the example's
// patients table with the indexes the migrations write for its three text fields (name, cpf, phone)
// and without them, on SQLite (an FTS5 table kept by triggers) and PostgreSQL (a GIN index per
// field), through the drivers alone: the database's share of a write, without HTTP. Alternating
// slices, the ratio of medians. Figures: bench/README.md, "Issue 52".
//
//   node bench/text-index-writes.mjs [--json] [--rows 5000] [--slices 5] [--skip-postgresql]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { textIndexObject } from "../dist/migrate/text-indexes.js";
import { startPostgres } from "./lib/postgres-server.mjs";
import { median } from "./lib/stats.mjs";

const { values } = parseArgs({ options: { json: { type: "boolean" }, rows: { type: "string" }, slices: { type: "string" }, "skip-postgresql": { type: "boolean" } } });
const rows = Number(values.rows ?? 5_000);
const slices = Number(values.slices ?? 5);
const columns = ["name", "cpf", "phone"];
const text = (index) => [`Patient ${index} Silva`, String(10_000_000_000 + index), `+55 11 9${String(index).padStart(8, "0")}`];

const ddl = {
  sqlite: `CREATE TABLE "patients" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "cpf" TEXT NOT NULL, "phone" TEXT)`,
  postgresql: `CREATE TABLE "patients" ("id" SERIAL PRIMARY KEY, "name" VARCHAR(120) NOT NULL, "cpf" VARCHAR(11) NOT NULL, "phone" VARCHAR(20))`,
};
const indexSql = (provider) =>
  provider === "sqlite"
    ? [textIndexObject({ name: "hashapi_text_patients", table: "patients", columns }, "sqlite").create]
    : ["CREATE EXTENSION IF NOT EXISTS pg_trgm;", ...columns.map((column) => textIndexObject({ name: `patients_${column}_trgm`, table: "patients", columns: [column] }, "postgresql").create)];

/** µs per row of inserting `rows` rows, then of updating each one's name. */
async function sqliteSlice(indexed) {
  const dir = mkdtempSync(join(tmpdir(), "hashapi-text-writes-"));
  const db = new Database(join(dir, "bench.db"));
  try {
    // As the service's connection (runtime/sqlite/src/db/connection.ts).
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec(ddl.sqlite);
    // better-sqlite3 runs a whole script, triggers included.
    if (indexed) db.exec(indexSql("sqlite").join("\n"));
    const insert = db.prepare(`INSERT INTO "patients" ("name", "cpf", "phone") VALUES (?, ?, ?)`);
    const update = db.prepare(`UPDATE "patients" SET "name" = ? WHERE "id" = ?`);
    // One statement per transaction, as the service commits each write (group commit aside).
    let started = performance.now();
    for (let index = 0; index < rows; index += 1) db.transaction(() => insert.run(...text(index)))();
    const insertUs = ((performance.now() - started) * 1000) / rows;
    started = performance.now();
    for (let index = 1; index <= rows; index += 1) db.transaction(() => update.run(`Renamed ${index} Souza`, index))();
    return { insertUs, updateUs: ((performance.now() - started) * 1000) / rows };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresSlice(url, indexed) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS "patients"`);
    await client.query(ddl.postgresql);
    // A query without values may hold several statements.
    if (indexed) await client.query(indexSql("postgresql").join("\n"));
    let started = performance.now();
    for (let index = 0; index < rows; index += 1) await client.query({ name: "insert", text: `INSERT INTO "patients" ("name", "cpf", "phone") VALUES ($1, $2, $3)`, values: text(index) });
    // GIN's pending list (fastupdate) defers part of the work: flushed and counted here.
    await flushPendingLists(client, indexed);
    const insertUs = ((performance.now() - started) * 1000) / rows;
    started = performance.now();
    for (let index = 1; index <= rows; index += 1) await client.query({ name: "update", text: `UPDATE "patients" SET "name" = $1 WHERE "id" = $2`, values: [`Renamed ${index} Souza`, index] });
    await flushPendingLists(client, indexed);
    return { insertUs, updateUs: ((performance.now() - started) * 1000) / rows };
  } finally {
    await client.end();
  }
}

async function flushPendingLists(client, indexed) {
  if (indexed) for (const column of columns) await client.query(`SELECT gin_clean_pending_list('patients_${column}_trgm'::regclass)`);
}

async function pairs(slice) {
  const runs = { plain: [], indexed: [] };
  for (let round = 0; round < slices; round += 1)
    for (const indexed of round % 2 === 0 ? [false, true] : [true, false]) runs[indexed ? "indexed" : "plain"].push(await slice(indexed));
  const of = (kind, key) => median(runs[kind].map((run) => run[key]));
  return Object.fromEntries(["insertUs", "updateUs"].map((key) => [key, { plain: of("plain", key), indexed: of("indexed", key), ratio: of("indexed", key) / of("plain", key) }]));
}

const results = { rows, slices, sqlite: await pairs(sqliteSlice) };
if (!values["skip-postgresql"] && existsSync("/usr/lib/postgresql")) {
  const postgres = await startPostgres();
  try {
    const owner = new pg.Client({ connectionString: postgres.url("postgres") });
    await owner.connect();
    await owner.query(`CREATE DATABASE "text_writes"`);
    await owner.end();
    results.postgresql = await pairs((indexed) => postgresSlice(postgres.url("text_writes"), indexed));
  } finally {
    await postgres.destroy();
  }
}
if (values.json) console.log(JSON.stringify(results, null, 2));
else {
  console.log(`| database | write | without the index | with it (3 fields) | ratio |\n|---|---|---:|---:|---:|`);
  for (const database of ["sqlite", "postgresql"])
    for (const [key, label] of [["insertUs", "insert"], ["updateUs", "update of name"]]) {
      const figure = results[database]?.[key];
      if (figure) console.log(`| ${database} | ${label} | ${figure.plain.toFixed(1)} µs | ${figure.indexed.toFixed(1)} µs | ${figure.ratio.toFixed(2)}× |`);
    }
}
