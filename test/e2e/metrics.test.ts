import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "../support/hostile.js";
import { freePort, prepareProject, startService, type Project, type RunningService } from "../support/service.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * GET /metrics (docs/api-contract.md §9, issue 36) on a real service of two workers: on METRICS_PORT
 * the supervisor adds up its workers' figures; behind METRICS_TOKEN only its bearer reads them on
 * the API's port. Routes are labelled by template, so a scan of random paths adds one series, not
 * one per path. On PostgreSQL the pool's use, on both the outbox's lag, and the start-up line that
 * compares workers × pool with max_connections.
 */

const metricsToken = "a-metrics-token-of-32-characters";

/** The pids of a supervisor's workers (none while every one of them is being replaced). */
async function workerPids(supervisor: number): Promise<number[]> {
  const { execFile } = await import("node:child_process");
  const listed = await new Promise<string>((done) => execFile("ps", ["-o", "pid=", "--ppid", String(supervisor)], (_error, stdout) => done(stdout)));
  return listed.trim().split(/\s+/).filter(Boolean).map(Number);
}

/** `name{labels} value` lines of a Prometheus text, as a map from `name{labels}` to the value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const split = line.lastIndexOf(" ");
    found.set(line.slice(0, split), Number(line.slice(split + 1)));
  }
  return found;
}

describe.each(databaseTargets)("metrics on $label", ({ database }) => {
  let postgres: PostgresServer | undefined;
  let project: Project;
  let service: RunningService;
  let metricsPort: number;

  beforeAll(async () => {
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("metrics");
    }
    project = await prepareProject({ name: `e2e-metrics-${database}`, database, ...(postgres ? { databaseUrl: postgres.url("metrics") } : {}) });
    metricsPort = await freePort();
    service = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2", METRICS_PORT: String(metricsPort), LOG_LEVEL: "info" } });
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await postgres?.destroy();
    await project?.cleanup();
  });

  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return samples(await response.text());
  };

  it("counts every request by route template, method and status, across both workers, with durations", async () => {
    const before = await scrape();
    const key = 'http_requests_total{route="/api/patients/:hash",method="GET",status="401"}';
    // Fresh connections each: the cluster spreads them over both workers.
    for (let index = 0; index < 20; index += 1)
      await fetch(`${service.baseUrl}/api/patients/PAT_AAAAAAA${"ABCDEFGHJK"[index % 10]}`, { headers: { Connection: "close" } });
    const after = await scrape();
    expect((after.get(key) ?? 0) - (before.get(key) ?? 0)).toBe(20);
    const histogram = 'http_request_duration_seconds_count{route="/api/patients/:hash",method="GET",status="401"}';
    expect((after.get(histogram) ?? 0) - (before.get(histogram) ?? 0)).toBe(20);
    expect(after.has('http_request_duration_seconds_bucket{le="0.005",route="/api/patients/:hash",method="GET",status="401"}')).toBe(true);
  });

  it("labels paths no route serves as one `unmatched` series, whatever a scan sends", async () => {
    for (let index = 0; index < 30; index += 1) await fetch(`${service.baseUrl}/scan/${index}/${Math.random()}`);
    await fetch(`${service.baseUrl}/api/patients`, { method: "BREW" }).catch(() => undefined);
    const after = await scrape();
    const routes = new Set([...after.keys()].filter((key) => key.startsWith("http_requests_total")).map((key) => /route="([^"]*)"/.exec(key)?.[1]));
    expect([...routes].filter((route) => route?.startsWith("/scan"))).toEqual([]);
    expect(after.get('http_requests_total{route="unmatched",method="GET",status="404"}')).toBeGreaterThanOrEqual(30);
  });

  it("reports the outbox's lag, and on PostgreSQL the pool's use and the start-up line on connections", async () => {
    // A scrape adds up the workers that answer it in time (base/ipc.ts): on a busy machine one may
    // miss a scrape, never the next ones. Scraped until both workers' figures are in.
    const complete = (figures: Map<string, number>) =>
      figures.has('hashapi_outbox_lag_seconds{stage="fan_out"}') && (database !== "postgresql" || figures.get("db_pool_connections_size") === 20);
    let figures = await scrape();
    for (let tries = 0; tries < 40 && !complete(figures); tries += 1) {
      await new Promise((done) => setTimeout(done, 250));
      figures = await scrape();
    }
    expect(figures.get('hashapi_outbox_lag_seconds{stage="fan_out"}')).toBeGreaterThanOrEqual(0);
    expect(figures.get('hashapi_outbox_lag_seconds{stage="delivery"}')).toBeGreaterThanOrEqual(0);
    expect(figures.has("process_resident_memory_bytes")).toBe(true);
    if (database !== "postgresql") {
      expect(figures.has("db_pool_connections_size")).toBe(false);
      return;
    }
    // Two workers of DATABASE_POOL_SIZE 10 each, added up by the supervisor.
    expect(figures.get("db_pool_connections_size")).toBe(20);
    expect(figures.get("db_pool_connections_open")).toBeGreaterThanOrEqual(1);
    expect(service.output()).toMatch(/"workers":2,"poolSize":10,"backgroundPoolSize":5,"connections":30,"maxConnections":200,"msg":"database connections: 2 workers × \(DATABASE_POOL_SIZE 10 \+ 5 for background work\) = up to 30 of the server's max_connections 200"/);
  });

  it("keeps answering scrapes while workers die and others start (each scrape adds up the workers that answer)", async () => {
    // Scrapes run without a pause while workers are killed, so that some collection is under way
    // when one dies: a message to a worker that just died once ended the supervisor (base/ipc.ts).
    const failures: string[] = [];
    let scraped = 0;
    let killing = true;
    const scraper = async () => {
      while (killing) {
        const answer = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
          async (response) => `${response.status}${await response.text().then(() => "")}`,
          (error: Error) => String(error.cause ?? error),
        );
        scraped += 1;
        if (answer !== "200") failures.push(answer);
      }
    };
    const scrapers = [scraper(), scraper(), scraper(), scraper()];
    for (let kill = 0; kill < 12; kill += 1) {
      const workers = await workerPids(service.process.pid!);
      if (workers[0] !== undefined) process.kill(workers[0], "SIGKILL");
      await new Promise((done) => setTimeout(done, 300));
    }
    killing = false;
    await Promise.all(scrapers);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(scraped).toBeGreaterThan(12);
    expect(service.process.exitCode).toBe(null);
    // The supervisor replaced them: both workers serve again.
    await expect.poll(async () => (await workerPids(service.process.pid!)).length, { timeout: 20_000 }).toBe(2);
    expect((await fetch(`${service.baseUrl}/api/patients/PAT_AAAAAAAA`)).status).toBe(401);
  }, 60_000);

  it("behind METRICS_TOKEN: its bearer reads every worker's figures on the API's port, anyone else gets a 404", async () => {
    const guarded = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2", METRICS_TOKEN: metricsToken } });
    try {
      for (const headers of [{}, { Authorization: "Bearer not-the-token-at-all-000000" }, { Authorization: `Basic ${metricsToken}` }] as Record<string, string>[]) {
        const refused = await fetch(`${guarded.baseUrl}/metrics`, { headers });
        expect(refused.status).toBe(404);
        expect(await refused.json()).toEqual({ type: "error", status: 404, message: "Resource not found." });
      }
      const read = await fetch(`${guarded.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } });
      expect(read.status).toBe(200);
      const figures = samples(await read.text());
      // The refused scrapes themselves, counted by whichever worker took them, in one sum.
      expect(figures.get('http_requests_total{route="/metrics",method="GET",status="404"}')).toBe(3);
    } finally {
      await guarded.stop();
    }
  });

  it("refuses to start on a METRICS_TOKEN anyone could guess, or a METRICS_PORT that is no port", async () => {
    for (const [name, value, said] of [
      ["METRICS_TOKEN", "short", /METRICS_TOKEN must be at least 16 characters/],
      ["METRICS_PORT", "99999", /METRICS_PORT must be an integer from 1 to 65535, got "99999"/],
    ] as const) {
      const failure = await startService({ cwd: project.dir, env: { ...project.env, [name]: value } }).then(
        () => new Error("started"),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(said);
    }
  });
});
