// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/*
 * `npm run dev`: runs the dev runner (dev-runner.ts), and a fresh one each time it asks for it (exit
 * 75): after the project's database or its dependencies changed, which a process that loaded the
 * old ones cannot follow. A stop signal reaches the runner, whose exit ends this process.
 */

const runnerEntry = fileURLToPath(new URL("./dev-runner.ts", import.meta.url));
/** dev-runner.ts's freshStartCode (not imported: this process loads nothing the runner may renew). */
const freshStartCode = 75;

let runner: ChildProcess | undefined;

function startRunner(): void {
  // This process's own execArgv (tsx's, as `npm run dev` started it): the runner, its servers and
  // their worker threads load TypeScript as this process does.
  const child = fork(runnerEntry, [], { stdio: "inherit" });
  runner = child;
  child.once("exit", (code, signal) => {
    if (code === freshStartCode) return startRunner();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    runner?.kill(signal);
  });

startRunner();
