// What the reference and the Express ceiling share: configuration, the database with its prepared
// statements, authentication and the patient endpoints, and a clean shutdown. They differ only in
// the HTTP layer (bare node:http or Express 5).
import { loadServerConfig } from "../shared/config.mjs";
import { createAuth } from "./auth.mjs";
import { openDatabase } from "./database.mjs";
import { createJwt } from "./jwt.mjs";
import { createPatients } from "./patients.mjs";

export function referenceParts(environment = process.env) {
  const config = loadServerConfig(environment);
  const databasePath = environment.DATABASE_PATH;
  if (!databasePath) {
    process.stderr.write("DATABASE_PATH must name the SQLite database file\n");
    process.exit(1);
  }
  const database = openDatabase(databasePath);
  const auth = createAuth(database, createJwt(config.jwt), config.jwt);
  return { config, database, auth, patients: createPatients(database) };
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
