import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import type { PostgresServer } from "./postgres.js";
import { freePort } from "./service.js";

/** A PgBouncer of the test's own in front of a test's PostgreSQL (Debian's package, 1.18 here). */
export interface PgBouncer {
  port: number;
  /** A URL of `database` through the pooler. */
  url(database: string): string;
  /** The pooler's log so far (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

export const pgbouncerBin = "/usr/sbin/pgbouncer";

export function hasPgBouncer(): boolean {
  return existsSync(pgbouncerBin);
}

/**
 * PgBouncer in transaction mode (each transaction, or each statement outside one, may run on
 * another server connection) with `serverConnections` per database and user, so that hundreds of
 * clients share a few. It refuses to run as root: as root, the tests run it as `postgres`.
 */
export async function startPgBouncer(postgres: PostgresServer, serverConnections = 10): Promise<PgBouncer> {
  const dir = mkdtempSync(join(tmpdir(), "hashapi-pgbouncer-"));
  const owner = process.getuid?.() === 0 ? { uid: Number(execFileSync("id", ["-u", "postgres"]).toString()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString()) } : {};
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid!);
  const port = await freePort();
  const user = new URL(postgres.url("postgres")).username;
  writeFileSync(join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=127.0.0.1 port=${postgres.port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${serverConnections}`,
      // After a failed server login PgBouncer waits this long before trying again (15 s by default):
      // a database restart would otherwise keep it refusing for up to 15 s after the server is back.
      "server_login_retry = 1",
      "max_client_conn = 1000",
      `logfile = ${join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  for (const file of ["users.txt", "pgbouncer.ini"]) if (owner.uid !== undefined) chownSync(join(dir, file), owner.uid, owner.gid!);
  const child: ResultPromise = execa(pgbouncerBin, [join(dir, "pgbouncer.ini")], { ...owner, cwd: dir, reject: false });
  const log = () => (existsSync(join(dir, "pgbouncer.log")) ? readFileSync(join(dir, "pgbouncer.log"), "utf8") : "");
  const deadline = Date.now() + 10_000;
  while (!/process up|listening on 127\.0\.0\.1/.test(log())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pgbouncer did not start:\n${log()}\n${(await child).all ?? ""}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    port,
    url: (database) => `postgresql://${user}@127.0.0.1:${port}/${database}`,
    log,
    async stop() {
      child.kill("SIGINT");
      await child;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
