#!/usr/bin/env node
// What the outbox's event row costs SQLite, index by index (issue 47, item 7): a patient's insert
// and its event in one transaction, 20,000 times in a loop, on a copy of the seeded database with
// the events table as migrated, then without each index that could go and without AUTOINCREMENT.
// SQLite writes every page a transaction changes to the WAL at COMMIT: each index the event's row
// enters is one page more a write.
//
//   node bench/service.mjs --quick      # once: the seeded database .tmp/bench/main-seeded.db
//   node bench/event-row-cost.mjs [--writes 20000]
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";

const scratch = new URL("../.tmp/bench/", import.meta.url).pathname;
const seededPath = join(scratch, "main-seeded.db");
const { values } = parseArgs({ options: { writes: { type: "string" } } });
const writes = Number(values.writes ?? 20_000);
const indexes = { created_at: "hashapi_events_created_at_idx", actor: "hashapi_events_actor_hash_id_idx" };

/** The events table again, its rows and indexes kept, with a plain rowid key instead of AUTOINCREMENT. */
function withoutAutoincrement(db) {
  const create = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'hashapi_events'").pluck().get();
  const kept = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hashapi_events' AND sql IS NOT NULL").pluck().all();
  db.exec(`${create.replace('"hashapi_events"', '"hashapi_events_plain"').replace(" AUTOINCREMENT", "")};
    INSERT INTO "hashapi_events_plain" SELECT * FROM "hashapi_events"; DROP TABLE "hashapi_events";
    ALTER TABLE "hashapi_events_plain" RENAME TO "hashapi_events"; ${kept.join("; ")}`);
}

function measure(label, { event = true, drop = [], autoincrement = true }) {
  const path = join(scratch, "event-row-cost.db");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(seededPath, path);
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  for (const name of drop) db.exec(`DROP INDEX "${indexes[name]}"`);
  if (!autoincrement) withoutAutoincrement(db);
  const insert = db.prepare(`INSERT INTO "patients" ("created_at", "updated_at", "name", "cpf", "phone", "hash") VALUES (?, ?, ?, ?, ?, ?) RETURNING *`).raw(true);
  const append = db.prepare(`INSERT INTO "hashapi_events" ("type", "record_hash", "actor_hash", "actor_name", "changes", "origin", "created_at") VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const [begin, commit] = [db.prepare("BEGIN IMMEDIATE"), db.prepare("COMMIT")];
  const start = process.hrtime.bigint();
  for (let index = 0; index < writes; index += 1) {
    const now = new Date().toISOString().replace("Z", "+00:00");
    const hash = `PAT_W${String(index).padStart(7, "0")}`;
    if (!event) {
      insert.all([now, now, `Name ${index}`, `9${index}`, null, hash]);
      continue;
    }
    begin.run();
    insert.all([now, now, `Name ${index}`, `9${index}`, null, hash]);
    append.run("patient.created", hash, "USR_BENCH000", "Bench Admin", `{"name":[null,"Name ${index}"]}`, null, now);
    commit.run();
  }
  const micros = Number(process.hrtime.bigint() - start) / 1000 / writes;
  db.close();
  process.stdout.write(`| ${label} | ${micros.toFixed(0)} µs |\n`);
}

if (!existsSync(seededPath)) throw new Error(`${seededPath} is missing: run \`node bench/service.mjs --quick\` once first`);
process.stdout.write(`${writes.toLocaleString("en")} writes each, on a copy of ${seededPath}\n\n| write | a write |\n|---|---:|\n`);
measure("the patient's insert alone, in autocommit", { event: false });
measure("with its event, one transaction (as migrated)", {});
measure("… without the created_at index", { drop: ["created_at"] });
measure("… without the (actor_hash, id) index", { drop: ["actor"] });
measure("… without both", { drop: ["created_at", "actor"] });
measure("… without AUTOINCREMENT", { autoincrement: false });
