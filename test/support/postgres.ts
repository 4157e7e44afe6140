import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { freePort } from "./service.js";

/**
 * A PostgreSQL server of the test's own: a fresh cluster in a temporary directory, run by an
 * unprivileged user (the server refuses root), on 127.0.0.1 and a free port. Stopped at the end.
 */
export interface PostgresServer {
  port: number;
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
  /** A streaming replica of this server (`pg_basebackup -R`), started on a port of its own. */
  replicate(): Promise<PostgresServer>;
}

const user = "hashapi";

export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

/** A PostgreSQL server of the test's own; `settings` are more server options (`-c name=value`). */
export async function startPostgres(settings: readonly string[] = []): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install postgresql (the CI script does)");
  const server = await serverFolder(bin, "hashapi-pg-");
  await execa(join(bin, "initdb"), ["-D", server.data, "-U", user, "--auth=trust", "--encoding=UTF8", "--no-sync"], server.options);
  await server.start(settings);
  const psql = (sql: string) => execa("psql", ["-h", "127.0.0.1", "-p", String(server.port), "-U", user, "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql]);
  return {
    ...server.controls(settings),
    createDatabase: async (name) => {
      await psql(`CREATE DATABASE "${name}"`);
    },
    replicate: async () => {
      // A hot standby streaming from this server (initdb's trust lets it replicate).
      const replica = await serverFolder(bin, "hashapi-pg-replica-");
      await execa(join(bin, "pg_basebackup"), ["-h", "127.0.0.1", "-p", String(server.port), "-U", user, "-D", replica.data, "-R", "-X", "stream", "-c", "fast", "--no-sync"], replica.options);
      const replicaSettings = [...settings, "-c hot_standby=on"];
      await replica.start(replicaSettings);
      return {
        ...replica.controls(replicaSettings),
        createDatabase: () => Promise.reject(new Error("a replica is read-only: create databases on its primary")),
        replicate: () => Promise.reject(new Error("replicate the primary instead")),
      };
    },
  };
}

/** A server's folder, port and the pg_ctl commands that start, stop and remove it. */
async function serverFolder(bin: string, prefix: string) {
  const owner = runAs();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid!);
  const data = join(dir, "data");
  const port = await freePort();
  const options = { ...owner, cwd: dir, env: { LC_ALL: "C.UTF-8", PATH: process.env.PATH ?? "" } };
  const pgCtl = (args: string[], reject = true) => execa(join(bin, "pg_ctl"), ["-D", data, ...args], { ...options, reject });
  const start = async (settings: readonly string[]) => {
    // deadlock_timeout: tests race writes that deadlock on purpose (the driver runs the loser
    // again); found after 100 ms rather than the default second, a race test of 30 rounds is not a minute.
    await pgCtl(["-l", join(dir, "server.log"), "-w", "-t", "30", "-o", `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=200 -c deadlock_timeout=100ms ${settings.join(" ")}`.trim(), "start"]);
  };
  return {
    data,
    port,
    options,
    start,
    controls: (settings: readonly string[]) => ({
      port,
      url: (database: string) => `postgresql://${user}@127.0.0.1:${port}/${database}`,
      stop: async (mode: "fast" | "immediate" = "fast") => {
        await pgCtl(["-m", mode, "-w", "stop"]);
      },
      start: () => start(settings),
      destroy: async () => {
        await pgCtl(["-m", "immediate", "-w", "stop"], false);
        rmSync(dir, { recursive: true, force: true });
      },
    }),
  };
}
