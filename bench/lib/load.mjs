// One measured load run with autocannon: a warm-up whose figures are dropped, then the run, with
// the server's memory sampled throughout.
import autocannon from "autocannon";
import { drain } from "./drain.mjs";
import { sampleRss } from "./rss.mjs";

function fire({ baseUrl, endpoint, connections, seconds }) {
  return autocannon({
    url: baseUrl,
    // An endpoint may bound its connections (login: what the service's password gate admits).
    connections: Math.min(connections, endpoint.maxConnections ?? connections),
    duration: seconds,
    // Logins wait behind one scrypt each (≈ a few hundred ms, 4 at a time): give them room.
    timeout: 60,
    requests: [
      {
        // `context` is the connection's own (autocannon): a login keeps its account there.
        setupRequest: (request, context) => {
          const next = endpoint.next(context);
          // autocannon adds Content-Length to these headers: keep them this request's own.
          return { ...request, ...next, headers: { ...next.headers } };
        },
      },
    ],
  });
}

export async function measure({ baseUrl, pid, endpoint, connections, warmupSeconds, seconds }) {
  let warmupDrain = { seconds: 0, incidents: [] };
  let warmupNon2xx = 0;
  if (warmupSeconds > 0) {
    const warmup = await fire({ baseUrl, endpoint, connections, seconds: warmupSeconds });
    warmupNon2xx = warmup.non2xx + warmup.errors;
    warmupDrain = await drain(baseUrl, endpoint);
  }
  const memory = sampleRss(pid);
  const result = await fire({ baseUrl, endpoint, connections, seconds });
  const rssBytes = memory.stop();
  const runDrain = await drain(baseUrl, endpoint);
  const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, Number(count)]));
  return {
    // Completed requests over the elapsed time: exact also for a handful of slow logins, where
    // autocannon's per-second average rounds each second down to whole requests.
    requestsPerSecond: result.requests.total / result.duration,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    errors: result.non2xx + result.errors,
    // Not in the figures, but a failing warm-up must not go unseen either.
    warmupErrors: warmupNon2xx,
    statusCounts,
    rssMiB: rssBytes / 1024 / 1024,
    seconds: result.duration,
    // How long the server needed to finish the backlog it had accepted (see drain.mjs).
    warmupDrainSeconds: warmupDrain.seconds,
    drainSeconds: runDrain.seconds,
    unansweredRequests: [...warmupDrain.incidents.map((incident) => ({ after: "warm-up", ...incident })), ...runDrain.incidents.map((incident) => ({ after: "run", ...incident }))],
  };
}
