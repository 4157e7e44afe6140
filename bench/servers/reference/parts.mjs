// What the reference and the Express ceiling share: configuration, the database with its prepared
// statements, authentication and the patient endpoints (and, for the Express ceiling, the list
// queries of bench/lists.mjs), and a clean shutdown. They differ only in the HTTP layer (bare
// node:http or Express 5). The reference also runs on PostgreSQL (bench/postgresql.mjs): given a
// postgresql:// DATABASE_URL instead of DATABASE_PATH, its statements go through `pg`.
import { loadServerConfig } from "../shared/config.mjs";
import { createAuth } from "./auth.mjs";
import { openDatabase } from "./database.mjs";
import { openPgDatabase } from "./pg-database.mjs";
import { createJwt } from "./jwt.mjs";
import { createLists } from "./lists.mjs";
import { createPatients } from "./patients.mjs";

export function referenceParts(environment = process.env) {
  const config = loadServerConfig(environment);
  const { DATABASE_PATH: databasePath, DATABASE_URL: databaseUrl } = environment;
  // CEILING_EVENTS=1: writes append their event as the service's do (bench/write-ceilings.mjs).
  const events = environment.CEILING_EVENTS === "1";
  if (databaseUrl?.startsWith("postgresql://")) {
    const database = openPgDatabase(databaseUrl);
    return { config, database, auth: createAuth(database, createJwt(config.jwt), config.jwt), patients: createPatients(database, { events }) };
  }
  if (!databasePath) {
    process.stderr.write("DATABASE_PATH must name the SQLite database file (or DATABASE_URL a PostgreSQL database)\n");
    process.exit(1);
  }
  const database = openDatabase(databasePath);
  const auth = createAuth(database, createJwt(config.jwt), config.jwt);
  return { config, database, auth, patients: createPatients(database, { events }), lists: createLists(database, config.jwt) };
}

/** Listens on the configured address and stops cleanly on SIGTERM/SIGINT. */
export function serve(name, server, { config, database }) {
  server.listen(config.port, config.host, () => {
    process.stderr.write(`${name} listening on http://${config.host}:${server.address().port}\n`);
  });
  const shutdown = () => {
    server.close(() => {
      database.db.close();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 5000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
