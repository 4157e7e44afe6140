// Loaded into a server with `node --import`: appends every SQL text the process prepares through
// better-sqlite3 to the file named by BENCH_SQL_CAPTURE, once per text. It lets the benchmark
// explain and time the very statements the service runs, whatever its templates generate.
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

const capturePath = process.env.BENCH_SQL_CAPTURE;
const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");
const prepare = Database.prototype.prepare;
const seen = new Set();

Database.prototype.prepare = function capturingPrepare(source, ...rest) {
  if (capturePath && !seen.has(source)) {
    seen.add(source);
    appendFileSync(capturePath, `${JSON.stringify(source)}\n`);
  }
  return prepare.call(this, source, ...rest);
};
