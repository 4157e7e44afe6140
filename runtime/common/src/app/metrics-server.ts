// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createServer, type Server } from "node:http";
import { register } from "prom-client";
import type { Logger } from "../base/logger.js";

/**
 * METRICS_PORT: GET /metrics on a port of its own (on HOST, like the API), which a network policy
 * can keep from the public. Any other path or method is a 404. `gather` is this process's figures,
 * or in a cluster every worker's (http/metrics.ts).
 */
export function listenForMetrics(
  host: string,
  port: number,
  gather: () => Promise<string>,
  logger: Logger,
): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found\n");
      return;
    }
    gather().then(
      (text) => {
        res.writeHead(200, { "Content-Type": register.contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: Error) => {
        logger.error({ err: error }, "metrics: could not gather the figures");
        res.writeHead(503, { "Content-Type": "text/plain" }).end("Metrics unavailable\n");
      },
    );
  });
  server.on("error", (error) => {
    logger.error({ err: error, port }, `metrics: cannot listen on ${host}:${port}`);
    process.exit(1);
  });
  server.listen(port, host, () =>
    logger.info({ host, port }, `metrics on http://${host}:${port}/metrics`),
  );
  return server;
}
