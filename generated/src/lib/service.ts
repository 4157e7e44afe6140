// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import cluster from "node:cluster";
import type { RequestListener } from "node:http";
import { createApiServer } from "../http/client-errors.js";
import { connectDatabase, explainOpenFailure, type Database } from "./database.js";
import { closeHandedOff, handedOff, listenThroughRunner } from "./dev-handoff.js";
import type { BackgroundWork } from "../http/api-app.js";
import { keepEventsPruned } from "./events/retention.js";
import { createLogger, type Logger } from "./logger.js";
import { migrationsPath, pendingMigrations } from "./migrations.js";
import { loadEnvironment, settingSource } from "./project-files.js";
import { supervise, workerCount } from "./supervisor.js";

/** What the service reads of the project's configuration (src/config.ts). */
export interface ServiceSettings {
  host: string;
  port: number;
  databaseUrl: string;
  /** Connections per process (PostgreSQL). */
  databasePoolSize: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: the longest a statement of a request may run (0: no limit). */
  databaseStatementTimeoutMs: number;
  logLevel: string;
}

/** The project's own parts the service runs: its configuration and its app (src/server.ts). */
export interface ServiceParts<Config extends ServiceSettings> {
  loadConfig(environment: NodeJS.ProcessEnv, fromEnvFile: ReadonlySet<string>): Config;
  /** The error loadConfig throws for settings a user got wrong: its message, not a stack trace. */
  ConfigError: new (...args: never[]) => Error;
  createApp(dependencies: { config: Config; db: Database; logger: Logger }): RequestListener;
}

/**
 * `npm start` (and each server of `npm run dev`): reads `.env` and the configuration, checks the
 * database and its migrations once, then serves, as one process or as a supervisor of workers.
 */
export async function runService<Config extends ServiceSettings>(
  moduleUrl: string,
  parts: ServiceParts<Config>,
): Promise<void> {
  // A worker whose supervisor died (even by SIGKILL) must not live on as an orphan holding the port.
  if (cluster.isWorker) process.on("disconnect", () => process.exit(1));
  const fromEnvFile = loadEnvironment(moduleUrl);
  const config = configOrExit(parts, fromEnvFile);
  const open = (poolSize: number) =>
    openDatabase(config.databaseUrl, poolSize, config.databaseStatementTimeoutMs, fromEnvFile);
  // `npm run dev` runs one process per server: its runner is what restarts it.
  const workers = handedOff() ? 1 : workerCount();
  if (cluster.isPrimary && workers > 1) {
    // The supervisor checks once, so a missing migration is one line, not one per worker.
    const db = await open(1);
    await exitUnlessMigrated(db, moduleUrl);
    await db.close();
    supervise(workers);
    return;
  }
  const db = await open(config.databasePoolSize);
  if (cluster.isPrimary) await exitUnlessMigrated(db, moduleUrl);
  serve(config, db, parts);
}

function configOrExit<Config extends ServiceSettings>(
  parts: ServiceParts<Config>,
  fromEnvFile: ReadonlySet<string>,
): Config {
  try {
    return parts.loadConfig(process.env, fromEnvFile);
  } catch (error) {
    if (!(error instanceof parts.ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

async function openDatabase(
  url: string,
  poolSize: number,
  statementTimeoutMs: number,
  fromEnvFile: ReadonlySet<string>,
): Promise<Database> {
  return connectDatabase(url, poolSize, statementTimeoutMs).catch((error: unknown) => {
    const source = settingSource("DATABASE_URL", fromEnvFile);
    process.stderr.write(`${explainOpenFailure(url, source, error)}\n`);
    process.exit(1);
  });
}

/** A server on a database without its migrations would answer 503s: say so once and stop instead. */
async function exitUnlessMigrated(db: Database, moduleUrl: string): Promise<void> {
  const pending = await pendingMigrations(db, migrationsPath(moduleUrl));
  if (pending.length === 0) return;
  const count = pending.length === 1 ? "1 migration" : `${pending.length} migrations`;
  process.stderr.write(
    `The database at DATABASE_URL lacks ${count} (${pending.join(", ")}): run \`npm run db:migrate\`, then start again.\n`,
  );
  await db.close();
  process.exit(1);
}

function serve<Config extends ServiceSettings>(
  config: Config,
  db: Database,
  parts: ServiceParts<Config>,
): void {
  const logger = createLogger(config.logLevel);
  // Not Express's app.listen: since Express 5 its callback also runs on a failed listen, which
  // logged "listening" right before "address already in use".
  const app = parts.createApp({ config, db, logger });
  const server = createApiServer(app);
  // Beside the requests: old events leave the outbox, new ones are delivered (lib/events/).
  const background = (app as { locals?: { background?: BackgroundWork } }).locals?.background;
  const retention = background
    ? keepEventsPruned(db, background.eventRetention, logger)
    : undefined;
  const dispatcher = background?.startDispatcher(logger);
  const cannotListen = (error: Error) => {
    process.stderr.write(`Cannot listen on ${config.host}:${config.port}: ${error.message}\n`);
    process.exit(1);
  };
  // The pid tells which worker of a supervisor listens (one that has not yet keeps no port open).
  const listening = (port: number) =>
    logger.info(
      { host: config.host, port, pid: process.pid },
      `listening on http://${config.host}:${port}`,
    );
  // Under `npm run dev` the runner holds the socket and hands connections over (dev-handoff.ts).
  const handoff = handedOff();
  if (handoff) listenThroughRunner(server, config.host, config.port).then(listening, cannotListen);
  else {
    server.on("error", cannotListen);
    server.listen(config.port, config.host, () => {
      const address = server.address();
      listening(typeof address === "object" && address ? address.port : config.port);
    });
  }

  // Graceful shutdown: stop accepting, let requests in flight finish (bounded), then close the database.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    retention?.stop();
    const delivering = dispatcher?.stop();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    const closed = async () => {
      // Attempts under way finish (each bounded by WEBHOOK_TIMEOUT_MS) before the database closes.
      await delivering;
      await db.close();
      process.exit(0);
    };
    if (handoff) return closeHandedOff(server, () => void closed());
    server.close(() => void closed());
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
