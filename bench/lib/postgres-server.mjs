// A PostgreSQL server of the benchmark's own (as test/support/postgres.ts starts one for tests): a
// fresh cluster in a temporary directory, run by the postgres user when we are root (the server
// refuses root), on 127.0.0.1 and a free port; destroyed at the end.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./processes.mjs";
import { runCommand } from "./run-command.mjs";

const user = "hashapi";

function binDir() {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error("PostgreSQL is not installed: apt-get install postgresql");
  return join(root, versions[0], "bin");
}

/** Runs a PostgreSQL binary as the postgres user when we are root. */
function asOwner(command, args, cwd) {
  if (process.getuid?.() !== 0) return runCommand(command, args, { cwd });
  return runCommand("runuser", ["-u", "postgres", "--", command, ...args], {
    cwd,
  });
}

export async function startPostgres() {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "hashapi-bench-pg-"));
  if (process.getuid?.() === 0) {
    const id = (flag) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  const data = join(dir, "data");
  const port = await freePort();
  await asOwner(join(bin, "initdb"), ["-D", data, "-U", user, "--auth=trust", "--encoding=UTF8", "--no-sync"], dir);
  // The server's defaults otherwise (fsync, synchronous_commit): a benchmark measures real commits.
  await asOwner(
    join(bin, "pg_ctl"),
    ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "30", "-o", `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=200`, "start"],
    dir,
  );
  const url = (database) => `postgresql://${user}@127.0.0.1:${port}/${database}`;
  return {
    url,
    port,
    /** The server's log (what `log_statement` writes, for probes). */
    logFile: join(dir, "server.log"),
    /** A streaming replica (`pg_basebackup -R`) on a port of its own, with stop and start. */
    replicate: () => startReplica(bin, port),
    destroy: async () => {
      await asOwner(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], dir).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startReplica(bin, primaryPort) {
  const dir = mkdtempSync(join(tmpdir(), "hashapi-bench-pg-replica-"));
  if (process.getuid?.() === 0) {
    const id = (flag) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  const data = join(dir, "data");
  const port = await freePort();
  await asOwner(join(bin, "pg_basebackup"), ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", user, "-D", data, "-R", "-X", "stream", "-c", "fast"], dir);
  const start = () => asOwner(join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "30", "-o", `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=200 -c hot_standby=on`, "start"], dir);
  await start();
  return {
    url: (database) => `postgresql://${user}@127.0.0.1:${port}/${database}`,
    start,
    stop: (mode = "fast") => asOwner(join(bin, "pg_ctl"), ["-D", data, "-m", mode, "-w", "stop"], dir),
    destroy: async () => {
      await asOwner(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], dir).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
