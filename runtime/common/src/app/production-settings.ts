// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { databaseDialect, databaseUrlProblem } from "../db/database.js";
import { settingSource } from "../base/project-files.js";

/** How the service runs in production (docs/api-contract.md §9), read from the environment. */
export interface ProductionSettings {
  /** SHUTDOWN_GRACE_MS: a SIGTERM or SIGINT has the process gone within this (default 10 s). */
  shutdownGraceMs: number;
  /**
   * SHUTDOWN_DELAY_MS: after the signal, how long the process still serves every request while
   * readiness answers 503, for a load balancer to notice before new work is refused (default 0).
   */
  shutdownDelayMs: number;
  /**
   * GET /metrics: on its own port (METRICS_PORT, never behind the API's port), else on the API's
   * port for a bearer METRICS_TOKEN; neither set: no metrics route at all.
   */
  metrics: { port: number } | { token: string } | undefined;
  /** DATABASE_REPLICA_URLS: PostgreSQL streaming replicas a GET's reads may go to (db/replicas.ts). */
  databaseReplicaUrls: string[];
}

/** The shortest METRICS_TOKEN: a guessable token would hand anyone the service's traffic figures. */
export const shortestMetricsToken = 16;

/** Reads the production settings; each problem is added to `problems` (the configuration error). */
export function readProductionSettings(
  environment: NodeJS.ProcessEnv,
  problems: string[],
  fromEnvFile: ReadonlySet<string> = new Set(),
): ProductionSettings {
  const direct = environment.DIRECT_DATABASE_URL || undefined;
  const directProblem =
    direct &&
    databaseUrlProblem(direct, settingSource("DIRECT_DATABASE_URL", fromEnvFile, environment));
  if (directProblem) problems.push(directProblem.replace(/^DATABASE_URL/, "DIRECT_DATABASE_URL"));
  const replicaSource = settingSource("DATABASE_REPLICA_URLS", fromEnvFile, environment);
  const databaseReplicaUrls = (environment.DATABASE_REPLICA_URLS ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url !== "");
  for (const url of databaseReplicaUrls) {
    const problem = databaseUrlProblem(url, replicaSource);
    if (problem) problems.push(problem.replace(/^DATABASE_URL/, "DATABASE_REPLICA_URLS"));
  }
  if (databaseReplicaUrls.length > 0 && databaseDialect.embedded)
    problems.push(
      `DATABASE_REPLICA_URLS: read replicas are a database server's; this project's database is ${databaseDialect.url.label}, a file of this machine. Unset it.`,
    );
  const shutdownGraceMs = Number(environment.SHUTDOWN_GRACE_MS || 10_000);
  if (!Number.isInteger(shutdownGraceMs) || shutdownGraceMs < 100 || shutdownGraceMs > 600_000)
    problems.push(
      `SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 100 to 600000, got "${environment.SHUTDOWN_GRACE_MS}"`,
    );
  const shutdownDelayMs = Number(environment.SHUTDOWN_DELAY_MS || 0);
  if (
    !Number.isInteger(shutdownDelayMs) ||
    shutdownDelayMs < 0 ||
    shutdownDelayMs >= shutdownGraceMs
  )
    problems.push(
      `SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to less than SHUTDOWN_GRACE_MS (${shutdownGraceMs}), got "${environment.SHUTDOWN_DELAY_MS}"`,
    );
  return {
    shutdownGraceMs,
    shutdownDelayMs,
    metrics: readMetrics(environment, problems),
    databaseReplicaUrls,
  };
}

function readMetrics(
  environment: NodeJS.ProcessEnv,
  problems: string[],
): ProductionSettings["metrics"] {
  const port = environment.METRICS_PORT || undefined;
  const token = environment.METRICS_TOKEN || undefined;
  if (port !== undefined) {
    const number = Number(port);
    if (Number.isInteger(number) && number >= 1 && number <= 65535) return { port: number };
    problems.push(`METRICS_PORT must be an integer from 1 to 65535, got "${port}"`);
    return undefined;
  }
  if (token === undefined) return undefined;
  if (token.length >= shortestMetricsToken) return { token };
  problems.push(
    `METRICS_TOKEN must be at least ${shortestMetricsToken} characters (e.g. \`openssl rand -hex 24\`)`,
  );
  return undefined;
}
