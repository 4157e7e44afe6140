#!/usr/bin/env node
// The practical limit of this stack for the benchmarked endpoints: bare node:http, better-sqlite3
// prepared statements and node:crypto, answering byte for byte like the generated service.
// Env: DATABASE_PATH (a SQLite file migrated by the service), PORT, HOST, JWT_SECRET, JWT_ISSUER,
// JWT_AUDIENCE (the service's names and defaults).
import { createServer } from "node:http";
import { sendError } from "./reference/http.mjs";
import { referenceParts, serve } from "./reference/parts.mjs";
import { createRouter } from "./reference/router.mjs";

const parts = referenceParts();
const route = createRouter({ auth: parts.auth, patients: parts.patients, bodyLimitBytes: parts.config.bodyLimitBytes });

const server = createServer((req, res) => {
  route(req, res).catch((error) => {
    process.stderr.write(`unexpected error: ${error?.stack ?? error}\n`);
    if (res.headersSent) res.end();
    else sendError(res, 500, "Server Error");
  });
});
serve("reference", server, parts);
