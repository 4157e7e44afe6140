// Loaded into a server with `node --import`: appends the text and first values of every statement
// the process sends through `pg` to the file named by BENCH_SQL_CAPTURE, once per text (as
// sql-capture-preload.mjs does for better-sqlite3), so that the PostgreSQL benchmark can EXPLAIN the
// very statements the service runs.
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

const capturePath = process.env.BENCH_SQL_CAPTURE;
const pg = createRequire(import.meta.url)("pg");
const query = pg.Client.prototype.query;
const seen = new Set();

pg.Client.prototype.query = function capturingQuery(config, values, ...rest) {
  const text = typeof config === "string" ? config : config?.text;
  if (capturePath && typeof text === "string" && !seen.has(text)) {
    seen.add(text);
    const bound = Array.isArray(values) ? values : (config?.values ?? []);
    appendFileSync(capturePath, `${JSON.stringify({ text, values: bound })}\n`);
  }
  return query.call(this, config, values, ...rest);
};
