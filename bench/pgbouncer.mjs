#!/usr/bin/env node
// What the statements behind PgBouncer cost (issue 36): the generated PostgreSQL driver on a direct
// connection with named prepared statements (its default), the same without names (its pooled mode:
// parsed on every run), and pooled through PgBouncer in transaction mode. 8 concurrent callers run a
// lookup by a unique key (what `show` sends) in alternating slices; the medians of the slices' rates.
//
//   node bench/pgbouncer.mjs [--slices 8] [--seconds 2]
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { prepareProject } from "./lib/prepare-project.mjs";
import { startPgBouncer } from "./lib/pgbouncer.mjs";
import { startPostgres } from "./lib/postgres-server.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const slices = argument("--slices", 8);
const seconds = argument("--seconds", 2);
const log = (line) => process.stderr.write(`${line}\n`);

const postgres = await startPostgres();
let bouncer;
const opened = [];
try {
  const { projectDir } = await prepareProject({ repo, scratch, log, database: "postgresql", migrateUrl: postgres.url("postgres") });
  const { openSql } = await import(pathToFileURL(join(projectDir, "dist/db/driver.js")).href);
  bouncer = await startPgBouncer(postgres);
  const setup = openSql(postgres.url("postgres"), 1);
  opened.push(setup);
  await setup.exec(`CREATE TABLE "lookups" ("id" SERIAL PRIMARY KEY, "hash" VARCHAR(20) UNIQUE NOT NULL, "name" TEXT NOT NULL); INSERT INTO "lookups" ("hash", "name") SELECT 'H_' || g, 'name ' || g FROM generate_series(1, 10000) AS g`);
  const contenders = {
    "direct, named": openSql(postgres.url("postgres"), 8, 2000, false),
    "direct, unnamed": openSql(postgres.url("postgres"), 8, 2000, true),
    "PgBouncer, unnamed": openSql(bouncer.url("postgres"), 8, 2000, true),
  };
  opened.push(...Object.values(contenders));
  const rates = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  const slice = async (sql) => {
    let done = 0;
    const until = Date.now() + seconds * 1000;
    const caller = async () => {
      while (Date.now() < until) {
        await sql.get(`SELECT "id", "hash", "name" FROM "lookups" WHERE "hash" = $1 LIMIT 1`, [`H_${1 + Math.floor(Math.random() * 10000)}`]);
        done += 1;
      }
    };
    await Promise.all(Array.from({ length: 8 }, caller));
    return done / seconds;
  };
  for (const sql of Object.values(contenders)) await slice(sql); // warm-up: connections, plans
  for (let round = 0; round < slices; round += 1) {
    const order = round % 2 === 0 ? Object.keys(contenders) : Object.keys(contenders).reverse();
    for (const name of order) rates[name].push(await slice(contenders[name]));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const base = median(rates["direct, named"]);
  for (const [name, values] of Object.entries(rates))
    console.log(`${name.padEnd(20)} ${Math.round(median(values)).toLocaleString("en")} lookups/s  ${(median(values) / base).toFixed(3)}× of direct, named  (${slices} slices of ${seconds} s, 8 callers)`);
} finally {
  await Promise.all(opened.map((sql) => sql.close().catch(() => undefined)));
  await bouncer?.stop();
  await postgres.destroy();
}
