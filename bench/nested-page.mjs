#!/usr/bin/env node
// One page of `GET /api/doctors?with=specialties` in a loop, without HTTP: the service's data layer
// and serializer (a built project's dist/) against the Express ceiling's hand-written statements and
// output (bench/servers/reference/lists.mjs), alternating rounds, µs per page by phase (medians).
// It separates what reading costs from what the server around it costs (bench/README.md "Issue 32").
//
//   node bench/lists.mjs --quick        # once: seeds .tmp/bench/lists-seeded.db
//   node bench/nested-page.mjs [.tmp/bench/project] [--rounds 8] [--rows]
//   (--rows: read whole Rows, as services and cursor pages do, instead of a read for output)
import { resolve } from "node:path";
import Database from "better-sqlite3";
import { storedToIso } from "./servers/shared/stored-dates.mjs";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt === -1 ? 8 : Number(args[roundsAt + 1]);
const project = resolve(args.find((arg, index) => !arg.startsWith("--") && args[index - 1] !== "--rounds") ?? ".tmp/bench/project");
const databasePath = resolve(".tmp/bench/lists-seeded.db");
const perPage = 15;
const pagesPerRound = 2_000;

async function serviceReader() {
  const dist = `${project}/dist`;
  const { openSql } = await import(`${dist}/lib/driver.js`);
  const { Table, relationsOfKind } = await import(`${dist}/lib/table.js`);
  const { createSerializer } = await import(`${dist}/resource/serializer.js`);
  const { doctorResource } = await import(`${dist}/resources/doctor/doctor.resource.js`);
  const { specialtyResource } = await import(`${dist}/resources/specialty/specialty.resource.js`);
  const doctors = new Table(openSql(`file:${databasePath}`), doctorResource.table);
  const resources = new Map([doctorResource, specialtyResource].map((resource) => [resource.table, resource]));
  const serializers = new Map();
  const serializerOf = (table) => {
    if (!serializers.has(table)) serializers.set(table, createSerializer(resources.get(table), serializerOf));
    return serializers.get(table);
  };
  const serialize = serializerOf(doctorResource.table);
  const order = [{ created_at: "asc" }, { id: "asc" }];
  // As the controller reads a page-number list whose rows only the serializer reads (a read for
  // output: dates as stored, no join for a belongsTo the output never shows), where the build has it.
  const unshown = relationsOfKind(doctorResource.table, "belongsTo")
    .map(([name]) => name)
    .filter((name) => !doctorResource.output.includes(name));
  const forOutput = process.argv.includes("--rows") ? {} : { forOutput: { unshown } };
  return {
    pages: Math.ceil((await doctors.count({})) / perPage),
    async page(index, clock) {
      const rows = await doctors.findMany({ relations: ["specialties"], limit: perPage, offset: index * perPage, orderBy: order, ...forOutput });
      const total = await doctors.count({});
      clock("read");
      const data = rows.map((row) => serialize(row, ["specialties"], undefined));
      clock("output");
      JSON.stringify({ type: "success", status: 200, data, meta: { total } });
      clock("json");
    },
  };
}

function ceilingReader() {
  const db = new Database(databasePath, { readonly: true });
  const doctorPage = db.prepare(`SELECT "id", "hash", "name", "crm", "specialty", "created_at", "updated_at" FROM "doctors" ORDER BY "created_at" ASC, "id" ASC LIMIT ? OFFSET ?`);
  const doctorCount = db.prepare(`SELECT COUNT(*) FROM "doctors"`).pluck();
  const specialtiesOf = db.prepare(
    `SELECT l."doctor_id", l."since", s."hash", s."name", s."created_at", s."updated_at" FROM "doctors_specialties" l JOIN "specialties" s ON s."id" = l."specialty_id"
     WHERE l."doctor_id" IN (SELECT value FROM json_each(?)) ORDER BY s."created_at" ASC, s."id" ASC`,
  );
  return {
    pages: Math.ceil(doctorCount.get() / perPage),
    async page(index, clock) {
      const rows = doctorPage.all(perPage, index * perPage);
      const links = specialtiesOf.all(JSON.stringify(rows.map((row) => row.id)));
      const total = doctorCount.get();
      clock("read");
      const output = new Map(rows.map((row) => [row.id, { hash: row.hash, name: row.name, crm: row.crm, specialty: row.specialty, created_at: storedToIso(row.created_at), updated_at: storedToIso(row.updated_at), specialties: [] }]));
      for (const link of links)
        output.get(link.doctor_id).specialties.push({ hash: link.hash, name: link.name, created_at: storedToIso(link.created_at), updated_at: storedToIso(link.updated_at), pivot: { since: link.since === null ? null : link.since.slice(0, 10) } });
      clock("output");
      JSON.stringify({ type: "success", status: 200, data: [...output.values()], meta: { total } });
      clock("json");
    },
  };
}

/** µs per page of each phase over one round. */
async function round(reader) {
  const spent = { read: 0, output: 0, json: 0 };
  let last = 0n;
  const clock = (phase) => {
    const now = process.hrtime.bigint();
    spent[phase] += Number(now - last);
    last = now;
  };
  for (let index = 0; index < pagesPerRound; index += 1) {
    last = process.hrtime.bigint();
    await reader.page(index % reader.pages, clock);
  }
  for (const phase of Object.keys(spent)) spent[phase] /= pagesPerRound * 1_000;
  return spent;
}

const readers = { service: await serviceReader(), ceiling: ceilingReader() };
for (const reader of Object.values(readers)) await round(reader); // warm-up
const figures = { service: [], ceiling: [] };
for (let index = 0; index < rounds; index += 1)
  for (const name of index % 2 === 0 ? ["service", "ceiling"] : ["ceiling", "service"]) figures[name].push(await round(readers[name]));
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`a ?with=specialties page of ${perPage} doctors, µs per page (median of ${rounds} rounds of ${pagesPerRound})`);
for (const [name, list] of Object.entries(figures)) {
  const phases = Object.keys(list[0]).map((phase) => `${phase} ${median(list.map((figure) => figure[phase])).toFixed(1)}`);
  console.log(`${name.padEnd(8)} ${phases.join(", ")}, total ${median(list.map((figure) => figure.read + figure.output + figure.json)).toFixed(1)}`);
}
