// How each contender is started, on its own copy of the database and a free loopback port, with
// the same JWT settings, and one process each.
import { join } from "node:path";
import { freePort, startProcess, waitUntilAnswering } from "./processes.mjs";

export const jwtSettings = {
  // 48 bytes: above the 32-byte minimum the service enforces in production.
  secret: "bench-secret-0123456789-abcdefghijklmnopqrstuvwx",
  issuer: "clinic-api-bench",
  audience: "clinic-api-bench-clients",
};

const benchDir = new URL("..", import.meta.url).pathname;

function commonEnv(port) {
  return {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    JWT_SECRET: jwtSettings.secret,
    JWT_ISSUER: jwtSettings.issuer,
    JWT_AUDIENCE: jwtSettings.audience,
  };
}

const launchers = {
  service: ({ projectDir, databaseUrl }) => ({
    command: process.execPath,
    args: ["dist/server.js"],
    cwd: projectDir,
    env: { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1", LOG_LEVEL: "warn" },
  }),
  reference: ({ databasePath, databaseUrl }) => ({
    command: process.execPath,
    args: [join(benchDir, "servers/reference.mjs")],
    cwd: benchDir,
    env: databasePath === undefined ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: databasePath },
  }),
  "express-ceiling": ({ databasePath, databaseUrl }) => ({
    command: process.execPath,
    args: [join(benchDir, "servers/express-ceiling.mjs")],
    cwd: benchDir,
    env: databasePath === undefined ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: databasePath },
  }),
  // The same server with each write's event appended in its transaction: the ceiling a write with
  // an outbox can reach (bench/write-ceilings.mjs).
  "express-ceiling-events": ({ databasePath, databaseUrl }) => ({
    command: process.execPath,
    args: [join(benchDir, "servers/express-ceiling.mjs")],
    cwd: benchDir,
    env: { ...(databasePath === undefined ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: databasePath }), CEILING_EVENTS: "1" },
  }),
  peer: ({ projectDir, databaseUrl }) => ({
    command: process.execPath,
    args: [join(benchDir, "servers/peer.mjs")],
    cwd: benchDir,
    env: { PROJECT_DIR: projectDir, DATABASE_URL: databaseUrl },
  }),
};

export const serverNames = Object.keys(launchers);

/**
 * Starts one server and waits until its health route answers; nodeArgs go before the script.
 * databasePath: a SQLite file; or databaseUrl: a postgresql:// database.
 */
export async function startServer(name, { projectDir, databasePath, databaseUrl = `file:${databasePath}`, nodeArgs = [], env = {} }) {
  const port = await freePort();
  const launch = launchers[name]({ projectDir, databasePath, databaseUrl });
  const handle = startProcess({ name, ...launch, args: [...nodeArgs, ...launch.args], env: { ...launch.env, ...env, ...commonEnv(port) } });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(handle, `${baseUrl}/api/health`);
  return { name, handle, pid: handle.pid, baseUrl, databasePath };
}
