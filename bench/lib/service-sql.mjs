// The SQL the generated service really runs for show and list, captured from a running service
// (sql-capture-preload.mjs records every statement it prepares), so that the query plans and
// timings below are of its statements, whatever its templates generate.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { exchange, login } from "./http-client.mjs";
import { stopProcess } from "./processes.mjs";
import { admin } from "./seed.mjs";
import { startServer } from "./servers.mjs";

const preload = new URL("./sql-capture-preload.mjs", import.meta.url).pathname;

const onPatients = (text) => /FROM\s+"?patients"?/i.test(text);
const kinds = {
  show: (text) => onPatients(text) && /"hash"\s*=\s*\?/.test(text) && /LIMIT 1\b/.test(text) && !/COUNT\(/i.test(text) && /"created_at"/.test(text),
  page: (text) => onPatients(text) && /ORDER BY/i.test(text) && /LIMIT \? OFFSET \?/i.test(text),
  count: (text) => onPatients(text) && /COUNT\(\*\)/i.test(text),
};

function placeholders(text) {
  return (text.match(/\?/g) ?? []).length;
}

function classify(texts) {
  const found = {};
  for (const [kind, matches] of Object.entries(kinds)) {
    const candidates = texts.filter(matches);
    if (candidates.length !== 1) throw new Error(`expected one ${kind} statement among what the service prepared, found ${candidates.length}:\n${texts.join("\n")}`);
    found[kind] = candidates[0];
  }
  // The benchmark binds show: [hash], page: [limit, offset], count: [].
  const expected = { show: 1, page: 2, count: 0 };
  for (const [kind, count] of Object.entries(expected))
    if (placeholders(found[kind]) !== count) throw new Error(`the service's ${kind} statement has ${placeholders(found[kind])} parameters, expected ${count}:\n${found[kind]}`);
  return found;
}

/** Starts the service on databasePath (which it may write to), asks for one show and one page. */
export async function captureServiceSql({ projectDir, databasePath, scratch, seeded }) {
  const capturePath = join(scratch, "service-sql.jsonl");
  rmSync(capturePath, { force: true });
  const server = await startServer("service", { projectDir, databasePath, nodeArgs: ["--import", preload], env: { BENCH_SQL_CAPTURE: capturePath } });
  try {
    const token = await login(server.baseUrl, admin);
    for (const path of [`/api/patients/${seeded.firstHash}`, "/api/patients?page=2"]) {
      const reply = await exchange(server.baseUrl, { path, token });
      if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status} while capturing SQL: ${reply.text}`);
    }
  } finally {
    await stopProcess(server.handle);
  }
  return classify(readFileSync(capturePath, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line)));
}
