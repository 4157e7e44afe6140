#!/usr/bin/env node
// The ceiling of the framework the generated service is bound to: a minimal hand-written Express 5
// app on better-sqlite3 statements prepared at start (or `pg` ones, given a postgresql:// DATABASE_URL), with the reference's checks and answers
// (same modules: auth, patients, body reading). What it loses to the reference is Express's own
// cost; what the service loses to it is hashapi's.
// Env: DATABASE_PATH, PORT, HOST, JWT_SECRET, JWT_ISSUER, JWT_AUDIENCE (as the reference).
import { parse as parseQuery } from "node:querystring";
import { createServer } from "node:http";
import express from "express";
import { readJsonBody, sendData, sendError } from "./reference/http.mjs";
import { referenceParts, serve } from "./reference/parts.mjs";

const parts = referenceParts();
const { config, auth, patients, lists } = parts;

const app = express();
app.disable("x-powered-by");
app.disable("etag");
app.set("query parser", "simple");

// Bodies are read before routing, as the service's app-level JSON middleware does.
app.use(async (req, res, next) => {
  if (!["POST", "PUT", "PATCH"].includes(req.method)) return next();
  const body = await readJsonBody(req, res, config.bodyLimitBytes);
  if (body === undefined) return;
  req.parsedBody = body;
  next();
});
const notAllowed = (allowed) => (_req, res) => sendError(res, 405, "Method not allowed.", undefined, { Allow: allowed });
const signedIn = async (req, res, next) => {
  req.user = await auth.authenticate(req);
  return req.user === undefined ? auth.unauthenticated(res) : next();
};
const search = (req) => {
  const start = req.url.indexOf("?");
  return start === -1 ? "" : req.url.slice(start + 1);
};

const api = express.Router();
api.route("/health").get((_req, res) => sendData(res, { status: "ok" })).all(notAllowed("GET, HEAD"));
api.route("/auth/login").post((req, res) => auth.login(req, res, req.parsedBody)).all(notAllowed("POST"));
api
  .route("/patients")
  .get(signedIn, (req, res) => {
    const query = parseQuery(search(req));
    // The list queries of bench/lists.mjs are SQLite's only (on PostgreSQL: the plain page).
    return lists?.patients(req, res, query) || patients.list(req, res, query);
  })
  .post(signedIn, (req, res) => patients.create(req, res, req.parsedBody))
  .all(notAllowed("GET, HEAD, POST"));
api
  .route("/patients/:hash")
  .get(signedIn, (req, res) => patients.show(req, res, req.params.hash))
  .put(signedIn, (req, res) => patients.update(req, res, req.params.hash, req.parsedBody))
  .patch(signedIn, (req, res) => patients.update(req, res, req.params.hash, req.parsedBody))
  .all(notAllowed("GET, HEAD, PUT, PATCH"));
// The list queries of bench/lists.mjs (doctors are public, as in the example).
if (lists) {
  api.route("/appointments").get(signedIn, (req, res) => lists.appointments(req, res, parseQuery(search(req))));
  api.route("/doctors").get((req, res) => lists.doctors(req, res, parseQuery(search(req))));
}
app.use("/api", api);
app.use((_req, res) => sendError(res, 404, "Resource not found."));
app.use((error, _req, res, _next) => {
  process.stderr.write(`unexpected error: ${error?.stack ?? error}\n`);
  if (res.headersSent) res.end();
  else sendError(res, 500, "Server Error");
});

serve("express-ceiling", createServer(app), parts);
