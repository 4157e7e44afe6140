#!/usr/bin/env node
// Ownership's cost (issue 22): one built project, two callers in alternating slices on the same
// server, the ratio of each pair of slices and their median. A doctor reaches only the appointments
// of their own doctor record (owner: doctor.user, a scope inside the reading statement); an admin
// bypasses it and reaches all. Both list pages of 15 and show records of the same table.
//
//   node bench/owned.mjs [--slices 12] [--seconds 2] [--appointments 6000] [--gapPairs 4000]
import { copyFileSync, existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { login } from "./lib/http-client.mjs";
import { stopProcess } from "./lib/processes.mjs";
import { prepareProject } from "./lib/prepare-project.mjs";
import { admin, seedDatabase } from "./lib/seed.mjs";
import { log } from "./lib/slices.mjs";
import { startServer } from "./lib/servers.mjs";
import { newHash } from "./servers/shared/hash-id.mjs";
import { hashPassword } from "./servers/shared/passwords.mjs";
import { toStoredDate } from "./servers/shared/stored-dates.mjs";

const scratch = new URL("../.tmp/bench/", import.meta.url).pathname;
const options = { slices: 12, seconds: 2, appointments: 6000, gapPairs: 4000 };
for (let index = 2; index < process.argv.length; index += 1) {
  const [name, value] = [process.argv[index].replace(/^--/, ""), Number(process.argv[index + 1])];
  if (!(name in options) || !Number.isFinite(value)) throw new Error("usage: node bench/owned.mjs [--slices 12] [--seconds 2] [--appointments 6000] [--gapPairs 4000]");
  options[name] = value;
  index += 1;
}

/** Admin and doctor users, ten doctors (the first is the doctor user's), patients and appointments spread over them. */
async function seed(path) {
  // The service benchmark's seeded database, made here when it has not run.
  const seededPath = join(scratch, "main-seeded.db");
  if (!existsSync(seededPath) || !existsSync(join(scratch, "project/dist/server.js"))) {
    await mkdir(scratch, { recursive: true });
    const { templatePath } = await prepareProject({ repo: join(scratch, "../.."), scratch, log });
    await seedDatabase(templatePath, seededPath, 1000);
  }
  copyFileSync(seededPath, path);
  const db = new Database(path);
  const now = toStoredDate(new Date());
  const password = await hashPassword(admin.password);
  const doctorUser = { email: "doctor@example.com", password: admin.password };
  db.prepare(`UPDATE users SET role = 'admin' WHERE email = ?`).run(admin.email);
  const userId = db.prepare(`INSERT INTO users (hash, name, email, password, role, created_at, updated_at) VALUES (?, 'Bench Doctor', ?, ?, 'doctor', ?, ?)`).run(newHash("USR"), doctorUser.email, password, now, now).lastInsertRowid;
  const doctors = [];
  for (let index = 0; index < 10; index += 1)
    doctors.push(db.prepare(`INSERT INTO doctors (hash, name, crm, specialty, user_id, created_at, updated_at) VALUES (?, ?, ?, 'general', ?, ?, ?)`).run(newHash("DOC"), `Dr. ${index}`, `CRM-B-${index}`, index === 0 ? userId : null, now, now).lastInsertRowid);
  const patients = db.prepare(`SELECT id FROM patients WHERE deleted_at IS NULL LIMIT 200`).pluck().all();
  const insert = db.prepare(`INSERT INTO appointments (hash, scheduled_at, status, patient_id, doctor_id, created_at, updated_at) VALUES (?, ?, 'scheduled', ?, ?, ?, ?)`);
  const start = Date.now() - options.appointments * 60_000;
  const own = [];
  const all = [];
  db.transaction(() => {
    for (let index = 0; index < options.appointments; index += 1) {
      const hash = newHash("APT");
      const created = toStoredDate(new Date(start + index * 60_000));
      const doctor = doctors[index % doctors.length];
      insert.run(hash, created, patients[index % patients.length], doctor, created, created);
      all.push(hash);
      if (doctor === doctors[0]) own.push(hash);
    }
  })();
  db.close();
  return { doctorUser, own, all };
}

const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];

const databasePath = join(scratch, "owned.db");
const seeded = await seed(databasePath);
const server = await startServer("service", { projectDir: join(scratch, "project"), databasePath });
try {
  const tokens = { admin: await login(server.baseUrl, admin), doctor: await login(server.baseUrl, seeded.doctorUser) };
  // The doctor's pages and records (a tenth of the table) against the admin's over the same count of rows.
  const scenarios = {
    list: (who) => {
      const pages = Math.ceil((who === "doctor" ? seeded.own.length : seeded.all.length) / 15);
      let turn = 0;
      return () => ({ method: "GET", path: `/api/appointments?page=${(turn++ % pages) + 1}`, headers: { authorization: `Bearer ${tokens[who]}` } });
    },
    show: (who) => {
      const hashes = who === "doctor" ? seeded.own : seeded.all;
      let turn = 0;
      return () => ({ method: "GET", path: `/api/appointments/${hashes[turn++ % hashes.length]}`, headers: { authorization: `Bearer ${tokens[who]}` } });
    },
  };
  process.stdout.write(`${seeded.all.length} appointments, ${seeded.own.length} the doctor's; ${options.slices} slices of ${options.seconds} s, alternating\n`);
  for (const [id, make] of Object.entries(scenarios)) {
    const fire = (who, seconds) => {
      const next = make(who);
      return autocannon({ url: server.baseUrl, connections: 32, duration: seconds, requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }] });
    };
    for (const who of ["admin", "doctor"]) await fire(who, options.seconds);
    const ratios = [];
    const rates = { admin: [], doctor: [] };
    for (let slice = 0; slice < options.slices; slice += 1) {
      for (const who of slice % 2 === 0 ? ["admin", "doctor"] : ["doctor", "admin"]) {
        const result = await fire(who, options.seconds);
        if (result.non2xx > 0) throw new Error(`${who} got ${result.non2xx} non-2xx on ${id}`);
        rates[who].push(result.requests.total / result.duration);
      }
      ratios.push(rates.doctor.at(-1) / rates.admin.at(-1));
    }
    const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
    process.stdout.write(`${id.padEnd(5)} admin (all records) ${Math.round(median(rates.admin)).toLocaleString("en")} req/s, doctor (own, scoped) ${Math.round(median(rates.doctor)).toLocaleString("en")} req/s, scoped/unscoped ${median(ratios).toFixed(3)}× (median of ${ratios.length} pairs; ${spread})\n`);
  }
  // Issue 30, point 7: another doctor's appointment against a hash no record has, as the doctor
  // asks for them: both are the same 404; how far apart are their times? Pairs of single requests
  // on one connection, in alternating order, the difference of each pair.
  const otherHashes = seeded.all.filter((hash) => !seeded.own.includes(hash));
  const time = async (hash) => {
    const started = process.hrtime.bigint();
    const reply = await fetch(`${server.baseUrl}/api/appointments/${hash}`, { headers: { authorization: `Bearer ${tokens.doctor}` } });
    await reply.arrayBuffer();
    if (reply.status !== 404) throw new Error(`expected 404, got ${reply.status}`);
    return Number(process.hrtime.bigint() - started) / 1000;
  };
  const gaps = [];
  const theirs = [];
  const missing = [];
  for (let pair = 0; pair < options.gapPairs; pair += 1) {
    const other = otherHashes[pair % otherHashes.length];
    const absent = newHash("APT");
    const took = new Map();
    for (const hash of pair % 2 === 0 ? [other, absent] : [absent, other]) took.set(hash, await time(hash));
    theirs.push(took.get(other));
    missing.push(took.get(absent));
    gaps.push(took.get(other) - took.get(absent));
  }
  process.stdout.write(`show as a doctor, ${options.gapPairs} pairs: another's record ${median(theirs).toFixed(0)} µs, a missing one ${median(missing).toFixed(0)} µs, median gap ${median(gaps).toFixed(1)} µs (another's slower in ${gaps.filter((gap) => gap > 0).length} of ${gaps.length} pairs)\n`);
} finally {
  await stopProcess(server.handle);
}
