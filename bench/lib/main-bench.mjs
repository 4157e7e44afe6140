// The main comparison: the three servers side by side on copies of one seeded database, verified
// first, then loaded endpoint by endpoint, interleaved (service, reference, peer) in every round.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { forgedTokens, validToken } from "./forged-tokens.mjs";
import { login } from "./http-client.mjs";
import { measureLoginTiming } from "./login-timing.mjs";
import { measure } from "./load.mjs";
import { removeDatabase } from "./prepare-project.mjs";
import { stopProcess } from "./processes.mjs";
import { endpoint, endpointLabels as labels, uniqueCpf } from "./scenarios.mjs";
import { admin, markRevoked, resetWrites } from "./seed.mjs";
import { jwtSettings, serverNames, startServer } from "./servers.mjs";
import { ratio, summarise } from "./stats.mjs";
import { verifyServers } from "./verify.mjs";

/** How a server's SQLite database marks a token revoked and drops what the verification wrote. */
const sqliteStore = {
  markRevoked: (server, jti) => markRevoked(server.databasePath, jti),
  resetWrites: (server, seeded) => resetWrites(server.databasePath, seeded),
};

/** Every server answers the verification cases alike (verify.mjs); store: the databases' side (SQLite unless given). */
export async function verifyAlike(servers, seeded, store = sqliteStore) {
  const revoked = validToken(jwtSettings, seeded.userHash);
  for (const server of servers) await store.markRevoked(server, revoked.jti);
  const result = await verifyServers(servers, {
    admin,
    forged: forgedTokens(jwtSettings, seeded.userHash),
    revoked: revoked.token,
    seededHash: seeded.firstHash,
    seededCpf: seeded.firstCpf,
    otherCpf: seeded.secondCpf,
    lastPage: Math.ceil(seeded.liveCount / 15),
    nextCpf: uniqueCpf,
  });
  // What verification wrote must not change what the load sees.
  for (const server of servers) await store.resetWrites(server, seeded);
  return result;
}

function summariseEndpoint(id, rounds) {
  const servers = Object.fromEntries(Object.entries(rounds).map(([name, runs]) => [name, summarise(runs)]));
  const versus = (other) => ({
    requestsPerSecond: ratio(servers.service.requestsPerSecond, servers[other].requestsPerSecond),
    p50Ms: ratio(servers.service.p50Ms, servers[other].p50Ms),
    p99Ms: ratio(servers.service.p99Ms, servers[other].p99Ms),
  });
  return { id, label: labels[id], servers, ratios: { serviceToReference: versus("reference"), serviceToCeiling: versus("express-ceiling"), serviceToPeer: versus("peer") }, rounds };
}

export async function runMainBench({ options, projectDir, scratch, seededPath, seeded, log }) {
  const servers = [];
  try {
    for (const name of serverNames) {
      const databasePath = join(scratch, `main-${name}.db`);
      await removeDatabase(databasePath);
      copyFileSync(seededPath, databasePath);
      servers.push(await startServer(name, { projectDir, databasePath }));
    }
    for (const server of servers) server.token = await login(server.baseUrl, admin);
    log("verifying that the servers answer alike");
    const verification = await verifyAlike(servers, seeded);
    log(`  ${verification.cases} cases agree`);
    const service = servers.find((server) => server.name === "service");
    log("timing the service's login: a known e-mail against unknown ones, one at a time");
    const loginTiming = await measureLoginTiming(service.baseUrl, admin);

    const rounds = Object.fromEntries(options.endpoints.map((id) => [id, Object.fromEntries(servers.map((server) => [server.name, []]))]));
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const id of options.endpoints) {
        for (const server of servers) {
          log(`round ${round}/${options.rounds}  ${labels[id].padEnd(24)} ${server.name}`);
          const figures = await measure({
            baseUrl: server.baseUrl,
            pid: server.pid,
            endpoint: endpoint(id, { seeded, token: server.token }),
            connections: options.connections,
            warmupSeconds: options.warmup,
            seconds: options.duration,
          });
          rounds[id][server.name].push(figures);
          if (figures.errors > 0) log(`  ! ${figures.errors} errors: ${JSON.stringify(figures.statusCounts)}`);
          for (const incident of figures.unansweredRequests) log(`  ! no answer within ${incident.waitedSeconds} s to ${incident.request} after the ${incident.after}; sent again. Socket: ${incident.socket}`);
          if (id === "create") resetWrites(server.databasePath, seeded);
        }
      }
    }
    return { verification, loginTiming, endpoints: options.endpoints.map((id) => summariseEndpoint(id, rounds[id])) };
  } finally {
    for (const server of servers) await stopProcess(server.handle);
  }
}
