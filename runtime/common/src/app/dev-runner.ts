// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fork, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, watch } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultDatabaseUrl } from "../db/database.js";
import {
  connectionMessage,
  drainingMessage,
  handoffVariable,
  isListenRequest,
  type ListenAnswer,
  type ListenRequest,
} from "./dev-handoff.js";
import { migrateForDevelopment } from "./dev-migrations.js";
import { sendIfConnected } from "../base/ipc.js";
import { appliedMarkerPath, migrationsPath } from "../db/migrations.js";
import { projectPath, readSetting } from "../base/project-files.js";

/*
 * `npm run dev` (started by dev-server.ts): serves src/ through tsx and restarts the server when a
 * file under src/ (or .env) changes. A restart is what makes a change visible, but a cold start spends most of its second
 * loading Express, ajv, pino and the database driver; so the next server process is always started
 * ahead, with those loaded, and on a change it only imports the project's modules. This process
 * holds the listening socket and hands connections to the server that serves (dev-handoff.ts), so
 * the previous server serves until the next one is ready: a request is never refused by a restart.
 * What this process itself loaded cannot change under it: when the project's database changes
 * (src/db/driver.ts, rewritten by `hashapi generate` after `database:` changed in hashapi.yaml) or
 * its dependencies do (package.json, `npm install`), it stops the server, says why, and exits for
 * dev-server.ts to start a fresh one, which reads everything anew.
 *
 * It also follows the schema (outside production): before each start it applies the pending
 * migrations (a new one from `hashapi generate` or `--watch` triggers a start), and a
 * `npm run db:migrate` run by hand is followed by a restart. A migration that fails or is refused
 * is printed and the server that runs goes on serving the schema it had.
 */

const projectDir = projectPath(import.meta.url, ".");
const serverEntry = join(projectDir, "src/server.ts");
const standbyEntry = fileURLToPath(new URL("./dev-standby.ts", import.meta.url));
const migrationsDir = migrationsPath(import.meta.url);
const followsMigrations = readSetting(import.meta.url, "NODE_ENV").value !== "production";
// Saving in an editor is often several writes in a row: one restart for them all.
const settleMs = 60;
/** The exit that asks dev-server.ts for a fresh runner (see freshStartNeeded). */
const freshStartCode = 75;

/** What this process loaded that a restart of the server cannot renew, as found on disk now. */
const loadedFiles = {
  "src/db/driver.ts": "the project's database (src/db/driver.ts)",
  "package.json": "the dependencies (package.json)",
  "node_modules/.package-lock.json": "the installed packages (npm install)",
} as const;
const fingerprint = (file: string) => {
  const path = join(projectDir, file);
  return existsSync(path) ? createHash("sha256").update(readFileSync(path)).digest("hex") : "";
};
const fingerprints = new Map(Object.keys(loadedFiles).map((file) => [file, fingerprint(file)]));

/** What changed of what this process loaded, if anything: it then needs a fresh start. */
function freshStartNeeded(): string | undefined {
  for (const [file, what] of Object.entries(loadedFiles))
    if (fingerprint(file) !== fingerprints.get(file)) return what;
  return undefined;
}

interface Standby {
  process: ChildProcess;
  ready: Promise<void>;
}

function startStandby(): Standby {
  const child = fork(standbyEntry, [], {
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
    env: { ...process.env, [handoffVariable]: "1" },
  });
  const ready = new Promise<void>((resolve) => child.once("message", () => resolve()));
  return { process: child, ready };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

let standby = startStandby();
/** The server process new connections go to; undefined while none serves. */
let active: ChildProcess | undefined;
let stopping = false;
let queue = Promise.resolve();

const serving = () =>
  active !== undefined && active.exitCode === null && active.signalCode === null;

/*
 * The listening socket, held here across restarts (dev-handoff.ts). Connections accepted while a
 * server starts and none serves wait for it; with no server and none starting they are closed.
 */
let listener: { server: Server; address: string; port: number } | undefined;
let starting = false;
let waiting: Socket[] = [];

function handOver(socket: Socket): void {
  if (serving() && active!.connected) {
    active!.send(connectionMessage, socket, (error) => {
      if (error) socket.destroy();
    });
  } else if (starting) waiting.push(socket);
  else socket.destroy();
}

function releaseWaiting(): void {
  const sockets = waiting;
  waiting = [];
  for (const socket of sockets) handOver(socket);
}

/** Listens where a server process's configuration says (again only when that changed); the port. */
async function listenFor(request: ListenRequest): Promise<number> {
  const address = `${request.host}:${request.port}`;
  if (listener?.address === address) return listener.port;
  const server = createServer({ pauseOnConnect: true }, handOver);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(request.port, request.host, () => resolve());
  });
  // The old address closes only once the new one listens: a refused new one changes nothing.
  listener?.server.close();
  const bound = server.address();
  const port = typeof bound === "object" && bound !== null ? bound.port : request.port;
  listener = { server, address, port };
  return port;
}

/**
 * Resolves with the port once the started server process asked to listen and the runner does (the
 * process waits for the answer: see restart), or undefined when it exited first.
 */
function readyToServe(child: ChildProcess): Promise<number | undefined> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve(undefined));
    child.on("message", (message: unknown) => {
      if (!isListenRequest(message)) return;
      listenFor(message).then(resolve, (error: Error) => {
        const answer: ListenAnswer = { type: "hashapi:listen-failed", message: error.message };
        sendIfConnected(child, answer);
      });
    });
  });
}

/** Stops a server process: once it takes no more requests on its kept connections, or it exited. */
function draining(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2_000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    child.once("exit", done);
    child.on("message", (message: unknown) => {
      if (message === drainingMessage) done();
    });
    child.kill("SIGTERM");
  });
}

/** Applies what is pending; false when a migration was refused while a server still serves the old schema. */
async function schemaReady(): Promise<boolean> {
  if (!followsMigrations) return true;
  const { value, source } = readSetting(import.meta.url, "DATABASE_URL");
  const outcome = await migrateForDevelopment(value ?? defaultDatabaseUrl, source, migrationsDir);
  if (outcome !== "refused" || !serving()) return true;
  process.stdout.write(
    "The server goes on with the schema it had. Fix the cause and save again, or run `npm run db:migrate` once it is fixed.\n",
  );
  return false;
}

/**
 * Starts the next server from the standby while the previous one serves; once it serves, new
 * connections go to it and the previous one finishes its requests and stops. A server that does
 * not start leaves the previous one serving.
 */
async function restart(reason: string | undefined): Promise<void> {
  const renewed = freshStartNeeded();
  if (renewed) return startAfresh(renewed);
  if (reason) process.stdout.write(`\n↻ ${reason} changed: restarting\n`);
  if (!(await schemaReady()) || stopping) return;
  const next = standby;
  await next.ready;
  starting = true;
  const started = readyToServe(next.process);
  sendIfConnected(next.process, serverEntry);
  const port = await started;
  starting = false;
  standby = startStandby();
  if (port === undefined) {
    const code = next.process.exitCode;
    process.stdout.write(
      serving()
        ? `The new server did not start (exit ${code}); the one before goes on serving. Fix the cause and save again.\n`
        : `The server stopped (exit ${code}); waiting for a change to start it again.\n`,
    );
    releaseWaiting();
    return;
  }
  // New connections go to the new server at once; the previous one finishes what it has. Only then
  // does the new one say it listens: after that line, no request is answered by the old code.
  const previous = active;
  active = next.process;
  releaseWaiting();
  if (previous) await draining(previous);
  const answer: ListenAnswer = { type: "hashapi:listening", port };
  sendIfConnected(active, answer);
  active.once("exit", (code, signal) => {
    if (active === next.process && !stopping && code !== 0 && signal === null)
      process.stdout.write(
        `The server stopped (exit ${code}); waiting for a change to start it again.\n`,
      );
  });
}

/**
 * Stops serving (never the old database's data under the new code's name), then exits for
 * dev-server.ts to start this runner afresh.
 */
async function startAfresh(what: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write(
    `\n↻ ${what} changed: the server stops and \`npm run dev\` starts afresh, reading it anew\n`,
  );
  listener?.server.close();
  for (const socket of waiting) socket.destroy();
  standby.process.kill("SIGTERM");
  if (active) await draining(active);
  await Promise.all([exited(standby.process), active ? exited(active) : undefined]);
  process.exit(freshStartCode);
}

let pending: NodeJS.Timeout | undefined;
let changed: string | undefined;
function onChange(path: string): void {
  changed = path;
  clearTimeout(pending);
  pending = setTimeout(() => {
    queue = queue.then(() => restart(changed));
  }, settleMs);
}

watch(join(projectDir, "src"), { recursive: true }, (_event, file) => {
  if (file) onChange(join("src", file));
});
watch(projectDir, (_event, file) => {
  if (file === ".env" || file === "package.json") onChange(file);
});
if (existsSync(join(projectDir, "node_modules")))
  watch(join(projectDir, "node_modules"), (_event, file) => {
    if (file === ".package-lock.json") onChange("node_modules");
  });
if (followsMigrations) {
  const marker = appliedMarkerPath(migrationsDir);
  for (const dir of [migrationsDir, dirname(marker)]) mkdirSync(dir, { recursive: true });
  watch(migrationsDir, { recursive: true }, (_event, file) => {
    if (file?.endsWith("migration.sql")) onChange(join("prisma/migrations", file));
  });
  watch(dirname(marker), (_event, file) => {
    if (file === "migrations-applied") onChange("the database (npm run db:migrate)");
  });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopping = true;
    listener?.server.close();
    standby.process.kill("SIGTERM");
    active?.kill(signal);
    void Promise.all([exited(standby.process), active ? exited(active) : undefined]).then(() =>
      process.exit(0),
    );
  });
}

queue = queue.then(() => restart(undefined));
