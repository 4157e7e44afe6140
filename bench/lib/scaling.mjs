// How show and list hold up as the table grows: the service and the reference at each size, plus
// the database's own cost of the list (COUNT, page queries) and the query plans that prove the
// lookups use their indexes.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { login } from "./http-client.mjs";
import { measure } from "./load.mjs";
import { stopProcess } from "./processes.mjs";
import { queryCosts } from "./query-costs.mjs";
import { removeDatabase } from "./prepare-project.mjs";
import { endpoint } from "./scenarios.mjs";
import { admin, seedDatabase } from "./seed.mjs";
import { startServer } from "./servers.mjs";
import { captureServiceSql } from "./service-sql.mjs";
import { ratio } from "./stats.mjs";

export const scalingServers = ["service", "reference"];
export const scalingEndpoints = ["show", "list"];

/** The service's show, page and count statements, captured on a scratch copy of a seeded database. */
async function serviceStatements(seededPath, seeded, { projectDir, scratch, log }) {
  log("  capturing the SQL the service runs for show and list");
  const capturePath = join(scratch, "capture.db");
  await removeDatabase(capturePath);
  copyFileSync(seededPath, capturePath);
  return captureServiceSql({ projectDir, databasePath: capturePath, scratch, seeded });
}

async function measureSize({ rows, seededPath, seeded, statements }, { projectDir, scratch, seconds, warmupSeconds, connections, log }) {
  const costs = queryCosts(seededPath, seeded, statements);
  const servers = [];
  try {
    for (const name of scalingServers) {
      const databasePath = join(scratch, `scale-${rows}-${name}.db`);
      await removeDatabase(databasePath);
      copyFileSync(seededPath, databasePath);
      const server = await startServer(name, { projectDir, databasePath });
      servers.push(server);
      server.token = await login(server.baseUrl, admin);
    }
    const figures = {};
    for (const id of scalingEndpoints) {
      figures[id] = {};
      for (const server of servers) {
        log(`  ${rows} rows  ${id.padEnd(6)} ${server.name}`);
        figures[id][server.name] = await measure({ baseUrl: server.baseUrl, pid: server.pid, endpoint: endpoint(id, { seeded, token: server.token }), connections, warmupSeconds, seconds });
        for (const incident of figures[id][server.name].unansweredRequests) log(`  ! no answer within ${incident.waitedSeconds} s to ${incident.request} after the ${incident.after}; sent again. Socket: ${incident.socket}`);
      }
      figures[id].serviceToReference = ratio(figures[id].service.requestsPerSecond, figures[id].reference.requestsPerSecond);
    }
    return { rows, liveRows: seeded.liveCount, endpoints: figures, database: costs };
  } finally {
    for (const server of servers) await stopProcess(server.handle);
  }
}

/** Figures per size, and the service statements they were measured with. */
export async function runScaling(sizes, context) {
  let statements;
  const results = [];
  for (const rows of sizes) {
    const seededPath = join(context.scratch, `scale-${rows}.db`);
    const seeded = await seedDatabase(context.templatePath, seededPath, rows);
    statements ??= await serviceStatements(seededPath, seeded, context);
    results.push(await measureSize({ rows, seededPath, seeded, statements }, context));
  }
  return { sizes: results, serviceSql: statements };
}
