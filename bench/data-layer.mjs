#!/usr/bin/env node
// The data-layer measurement behind docs/decisions.md ("A typed data layer", issue 11): µs of CPU per
// query of the runtime's typed Table (generated/dist/data/table.js, what the service runs) against a
// bare better-sqlite3 prepared statement, on 10,000 patients, interleaved rounds, medians.
//
//   (cd generated && npm run build) && node bench/data-layer.mjs
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { hashAlphabet } from "./servers/shared/hash-id.mjs";

const repo = new URL("..", import.meta.url).pathname;
const dist = join(repo, "generated/dist");
const { openSql } = await import(join(dist, "db/driver.js"));
const { Table } = await import(join(dist, "lib/table.js"));
const { patientTable } = await import(join(dist, "resources/patient/patient.repository.js"));

const dir = mkdtempSync(join(tmpdir(), "hashapi-data-layer-"));
const file = join(dir, "bench.db");
const raw = new Database(file);
raw.exec(readFileSync(join(repo, "generated/prisma/migrations/0001_init/migration.sql"), "utf8"));
const now = new Date().toISOString().replace("Z", "+00:00");
const insert = raw.prepare(`INSERT INTO "patients" ("hash", "name", "cpf", "phone", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?)`);
const hashes = [];
raw.transaction(() => {
  for (let index = 0; index < 10_000; index += 1) {
    let code = "";
    for (let rest = index, digit = 0; digit < 8; digit += 1, rest = Math.floor(rest / 32)) code += hashAlphabet[rest % 32];
    const hash = `PAT_${code}`;
    hashes.push(hash);
    insert.run(hash, `Patient ${index}`, String(10_000_000_000 + index), null, now, now);
  }
})();

const sql = openSql(`file:${file}`);
const table = new Table(sql, patientTable);
const rawShow = raw.prepare(`SELECT "id", "hash", "name", "cpf", "phone", "created_at", "updated_at", "deleted_at" FROM "patients" WHERE "hash" = ? AND "deleted_at" IS NULL LIMIT 1`);
const rawPage = raw.prepare(`SELECT "id", "hash", "name", "cpf", "phone", "created_at", "updated_at", "deleted_at" FROM "patients" WHERE "deleted_at" IS NULL ORDER BY "created_at" ASC, "id" ASC LIMIT ? OFFSET ?`);

const contenders = {
  "show: better-sqlite3 prepared": async (n) => rawShow.get(hashes[n % hashes.length]),
  "show: Table.findOne (typed, decoded)": async (n) => table.findOne({ hash: hashes[n % hashes.length], deleted: false }),
  "page of 15: better-sqlite3 prepared": async (n) => rawPage.all(15, (n % 600) * 15),
  "page of 15: Table.findMany (typed, decoded)": async (n) =>
    table.findMany({ orderBy: [{ created_at: "asc" }, { id: "asc" }], limit: 15, offset: (n % 600) * 15 }),
};

const calls = 20_000;
const rounds = 5;
const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, run] of Object.entries(contenders)) {
    for (let n = 0; n < 2000; n += 1) await run(n); // warm-up
    const before = process.cpuUsage();
    for (let n = 0; n < calls; n += 1) await run(n);
    const used = process.cpuUsage(before);
    samples[name].push((used.user + used.system) / calls);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, values] of Object.entries(samples)) console.log(`${name.padEnd(45)} ${median(values).toFixed(1)} µs`);
await sql.close();
raw.close();
rmSync(dir, { recursive: true, force: true });
