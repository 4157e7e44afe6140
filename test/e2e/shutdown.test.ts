import { readlinkSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { execa, type ResultPromise } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, freePort, jwtSecret, prepareProject, type Project } from "../support/service.js";

/**
 * Stopping in production (docs/api-contract.md §9, issue 36), with real signals: SIGTERM to
 * `npm start` (what `docker stop` sends when the command is `npm start`) stops the supervisor and
 * every worker; a request in flight is answered; a request arriving on its connection while the
 * process drains is answered 503 by readiness; every line the service writes is JSON. A request still
 * open at SHUTDOWN_GRACE_MS is cut and the service is gone anyway, with no worker left behind.
 */

let project: Project;

beforeAll(async () => {
  project = await prepareProject({ name: "e2e-shutdown" });
}, 300_000);

afterAll(async () => {
  await project?.cleanup();
});

interface Started {
  child: ResultPromise;
  port: number;
  output: () => string;
  /** The pids of the service's node processes (the supervisor and its workers, or the one process). */
  pids: () => Promise<number[]>;
}

async function start(command: "npm" | "node", env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  let output = "";
  const child =
    command === "npm"
      ? execa("npm", ["start", "--silent"], { cwd: project.dir, reject: false, env: serviceEnv(port, env) })
      : execa(process.execPath, ["dist/server.js"], { cwd: project.dir, reject: false, env: serviceEnv(port, env) });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const workers = Number(env.WEB_CONCURRENCY ?? 1);
  const deadline = Date.now() + 30_000;
  while ((output.match(/"msg":"listening on/g) ?? []).length < workers) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not start:\n${output}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  const pids = async () => {
    const listed = await execa("ps", ["-eo", "pid=,args="], { reject: false });
    return String(listed.stdout)
      .split("\n")
      .filter((line) => line.includes("dist/server.js") && !line.includes("sh -c"))
      .map((line) => Number(line.trim().split(/\s+/)[0]))
      .filter((pid) => isOurs(pid));
  };
  // Only the processes of this project's folder (other tests may run services of their own).
  const isOurs = (pid: number) => {
    try {
      return readlinkSync(`/proc/${pid}/cwd`) === project.dir;
    } catch {
      return false;
    }
  };
  return { child, port, output: () => output, pids };
}

function serviceEnv(port: number, env: Record<string, string>): Record<string, string> {
  return {
    ...project.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: "info",
    ...env,
  };
}

/** A login whose body is only half sent: in flight until `finish` sends the rest (and `more`). */
async function halfSentLogin(port: number): Promise<{ socket: Socket; received: () => string; finish: (more?: string) => void }> {
  const body = JSON.stringify({ email: "nobody@example.com", password: "not the password" });
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((done, fail) => socket.once("connect", done).once("error", fail));
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  socket.on("error", () => undefined);
  socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`);
  // The request has reached the server (its headers are parsed) before anything else happens.
  await new Promise((done) => setTimeout(done, 200));
  return { socket, received: () => received, finish: (more = "") => socket.write(body.slice(10) + more) };
}

const exited = async (child: ResultPromise) => {
  const result = await child;
  return { exitCode: result.exitCode, signal: result.signal };
};

/** Every line of the service's output is one JSON object (npm's own banner aside, which --silent drops). */
function nonJsonLines(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
}

describe("stopping the service", () => {
  it("SIGTERM to `npm start` stops the supervisor and every worker: the request in flight is answered, the port stays open meanwhile (readiness and new work 503), exit 0", async () => {
    const service = await start("npm", { WEB_CONCURRENCY: "2", SHUTDOWN_GRACE_MS: "8000" });
    const before = await service.pids();
    expect(before.length, service.output()).toBe(3);
    const login = await halfSentLogin(service.port);
    service.child.kill("SIGTERM");
    await new Promise((done) => setTimeout(done, 300));
    // While the login is in flight the port stays open: a probe on a new connection hears 503 (not
    // a refused connection), and new work is refused with 503 too (issue 46).
    const base = `http://127.0.0.1:${service.port}`;
    for (const path of ["/api/health/ready", "/api/health/ready", "/api/patients"]) {
      const reply = await fetch(`${base}${path}`);
      expect(reply.status, path).toBe(503);
      expect(reply.headers.get("connection"), path).toBe("close");
      expect(await reply.json(), path).toEqual({ type: "error", status: 503, message: "The service is shutting down." });
    }
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    // The rest of the login, and on the same connection a readiness probe sent while draining.
    login.finish(`GET /api/health/ready HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\n\r\n`);
    const { exitCode } = await exited(service.child);
    await new Promise((done) => setTimeout(done, 100));
    const replies = login.received();
    login.socket.destroy();
    expect(replies, service.output()).toMatch(/^HTTP\/1\.1 401 /);
    expect(replies).toMatch(/HTTP\/1\.1 503 [^]*"message":"The service is shutting down\."/);
    expect(replies).toMatch(/connection: close/i);
    // Exit 0 is the path within SHUTDOWN_GRACE_MS: past it, what is left is cut and the exit is 1.
    expect(exitCode, service.output()).toBe(0);
    expect(await service.pids(), "no worker outlives its supervisor").toEqual([]);
    expect(nonJsonLines(service.output())).toEqual([]);
    expect(service.output()).toMatch(/"signal":"SIGTERM","workers":2,.*"msg":"shutting down"/);
    expect(service.output()).toMatch(/"exitCode":0,"msg":"stopped"/);
  }, 60_000);

  it("SIGINT to the node process itself (one process): the request in flight is answered, exit 0; request lines name the user", async () => {
    const service = await start("node", { WEB_CONCURRENCY: "1" });
    const base = `http://127.0.0.1:${service.port}`;
    const login = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: admin.email, password: admin.password }) });
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    expect((await fetch(`${base}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    const halfSent = await halfSentLogin(service.port);
    service.child.kill("SIGINT");
    await new Promise((done) => setTimeout(done, 200));
    halfSent.finish();
    const { exitCode } = await exited(service.child);
    await new Promise((done) => setTimeout(done, 100));
    halfSent.socket.destroy();
    expect(halfSent.received(), service.output()).toMatch(/^HTTP\/1\.1 401 /);
    expect(exitCode, service.output()).toBe(0);
    expect(await service.pids()).toEqual([]);
    // The signed-in request's line carries the user's public id; the anonymous login's does not.
    expect(service.output()).toContain(`"path":"/api/auth/me","status":200`);
    expect(service.output()).toMatch(new RegExp(`"path":"/api/auth/me","status":200,"ms":[0-9.]+,"user":"${project.adminHash}"`));
    expect(nonJsonLines(service.output())).toEqual([]);
  }, 60_000);

  it("a request that never ends does not hold the stop: gone by SHUTDOWN_GRACE_MS, workers included (exit 1, said in the log)", async () => {
    const service = await start("npm", { WEB_CONCURRENCY: "2", SHUTDOWN_GRACE_MS: "1500" });
    const stuck = await halfSentLogin(service.port);
    service.child.kill("SIGTERM");
    const { exitCode } = await exited(service.child);
    stuck.socket.destroy();
    expect(exitCode, service.output()).toBe(1);
    expect(service.output()).toMatch(/"msg":"shutdown grace over/);
    expect(await service.pids(), "no worker outlives its supervisor").toEqual([]);
  }, 60_000);
});
