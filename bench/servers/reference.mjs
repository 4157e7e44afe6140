#!/usr/bin/env node
// The practical limit of this stack for the benchmarked endpoints: bare node:http, better-sqlite3
// prepared statements and node:crypto, answering byte for byte like the generated service.
// Env: DATABASE_PATH (a SQLite file migrated by the service), PORT, HOST, JWT_SECRET, JWT_ISSUER,
// JWT_AUDIENCE (the service's names and defaults).
import { createServer } from "node:http";
import { loadServerConfig } from "./shared/config.mjs";
import { createAuth } from "./reference/auth.mjs";
import { openDatabase } from "./reference/database.mjs";
import { sendError } from "./reference/http.mjs";
import { createJwt } from "./reference/jwt.mjs";
import { createPatients } from "./reference/patients.mjs";
import { createRouter } from "./reference/router.mjs";

const config = loadServerConfig();
const databasePath = process.env.DATABASE_PATH;
if (!databasePath) {
  process.stderr.write("DATABASE_PATH must name the SQLite database file\n");
  process.exit(1);
}
const database = openDatabase(databasePath);
const auth = createAuth(database, createJwt(config.jwt), config.jwt);
const route = createRouter({ auth, patients: createPatients(database), bodyLimitBytes: config.bodyLimitBytes });

const server = createServer((req, res) => {
  route(req, res).catch((error) => {
    process.stderr.write(`unexpected error: ${error?.stack ?? error}\n`);
    if (res.headersSent) res.end();
    else sendError(res, 500, "Server Error");
  });
});
server.listen(config.port, config.host, () => {
  process.stderr.write(`reference listening on http://${config.host}:${server.address().port}\n`);
});

function shutdown() {
  server.close(() => {
    database.db.close();
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(1), 5000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
