// PgBouncer of the benchmark's own (Debian's package), in transaction mode, in front of `postgres`.
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./processes.mjs";

export async function startPgBouncer(postgres, serverConnections = 20) {
  const dir = mkdtempSync(join(tmpdir(), "hashapi-bench-pgbouncer-"));
  const root = process.getuid?.() === 0;
  const id = (flag) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  if (root) chownSync(dir, id("-u"), id("-g"));
  const port = await freePort();
  const user = new URL(postgres.url("postgres")).username;
  const upstream = new URL(postgres.url("postgres")).port;
  writeFileSync(join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(join(dir, "pgbouncer.ini"), ["[databases]", `* = host=127.0.0.1 port=${upstream}`, "[pgbouncer]", "listen_addr = 127.0.0.1", `listen_port = ${port}`, "unix_socket_dir =", "auth_type = trust", `auth_file = ${join(dir, "users.txt")}`, "pool_mode = transaction", `default_pool_size = ${serverConnections}`, "server_login_retry = 1", "max_client_conn = 1000", `logfile = ${join(dir, "pgbouncer.log")}`, ""].join("\n"));
  if (root) for (const file of ["users.txt", "pgbouncer.ini"]) chownSync(join(dir, file), id("-u"), id("-g"));
  const child = spawn("/usr/sbin/pgbouncer", [join(dir, "pgbouncer.ini")], { cwd: dir, stdio: "ignore", ...(root ? { uid: id("-u"), gid: id("-g") } : {}) });
  const log = () => (existsSync(join(dir, "pgbouncer.log")) ? readFileSync(join(dir, "pgbouncer.log"), "utf8") : "");
  const deadline = Date.now() + 10_000;
  while (!/process up|listening on 127\.0\.0\.1/.test(log())) {
    if (Date.now() > deadline) throw new Error(`pgbouncer did not start:\n${log()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    url: (database) => `postgresql://${user}@127.0.0.1:${port}/${database}`,
    async stop() {
      child.kill("SIGINT");
      await new Promise((done) => child.once("exit", done));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
