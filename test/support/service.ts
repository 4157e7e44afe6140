import { createHmac } from "node:crypto";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";

export const repo = new URL("../..", import.meta.url).pathname;
export const jwtSecret = "e2e-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
export const admin = { name: "Ada Admin", email: "ada@example.com", password: "correct horse battery" };

/**
 * Generates specs/ with the built CLI into a fresh folder under .tmp/ (inside the repository, so the
 * workspace's node_modules serve as its installed dependencies), keeping the example's user-owned
 * customizations as a real project would, then builds, migrates and creates the admin user.
 */
export async function prepareProject(
  name: string,
  database: "sqlite" | "postgresql" = "sqlite",
  databaseUrl = "file:./data/e2e.db",
): Promise<string> {
  const dir = join(repo, ".tmp", `${name}-${process.pid}`);
  const specs = `${dir}-specs`;
  await rm(dir, { recursive: true, force: true });
  await rm(specs, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await cp(join(repo, "generated/src/custom"), join(dir, "src/custom"), { recursive: true });
  // The example with one line changed, as a user switching databases would do.
  await cp(join(repo, "specs"), specs, { recursive: true });
  const projectFile = join(specs, "hashapi.yaml");
  await writeFile(projectFile, (await readFile(projectFile, "utf8")).replace(/^database: .*$/m, `database: ${database}`));
  await execa(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", dir, "--force"]);
  const env = { DATABASE_URL: databaseUrl };
  await execa("npm", ["run", "build", "--silent"], { cwd: dir, env });
  await execa("npm", ["run", "db:migrate", "--silent"], { cwd: dir, env });
  await execa("npm", ["run", "user:create", "--silent", "--", "--name", admin.name, "--email", admin.email, "--password", admin.password], { cwd: dir, env });
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningService {
  baseUrl: string;
  process: ResultPromise;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | undefined>;
}

/** Starts `node dist/server.js` on a free loopback port and waits (bounded) for /api/health. */
export async function startService(cwd: string, env: Record<string, string> = {}): Promise<RunningService> {
  const port = await freePort();
  let output = "";
  const child = execa(process.execPath, ["dist/server.js"], {
    cwd,
    reject: false,
    env: { NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), JWT_SECRET: jwtSecret, LOG_LEVEL: "info", DATABASE_URL: "file:./data/e2e.db", ...env },
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early:\n${output}`);
    const ok = await fetch(`${baseUrl}/api/health`).then((response) => response.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`service did not start in 20 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    process: child,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const result = await child;
      return result.exitCode;
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export function client(baseUrl: string) {
  return async function request(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] ??= "application/json";
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
}

/** Every key named `id` or ending in `_id` (except `public_id`) anywhere in a body is a leak. */
export function leakedKeys(value: unknown, path = "body"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leakedKeys(item, `${path}[${index}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, child]) => {
    if (path === "body" && key === "errors") return [];
    const own = key === "id" || (key.endsWith("_id") && key !== "public_id") ? [`${path}.${key}`] : [];
    return [...own, ...leakedKeys(child, `${path}.${key}`)];
  });
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** A JWT signed the way an attacker (or a test) would: any header, any claims, any key. */
export function craftToken(header: object, claims: object, secret: string | null = jwtSecret, algorithm = "sha256"): string {
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = secret === null ? "" : createHmac(algorithm, secret).update(unsigned).digest("base64url");
  return `${unsigned}.${signature}`;
}

export function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
}

export interface Proxy {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Stoplight Prism in proxy mode in front of the service: it forwards every request and checks the
 * request and the real response against openapi.json, reporting violations in `sl-violations`.
 */
export async function startContractProxy(project: string, upstream: string): Promise<Proxy> {
  const port = await freePort();
  const child = execa(join(repo, "node_modules/.bin/prism"), ["proxy", join(project, "openapi.json"), upstream, "--port", String(port), "--host", "127.0.0.1", "--errors=false"], { reject: false });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`${baseUrl}/api/health`).then((response) => response.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("the Prism proxy did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    async stop() {
      child.kill("SIGTERM");
      await child;
    },
  };
}
