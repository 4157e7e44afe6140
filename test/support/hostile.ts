import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { execa } from "execa";
import { postgresBinDir, startPostgres, type PostgresServer } from "./postgres.js";
import { prepareProject, repo, startService, type Project, type Reply, type RunningService } from "./service.js";

/** The hostile-client fixtures: the example clinic plus a resource with a field of every type. */
export const hostileSpecs = join(repo, "test/fixtures/hostile-specs");

/** SQLite always; PostgreSQL where it is installed (and always in CI, which installs it). */
export const databaseTargets = [
  { label: "SQLite", database: "sqlite" as const },
  ...(postgresBinDir() || process.env.CI ? [{ label: "PostgreSQL", database: "postgresql" as const }] : []),
];

export interface HostileService {
  project: Project;
  service: RunningService;
  postgres: PostgresServer | undefined;
  stop(): Promise<void>;
}

/** The fixtures generated for one database (a PostgreSQL cluster of its own) and served by two workers. */
export async function startHostileService(name: string, database: "sqlite" | "postgresql", env: Record<string, string> = {}): Promise<HostileService> {
  let postgres: PostgresServer | undefined;
  let databaseUrl: string | undefined;
  if (database === "postgresql") {
    postgres = await startPostgres();
    await postgres.createDatabase(name);
    databaseUrl = postgres.url(name);
  }
  const project = await prepareProject({ name: `${name}-${database}`, database, databaseUrl, extraSpecs: hostileSpecs });
  const service = await startService({ cwd: project.dir, env: { ...project.env, WEB_CONCURRENCY: "2", ...env } });
  return {
    project,
    service,
    postgres,
    async stop() {
      await service.stop();
      await postgres?.destroy();
      await project.cleanup();
    },
  };
}

/** Creates one more login in a prepared project, as a user of the generated project would. */
export async function createUser(dir: string, env: Record<string, string>, email: string, password: string): Promise<void> {
  await execa("node", ["dist/scripts/user-create.js", "--name", "Extra User", "--email", email, "--password", password], { cwd: dir, env });
}

/**
 * One JSON request sent from a chosen loopback source address (127.0.0.0/8 all reaches the
 * service on 127.0.0.1), so that per-address limits can be tested apart from each other.
 */
export function requestFrom(baseUrl: string, from: string, method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(path, baseUrl);
  const sent = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress: from, headers: { ...extraHeaders, ...(sent ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(sent) } : {}) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const headers = new Headers();
          for (const [key, value] of Object.entries(response.headers)) if (typeof value === "string") headers.set(key, value);
          resolve({ status: response.statusCode ?? 0, headers, body: parsed, text, request: `${method} ${path} from ${from}`, sent });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(sent);
  });
}

/** Counts replies by status: `{ 401: 4, 429: 36 }`. */
export function byStatus(replies: readonly Reply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const reply of replies) counts[reply.status] = (counts[reply.status] ?? 0) + 1;
  return counts;
}

/** The JSON envelope of an error, checked field by field. */
export function isErrorEnvelope(reply: Reply): boolean {
  const body = reply.body as { type?: unknown; status?: unknown; message?: unknown } | undefined;
  return body !== undefined && body.type === "error" && body.status === reply.status && typeof body.message === "string";
}
