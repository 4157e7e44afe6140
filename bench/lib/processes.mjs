// Every server process the benchmark starts is tracked here and killed on the way out, whether the
// run ends normally, fails, or is interrupted (Ctrl-C, SIGTERM).
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const running = new Set();

export function startProcess({ name, command, args, cwd, env }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const handle = { name, child, pid: child.pid, exited, output: () => output, alive: true };
  running.add(handle);
  exited.then(() => {
    handle.alive = false;
    running.delete(handle);
  });
  return handle;
}

export async function stopProcess(handle) {
  if (!handle.alive) return;
  handle.child.kill("SIGTERM");
  const timeout = new Promise((resolve) => setTimeout(resolve, 8000, "timeout"));
  if ((await Promise.race([handle.exited, timeout])) === "timeout") {
    handle.child.kill("SIGKILL");
    await handle.exited;
  }
}

export function killAllNow() {
  for (const handle of running) handle.child.kill("SIGKILL");
}

let handlersInstalled = false;

/** On exit, error or signal: no server outlives the benchmark. */
export function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on("exit", killAllNow);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping ${running.size} server(s)\n`);
      killAllNow();
      process.exit(130);
    });
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls a URL until it answers 200; fails with the process's output if it dies or never answers. */
export async function waitUntilAnswering(handle, url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!handle.alive) throw new Error(`${handle.name} exited before answering:\n${handle.output()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${handle.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${handle.output()}`);
}
