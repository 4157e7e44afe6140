// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import cluster from "node:cluster";
import { answerSupervisor, askSupervisor } from "./metrics-cluster.js";
import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from "prom-client";
import { outboxLag } from "../events/lag.js";
import { jobLagSeconds } from "../jobs/queue.js";
import { workCounts } from "../base/work-counts.js";
import type { Sql } from "../db/sql.js";

/*
 * GET /metrics in Prometheus's text format (docs/api-contract.md §9): requests per route template,
 * method and status (a count and a duration histogram), the database pool's use and the event
 * outbox's lag. Labels come from a closed set (the route table's templates, five methods, status
 * codes), so a hostile client sending random paths cannot grow the series without bound.
 */

const methods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The counts are kept here as plain numbers and handed to prom-client when it is scraped: its own
 * `inc` hashes the label set on every call, which was most of what measuring cost per request.
 */
const counted = new Map<string, { labels: Record<string, string>; count: number }>();
new Counter({
  name: "http_requests_total",
  help: "Requests answered, by route template, method and status.",
  labelNames: ["route", "method", "status"] as const,
  collect() {
    this.reset();
    for (const { labels, count } of counted.values()) this.inc(labels, count);
  },
});

const durations = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its response, by route template, method and status.",
  labelNames: ["route", "method", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

/** What a request's line of metrics is labelled by; `route` is its template, or "unmatched". */
export function observeRequest(
  route: string,
  method: string,
  status: number,
  seconds: number,
): void {
  // Every part of the key comes from a closed set (a hostile method is OTHER): the map stays small.
  const known = methods.has(method) ? method : "OTHER";
  const key = `${route} ${known} ${status}`;
  let series = counted.get(key);
  if (!series) {
    series = { labels: { route, method: known, status: String(status) }, count: 0 };
    counted.set(key, series);
  }
  series.count += 1;
  durations.observe(series.labels, seconds);
}

new Counter({
  name: "hashapi_background_work_total",
  help: "Deliveries (kind=delivery, by receiver: a webhook, or a handler `on <pattern>`) and job runs (kind=job, by job) this process finished, by outcome.",
  labelNames: ["kind", "name", "outcome"] as const,
  collect() {
    this.reset();
    for (const { kind, name, outcome, count } of workCounts())
      this.inc({ kind, name, outcome }, count);
  },
});

/** What the background work of the service is: its receivers' names (webhooks and handlers), and whether it has jobs. */
export interface WatchedWork {
  readonly receivers: readonly string[];
  readonly jobs: boolean;
}

/**
 * Turns the metrics on in this process (only when METRICS_PORT or METRICS_TOKEN is set: otherwise
 * nothing is measured). A worker also answers its supervisor's questions for its figures.
 */
export function enableMetrics(db: Sql, work: WatchedWork = { receivers: [], jobs: false }): void {
  collectDefaultMetrics();
  watchDatabase(db, work);
  if (cluster.isWorker) answerSupervisor();
}

/**
 * The gauges read at scrape time from this process's database: its pool (PostgreSQL) and the
 * outbox's lag (one index lookup each). In a cluster every worker reports its own pool; the lag is
 * the same table seen by each, so the supervisor's sum would count it once per worker: it is
 * reported with `aggregator: "max"`.
 */
function watchDatabase(db: Sql, work: WatchedWork): void {
  const pool = db.poolUse;
  if (pool) {
    for (const [state, help] of [
      ["size", "Connections the pool may open (DATABASE_POOL_SIZE)."],
      ["open", "Connections the pool holds open."],
      ["idle", "Open connections no query uses."],
      ["waiting", "Queries waiting for a connection."],
    ] as const)
      new Gauge({
        name: `db_pool_connections_${state}`,
        help,
        collect() {
          this.set(pool.call(db)[state]);
        },
      });
  }
  const lag = new Gauge({
    name: "hashapi_outbox_lag_seconds",
    help: "How far the event outbox is behind: the oldest event not fanned out (stage=fan_out), the most overdue delivery (stage=delivery).",
    labelNames: ["stage"] as const,
    aggregator: "max",
    async collect() {
      try {
        const { fanOutSeconds, deliverySeconds } = await outboxLag(db, work.receivers);
        lag.set({ stage: "fan_out" }, fanOutSeconds);
        lag.set({ stage: "delivery" }, deliverySeconds);
      } catch {
        // The database away: the series keep their last values; readiness says the rest.
      }
    },
  });
  if (!work.jobs) return;
  const jobLag = new Gauge({
    name: "hashapi_jobs_lag_seconds",
    help: "How long the most overdue job has waited to run (0: none is due).",
    aggregator: "max",
    async collect() {
      try {
        jobLag.set(await jobLagSeconds(db));
      } catch {
        // As above.
      }
    },
  });
}

/** The text of GET /metrics: this process's, or in a cluster every worker's, added up. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  const text = cluster.isWorker ? await askSupervisor() : await register.metrics();
  return { contentType: register.contentType, text };
}
