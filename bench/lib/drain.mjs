// Waiting until a server has finished the backlog of a load run. autocannon drops its connections
// when time is up, but the server still finishes what it had accepted (a backlog of scrypt logins
// lasts seconds). One more request of the same kind queues behind that backlog: once it is
// answered, the server is idle, and the next run, on this server or another, does not pay for this
// one's leftovers.
//
// A request that gets no answer must not stall the benchmark: each attempt is bounded, the state of
// its socket is recorded (ss: bytes sent and received on both ends), the request is sent again on
// a new connection, and such incidents are reported with the figures. (The one such hang seen so
// far was ours: a shared headers object into which autocannon had written another body's
// Content-Length; see scenarios.mjs.)
import { execFileSync } from "node:child_process";
import { request as httpRequest } from "node:http";

function socketState(localPort) {
  try {
    return execFileSync("ss", ["-tanpi", `( sport = :${localPort} or dport = :${localPort} )`], { encoding: "utf8", timeout: 5000 }).trim();
  } catch (error) {
    return `ss failed: ${error.message}`;
  }
}

function attempt(baseUrl, { method, path, headers, body }, timeoutMs) {
  return new Promise((resolve, reject) => {
    let localPort;
    const request = httpRequest(`${baseUrl}${path}`, { method, headers, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve({ answered: true, status: response.statusCode }));
    });
    request.on("socket", (socket) => socket.on("connect", () => (localPort = socket.localPort)));
    const timer = setTimeout(() => {
      const state = localPort === undefined ? "(not connected)" : socketState(localPort);
      request.destroy();
      resolve({ answered: false, localPort, state });
    }, timeoutMs);
    request.on("close", () => clearTimeout(timer));
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}

/** Seconds until the server answered, and the attempts that got no answer. */
export async function drain(baseUrl, endpoint, { attemptMs = 60_000, attempts = 3 } = {}) {
  const started = performance.now();
  const incidents = [];
  for (let index = 0; index < attempts; index += 1) {
    const request = endpoint.next();
    const outcome = await attempt(baseUrl, request, attemptMs);
    if (outcome.answered) return { seconds: (performance.now() - started) / 1000, incidents };
    incidents.push({ request: `${request.method} ${request.path}`, waitedSeconds: attemptMs / 1000, localPort: outcome.localPort, socket: outcome.state });
  }
  throw new Error(`${baseUrl} answered none of ${attempts} requests after a load run:\n${JSON.stringify(incidents, null, 2)}`);
}
