// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import cluster from "node:cluster";
import type { RequestListener, Server } from "node:http";
import { register } from "prom-client";
import { createApiServer } from "../http/client-errors.js";
import { RateLimiterClusterMaster } from "rate-limiter-flexible";
import { RequestLimits, type RequestLimitRules } from "../http/request-limits.js";
import {
  connectDatabase,
  explainOpenFailure,
  openReplica,
  requestLimitsShared,
  type Database,
} from "../db/database.js";
import { ReplicaSet, withReplicas } from "../db/replicas.js";
import { closeHandedOff, handedOff, listenThroughRunner } from "./dev-handoff.js";
import {
  type BackgroundThread,
  type BackgroundWork,
  isBackgroundThread,
  runBackgroundWork,
  startBackgroundThread,
} from "./background-thread.js";
import { startDraining } from "../base/draining.js";
import { awaitMigrations, gated, type GatedApp } from "../base/service-gate.js";
import type { ProductionSettings } from "./production-settings.js";
import { createLogger, type Logger } from "../base/logger.js";
import { startInstanceBeacon } from "./instance-beacon.js";
import { enableMetrics } from "../http/metrics.js";
import { clusterMetrics } from "../http/metrics-cluster.js";
import { listenForMetrics } from "./metrics-server.js";
import { migrationsPath, pendingMigrations } from "../db/migrations.js";
import { loadEnvironment, settingSource } from "../base/project-files.js";
import { supervise, workerCount } from "./supervisor.js";

/** What the service reads of the project's configuration (src/config.ts), production settings included. */
export interface ServiceSettings extends ProductionSettings {
  host: string;
  port: number;
  databaseUrl: string;
  /** Connections per process (PostgreSQL). */
  databasePoolSize: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: the longest a statement of a request may run (0: no limit). */
  databaseStatementTimeoutMs: number;
  logLevel: string;
  /** Request limits (http/request-limits.ts): counted by the supervisor for its workers on SQLite. */
  rateLimit: RequestLimitRules | undefined;
}

/** The project's own parts the service runs: its configuration and its app (src/server.ts). */
export interface ServiceParts<Config extends ServiceSettings> {
  loadConfig(environment: NodeJS.ProcessEnv, fromEnvFile: ReadonlySet<string>): Config;
  /** The error loadConfig throws for settings a user got wrong: its message, not a stack trace. */
  ConfigError: new (...args: never[]) => Error;
  /** The API, and what runs beside it (src/app.ts, on http/api-app.ts). */
  createApp(dependencies: { config: Config; db: Database; logger: Logger }): {
    readonly app: RequestListener;
    readonly background?: BackgroundWork;
  };
}

/**
 * `npm start` (and each server of `npm run dev`): reads `.env` and the configuration, checks the
 * database and its migrations once, then serves, as one process or as a supervisor of workers.
 */
export async function runService<Config extends ServiceSettings>(
  moduleUrl: string,
  parts: ServiceParts<Config>,
): Promise<void> {
  const fromEnvFile = loadEnvironment(moduleUrl);
  const config = configOrExit(parts, fromEnvFile);
  const logger = createLogger(config.logLevel);
  const open = (poolSize: number) =>
    openDatabase(config.databaseUrl, poolSize, config.databaseStatementTimeoutMs, fromEnvFile);
  // Decided first: a cluster worker's thread sees no cluster variables (the worker removed them
  // before starting it), and must never take itself for a supervisor and fork workers of its own.
  if (isBackgroundThread()) {
    // The serving thread checked the migrations; this one only works beside it, on its own pool.
    const db = await open(backgroundPoolSize(config.databasePoolSize));
    const { background } = parts.createApp({ config, db, logger });
    if (background) runBackgroundWork(background, db, logger);
    return;
  }
  // A worker whose supervisor died (even by SIGKILL) must not live on as an orphan holding the port.
  if (cluster.isWorker) process.on("disconnect", () => process.exit(1));
  // `npm run dev` runs one process per server: its runner is what restarts it.
  const workers = handedOff() ? 1 : workerCount();
  if (cluster.isPrimary && workers > 1) {
    // The supervisor checks once, so a missing migration is one line, not one per worker.
    const db = await open(1);
    await migratedOrWaiting(db, moduleUrl, logger);
    await sayConnections(db, workers, config.databasePoolSize, logger);
    await db.close();
    const metrics = config.metrics ? clusterMetrics() : undefined;
    if (metrics && config.metrics && "port" in config.metrics)
      listenForMetrics(config.host, config.metrics.port, metrics, logger).unref();
    // On SQLite the supervisor holds the request counts of its workers (http/request-limits.ts).
    if (RequestLimits.declared(config.rateLimit) && !requestLimitsShared)
      new RateLimiterClusterMaster();
    supervise(workers, logger, config.shutdownGraceMs);
    return;
  }
  const primary = await open(config.databasePoolSize);
  const db = withReadReplicas(primary, config, logger);
  // A worker's supervisor refused already where a person started it; in production it waits too.
  const awaited = await migratedOrWaiting(db, moduleUrl, cluster.isPrimary ? logger : undefined);
  if (cluster.isPrimary && !handedOff())
    await sayConnections(db, 1, config.databasePoolSize, logger);
  serve(moduleUrl, config, db, parts, logger, awaited);
}

/** The background thread's pool beside a serving pool of `poolSize` (PostgreSQL; SQLite has one connection). */
function backgroundPoolSize(poolSize: number): number {
  return Math.max(2, Math.ceil(poolSize / 2));
}

/** The primary, with DATABASE_REPLICA_URLS for the reads of GET requests when set (db/replicas.ts). */
function withReadReplicas(primary: Database, config: ServiceSettings, logger: Logger): Database {
  if (config.databaseReplicaUrls.length === 0) return primary;
  const replicas = new ReplicaSet(
    config.databaseReplicaUrls.map((url) => ({
      url,
      sql: openReplica(url, config.databasePoolSize, config.databaseStatementTimeoutMs),
    })),
    logger,
  );
  replicas.start();
  return withReplicas(primary, replicas);
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

/** How often a process waiting for its migrations looks whether they are applied. */
const migrationPollMs = 1000;

/**
 * The migrations the database lacks, which the process waits for. In production (NODE_ENV=production)
 * it starts anyway: a rolling deploy starts the new version before its migration job ends, and the
 * process serves its probes (live 200, ready 503 naming them) until they are applied. Anywhere else
 * a person typed the command: one line says what to run, and the process stops.
 */
async function migratedOrWaiting(
  db: Database,
  moduleUrl: string,
  logger: Logger | undefined,
): Promise<string[]> {
  const pending = await pendingMigrations(db, migrationsPath(moduleUrl));
  if (pending.length === 0) return [];
  const count = pending.length === 1 ? "1 migration" : `${pending.length} migrations`;
  if (process.env.NODE_ENV === "production" && !handedOff()) {
    logger?.warn(
      { pending },
      `the database lacks ${count} (${pending.join(", ")}): waiting for \`npm run db:migrate\`; /api/health/ready answers 503 until they are applied`,
    );
    return pending;
  }
  process.stderr.write(
    `The database at DATABASE_URL lacks ${count} (${pending.join(", ")}): run \`npm run db:migrate\`, then start again.\n`,
  );
  await db.close();
  process.exit(1);
}

/**
 * One start-up line comparing what the service may open (workers × DATABASE_POOL_SIZE) with what
 * the server accepts: a warning when it is more than the server's max_connections less the three
 * it keeps for superusers, since every instance past that fails to connect under load. Other
 * instances and tools share the same limit: the line says what this one takes.
 */
async function sayConnections(db: Database, workers: number, poolSize: number, logger: Logger) {
  if (!db.connectionLimit) return;
  const maxConnections = await db.connectionLimit().catch(() => undefined);
  if (maxConnections === undefined) return;
  const background = backgroundPoolSize(poolSize);
  const connections = workers * (poolSize + background);
  const facts = { workers, poolSize, backgroundPoolSize: background, connections, maxConnections };
  const said = `database connections: ${workers} worker${workers === 1 ? "" : "s"} × (DATABASE_POOL_SIZE ${poolSize} + ${background} for background work) = up to ${connections} of the server's max_connections ${maxConnections}`;
  if (connections > maxConnections - 3)
    logger.warn(
      facts,
      `${said}: more than the server accepts; lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or put a pooler in front`,
    );
  else logger.info(facts, said);
}

/** Looks every second until the migrations are applied; the gate then lets requests through. */
async function untilMigrated(db: Database, moduleUrl: string, logger: Logger): Promise<void> {
  for (;;) {
    await new Promise((done) => setTimeout(done, migrationPollMs).unref());
    const pending = await pendingMigrations(db, migrationsPath(moduleUrl)).catch(() => undefined);
    if (pending === undefined) continue;
    awaitMigrations(pending);
    if (pending.length === 0) break;
  }
  logger.info("the database holds every migration: ready");
}

function serve<Config extends ServiceSettings>(
  moduleUrl: string,
  config: Config,
  db: Database,
  parts: ServiceParts<Config>,
  logger: Logger,
  awaited: readonly string[],
): void {
  // Not Express's app.listen: since Express 5 its callback also runs on a failed listen, which
  // logged "listening" right before "address already in use".
  // Beside the requests: old events leave the outbox, new ones are delivered (events/), jobs run.
  const { app, background } = parts.createApp({ config, db, logger });
  if (config.metrics) enableMetrics(db, background?.watched ?? { receivers: [], jobs: false });
  // One process on its own serves METRICS_PORT itself; a supervisor serves it for its workers.
  const metricsServer =
    config.metrics && "port" in config.metrics && cluster.isPrimary
      ? listenForMetrics(config.host, config.metrics.port, () => register.metrics(), logger)
      : undefined;
  const stops = { stopping: false };
  const gate = gated(app);
  const server = createApiServer(gate.listener);
  awaitMigrations(awaited);
  // Background work reads and writes the new schema: it starts once the schema is there.
  let backgroundThread: ReturnType<typeof startBackgroundThread> | undefined;
  const startBackground = () => {
    if (background && !stops.stopping) backgroundThread = startBackgroundThread(moduleUrl, logger);
  };
  if (awaited.length === 0) startBackground();
  else void untilMigrated(db, moduleUrl, logger).then(startBackground);
  const handoff = listenForRequests(server, config, logger);
  // Says this build serves, for `npm run db:contract` (deploy: rolling).
  const beacon = startInstanceBeacon(db, migrationsPath(moduleUrl), logger);

  const stoppable = { server, gate, config, db, logger, handoff, metricsServer, stops, beacon };
  const stop = stopOnSignal(stoppable);
  for (const signal of ["SIGTERM", "SIGINT"])
    process.on(signal, () => stop(signal, backgroundThread));
}

interface Stoppable {
  server: Server;
  gate: GatedApp;
  config: ServiceSettings;
  db: Database;
  logger: Logger;
  /** Whether `npm run dev`'s runner holds the socket (dev-handoff.ts). */
  handoff: boolean;
  metricsServer: Server | undefined;
  stops: { stopping: boolean };
  beacon: { stop(): Promise<void> };
}

/**
 * Graceful shutdown (docs/api-contract.md §9): readiness answers 503, requests in flight are
 * answered on connections that then close (the port stays open meanwhile, refusing new work),
 * and the process exits 0 within SHUTDOWN_GRACE_MS. What is still running at the deadline is cut,
 * and the exit is 1.
 */
function stopOnSignal({
  server,
  gate,
  config,
  db,
  logger,
  handoff,
  metricsServer,
  stops,
  beacon,
}: Stoppable) {
  return (signal: string, backgroundThread: BackgroundThread | undefined) => {
    if (stops.stopping) return;
    stops.stopping = true;
    startDraining();
    logger.info({ signal, graceMs: config.shutdownGraceMs }, "shutting down");
    const delivering = backgroundThread?.stop(workerDeadlineMs(config.shutdownGraceMs));
    const force = setTimeout(() => {
      logger.warn({ graceMs: config.shutdownGraceMs }, "shutdown grace over: closing what is left");
      server.closeAllConnections();
      process.exit(1);
    }, workerDeadlineMs(config.shutdownGraceMs));
    force.unref();
    const closed = async () => {
      // Attempts under way finish (each bounded by WEBHOOK_TIMEOUT_MS) before the database closes.
      await delivering;
      await beacon.stop();
      await db.close();
      logger.info({ signal }, "stopped");
      process.exit(0);
    };
    if (handoff) return closeHandedOff(server, () => void closed());
    // A request still arriving on a kept-alive connection is answered, then that connection closes.
    server.prependListener("request", (_request, response) => {
      response.shouldKeepAlive = false;
    });
    metricsServer?.close();
    // The port stays open while requests are in flight (readiness answers 503 to a probe meanwhile,
    // new work is refused with 503) and closes when the last one is answered.
    let closing = false;
    const closeListener = () => {
      if (closing) return;
      closing = true;
      server.close(() => void closed());
      // A request that arrived before the signal keeps its connection alive: closed once idle.
      setInterval(() => server.closeIdleConnections(), 50).unref();
    };
    setTimeout(() => {
      gate.refuseNewWork();
      gate.onIdle(closeListener);
      if (gate.inFlight() === 0) closeListener();
    }, config.shutdownDelayMs).unref();
  };
}

/**
 * Listens on HOST:PORT, or under `npm run dev` through the runner, which holds the socket and hands
 * connections over (dev-handoff.ts): true then. A port that cannot be had ends the process.
 */
function listenForRequests(
  server: Server,
  config: { host: string; port: number },
  logger: Logger,
): boolean {
  // After the start-up's JSON log lines, so one of them (a log collector reads every line); what
  // goes wrong before any (settings, the database, its migrations) stays plain text for a person.
  const cannotListen = (error: Error) => {
    const { host, port } = config;
    logger.fatal({ host, port }, `Cannot listen on ${host}:${port}: ${error.message}`);
    process.exit(1);
  };
  // The pid tells which worker of a supervisor listens (one that has not yet keeps no port open).
  const listening = (port: number) =>
    logger.info(
      { host: config.host, port, pid: process.pid },
      `listening on http://${config.host}:${port}`,
    );
  if (handedOff()) {
    listenThroughRunner(server, config.host, config.port).then(listening, cannotListen);
    return true;
  }
  server.on("error", cannotListen);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    listening(typeof address === "object" && address ? address.port : config.port);
  });
  return false;
}

/**
 * When a worker stops waiting for its requests: a little before SHUTDOWN_GRACE_MS, so that it has
 * exited, and its supervisor with it, by then.
 */
export function workerDeadlineMs(graceMs: number): number {
  return Math.max(graceMs - Math.min(1000, Math.floor(graceMs / 5)), 1);
}
