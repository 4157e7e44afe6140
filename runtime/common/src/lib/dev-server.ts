// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, watch } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultDatabaseUrl } from "./database.js";
import { migrateForDevelopment } from "./dev-migrations.js";
import { appliedMarkerPath, migrationsPath } from "./migrations.js";
import { projectPath, readSetting } from "./project-files.js";

/*
 * `npm run dev`: serves src/ through tsx and restarts the server when a file under src/ (or .env)
 * changes. A restart is what makes a change visible, but a cold start spends most of its second
 * loading Express, ajv, pino and the database driver; so the next server process is always started
 * ahead, with those loaded, and on a change it only imports the project's modules and listens.
 * A change to node_modules (npm install) needs `npm run dev` again.
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

interface Standby {
  process: ChildProcess;
  ready: Promise<void>;
}

function startStandby(): Standby {
  const child = fork(standbyEntry, [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const ready = new Promise<void>((resolve) => child.once("message", () => resolve()));
  return { process: child, ready };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

let standby = startStandby();
let active: ChildProcess | undefined;
let stopping = false;
let queue = Promise.resolve();

const serving = () =>
  active !== undefined && active.exitCode === null && active.signalCode === null;

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

/** Stops the running server (its graceful shutdown), then hands the port to the standby. */
async function restart(reason: string | undefined): Promise<void> {
  if (reason) process.stdout.write(`\n↻ ${reason} changed: restarting\n`);
  if (!(await schemaReady())) return;
  if (active) {
    active.kill("SIGTERM");
    await exited(active);
  }
  if (stopping) return;
  const next = standby;
  await next.ready;
  next.process.send(serverEntry);
  active = next.process;
  active.once("exit", (code, signal) => {
    if (active === next.process && !stopping && code !== 0 && signal === null)
      process.stdout.write(
        `The server stopped (exit ${code}); waiting for a change to start it again.\n`,
      );
  });
  standby = startStandby();
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
  if (file === ".env") onChange(file);
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
    standby.process.kill("SIGTERM");
    active?.kill(signal);
    void Promise.all([exited(standby.process), active ? exited(active) : undefined]).then(() =>
      process.exit(0),
    );
  });
}

queue = queue.then(() => restart(undefined));
