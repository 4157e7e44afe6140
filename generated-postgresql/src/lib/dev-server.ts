// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fork, type ChildProcess } from "node:child_process";
import { watch } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { projectPath } from "./project-files.js";

/*
 * `npm run dev`: serves src/ through tsx and restarts the server when a file under src/ (or .env)
 * changes. A restart is what makes a change visible, but a cold start spends most of its second
 * loading Express, ajv, pino and the database driver; so the next server process is always started
 * ahead, with those loaded, and on a change it only imports the project's modules and listens.
 * A change to node_modules (npm install) needs `npm run dev` again.
 */

const projectDir = projectPath(import.meta.url, ".");
const serverEntry = join(projectDir, "src/server.ts");
const standbyEntry = fileURLToPath(new URL("./dev-standby.ts", import.meta.url));
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

/** Stops the running server (its graceful shutdown), then hands the port to the standby. */
async function restart(reason: string | undefined): Promise<void> {
  if (reason) process.stdout.write(`\n↻ ${reason} changed: restarting\n`);
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
