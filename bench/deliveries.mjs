#!/usr/bin/env node
// Issue 35: how fast one worker delivers events to a webhook, and what the outbox costs the writes.
//
//   node bench/deliveries.mjs [--events 2000] [--database .tmp/bench/main-seeded-events.db]
//
// Generates the example with a webhook (test/fixtures/webhooks/hashapi.yaml) into
// .tmp/bench/project-webhooks, serves it with one worker (WEB_CONCURRENCY=1) on a copy of the seeded
// database, and points the webhook at a receiver in this process that answers 204 at once. It
// creates `--events` patients (each one event, 50 at a time) and waits until every delivery is made:
// how long the writes took, how long the deliveries lagged behind, and deliveries per second.
// The write path with and without the outbox: `node bench/pairs.mjs <base> <this> --endpoints
// create,update` (bench/README.md, "Issue 35").
import { randomBytes } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { login } from "./lib/http-client.mjs";
import { stopProcess } from "./lib/processes.mjs";
import { runCommand } from "./lib/run-command.mjs";
import { admin } from "./lib/seed.mjs";
import { startServer } from "./lib/servers.mjs";

const repo = new URL("..", import.meta.url).pathname;
const scratch = join(repo, ".tmp/bench");
const { values } = parseArgs({ options: { events: { type: "string", default: "2000" }, database: { type: "string", default: join(scratch, "main-seeded-events.db") } } });
const events = Number(values.events);
if (!existsSync(values.database)) throw new Error(`${values.database} is missing: seed it from a migrated template (bench/README.md, "Issue 35")`);

const projectDir = join(scratch, "project-webhooks");
const specs = join(scratch, "specs-webhooks");
rmSync(specs, { recursive: true, force: true });
cpSync(join(repo, "specs"), specs, { recursive: true });
cpSync(join(repo, "test/fixtures/webhooks/hashapi.yaml"), join(specs, "hashapi.yaml"));
mkdirSync(join(projectDir, "src"), { recursive: true });
cpSync(join(repo, "generated/src/custom"), join(projectDir, "src/custom"), { recursive: true });
await runCommand(process.execPath, [join(repo, "bin/hashapi.js"), "generate", specs, "--out", projectDir, "--force"], { cwd: repo });
await runCommand("npm", ["run", "build", "--silent"], { cwd: projectDir });

/** A receiver that counts what it got and answers 204 at once. */
function receiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  return {
    server,
    get received() {
      return received;
    },
  };
}

async function run() {
  const sink = receiver();
  await new Promise((done) => sink.server.listen(0, "127.0.0.1", done));
  const databasePath = join(scratch, "deliveries.db");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${databasePath}${suffix}`, { force: true });
  copyFileSync(resolve(values.database), databasePath);
  const env = {
    CRM_WEBHOOK_URL: `http://127.0.0.1:${sink.server.address().port}/hooks`,
    CRM_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString("base64")}`,
    WEBHOOK_RETRY_BASE_MS: "100",
  };
  const running = await startServer("service", { projectDir, databasePath, env });
  try {
    const token = await login(running.baseUrl, admin);
    const started = performance.now();
    for (let start = 0; start < events; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, events - start) }, (_, offset) =>
          fetch(`${running.baseUrl}/api/patients`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ name: `Delivery ${start + offset}`, cpf: String(90_000_000_000 + start + offset) }),
          }).then((response) => response.arrayBuffer()),
        ),
      );
    }
    const written = performance.now();
    while (sink.received < events) await new Promise((done) => setTimeout(done, 20));
    const finished = performance.now();
    const db = new Database(databasePath, { readonly: true });
    const delivered = db.prepare(`SELECT COUNT(*) FROM "hashapi_deliveries" WHERE "status" = 'delivered'`).pluck().get();
    db.close();
    const seconds = (finished - started) / 1000;
    process.stdout.write(
      `${events} creates answered in ${((written - started) / 1000).toFixed(1)} s; ${delivered} delivered ` +
        `${((finished - written) / 1000).toFixed(1)} s after the last answer; ` +
        `${Math.round(events / seconds).toLocaleString("en")} deliveries/s per worker, writes included\n`,
    );
  } finally {
    await stopProcess(running.handle);
    sink.server.close();
  }
}

await run();
