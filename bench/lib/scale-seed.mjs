// Patients by the million for bench/scale.mjs: names drawn from lists of first and last names (so a
// surname is in ≈ 1 % of the rows and a first-and-last pair in ≈ 0.01 %), unique 11-digit cpfs, a
// phone in four of five, one a minute, one in 50 soft-deleted. SQLite: prepared inserts in large
// transactions (the trigram index's triggers fire for each, as they would for the service's writes).
// PostgreSQL: CSV files loaded with COPY, the table's indexes dropped first and made again after,
// each timed (what a migration adding that index costs at this size).
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

export const firstNames = ["ana", "bruno", "carla", "diego", "elena", "fabio", "gabriela", "heitor", "isabel", "joao", "karina", "lucas", "marina", "nuno", "olivia", "paulo", "quiteria", "rafael", "sofia", "tiago", "ursula", "vitor", "wanda", "xavier", "yara", "zeca", "amélie", "björn", "chloé", "dário", "émile", "fátima", "günter", "hélène", "iñaki", "jürgen", "kofi", "léa", "maría", "nadège", "otávio", "pía", "rené", "søren", "tomás", "zoë", "aiko", "bao", "chen", "dmitri", "eun", "farah", "giorgos", "hana", "ivan", "jin", "kenji", "lin", "mei", "nikos", "omar", "priya", "ravi", "sakura", "tariq", "uma", "wei", "yusuf", "zainab", "adaeze", "bola", "chidi", "dayo", "emeka", "folake", "gbenga", "halima", "ifeoma", "jide", "kemi", "lola", "musa", "ngozi", "obi", "segun", "tunde", "uche", "wale", "yemi", "zara", "arjun", "bianca", "cyrus", "dalia", "ezra", "freya", "gideon", "hugo", "ines"];
export const lastNames = ["silva", "santos", "oliveira", "souza", "rodrigues", "ferreira", "alves", "pereira", "lima", "gomes", "costa", "ribeiro", "martins", "carvalho", "almeida", "lopes", "soares", "fernandes", "vieira", "barbosa", "rocha", "dias", "nascimento", "andrade", "moreira", "nunes", "marques", "machado", "mendes", "freitas", "cardoso", "ramos", "gonçalves", "santana", "teixeira", "müller", "schmidt", "schneider", "fischer", "weber", "meyer", "wagner", "becker", "schulz", "hoffmann", "dupont", "durand", "lefèvre", "moreau", "laurent", "garcía", "martínez", "lópez", "sánchez", "pérez", "gómez", "díaz", "rossi", "russo", "ferrari", "esposito", "bianchi", "romano", "colombo", "ricci", "nakamura", "tanaka", "suzuki", "watanabe", "ito", "yamamoto", "kobayashi", "kim", "lee", "park", "choi", "jung", "nguyen", "tran", "le", "pham", "hoang", "okafor", "adeyemi", "okonkwo", "mensah", "osei", "boateng", "kowalski", "nowak", "wiśniewski", "novák", "horváth", "papadopoulos", "ivanov", "petrov", "sokolov", "andersen", "nielsen", "hansen", "johansson"];

const hashAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** The scale seed's hashes are not random: `PAT_` and the index in the hashes' base 32, 8 characters (a show's target is known). */
export function scaleHash(index) {
  let text = "";
  for (let rest = index, place = 0; place < 8; place += 1, rest = Math.floor(rest / 32)) text = hashAlphabet[rest % 32] + text;
  return `PAT_${text}`;
}

/** The index-th patient of a scale seed (from 0). */
export function scalePatient(index, start) {
  const first = firstNames[index % firstNames.length];
  const last = lastNames[Math.floor(index / firstNames.length) % lastNames.length];
  const created = new Date(start + index * 60_000);
  return {
    hash: scaleHash(index),
    name: `${first[0].toUpperCase()}${first.slice(1)} ${last[0].toUpperCase()}${last.slice(1)}`,
    cpf: String(10_000_000_000 + index * 7),
    phone: index % 5 === 4 ? null : `+55 11 9${String(index % 10_000).padStart(4, "0")}-${String((index * 13) % 10_000).padStart(4, "0")}`,
    created,
    deleted: index % 50 === 49 ? new Date(created.getTime() + 1000) : null,
  };
}

const stored = (date) => date.toISOString().replace("Z", "+00:00");

export function seedSqlitePatients(path, rows, start) {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    const insert = db.prepare(`INSERT INTO "patients" ("hash", "name", "cpf", "phone", "created_at", "updated_at", "deleted_at") VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const chunk = 100_000;
    for (let from = 0; from < rows; from += chunk)
      db.transaction(() => {
        for (let index = from; index < Math.min(rows, from + chunk); index += 1) {
          const patient = scalePatient(index, start);
          insert.run(patient.hash, patient.name, patient.cpf, patient.phone, stored(patient.created), stored(patient.created), patient.deleted && stored(patient.deleted));
        }
      })();
    db.exec("ANALYZE");
  } finally {
    db.close();
  }
}

const csvField = (value) => (value === null ? "" : /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** COPY in files of a million rows; returns each index's build time in seconds, by name. */
export async function seedPostgresPatients(url, rows, start, scratch, log) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const indexes = (await client.query(`SELECT "indexname", "indexdef" FROM pg_indexes WHERE "tablename" = 'patients' AND "indexname" <> 'patients_pkey'`)).rows;
    for (const { indexname } of indexes) await client.query(`DROP INDEX "${indexname}"`);
    const file = join(scratch, "patients.csv");
    const chunk = 1_000_000;
    for (let from = 0; from < rows; from += chunk) {
      const lines = [];
      for (let index = from; index < Math.min(rows, from + chunk); index += 1) {
        const patient = scalePatient(index, start);
        const created = patient.created.toISOString();
        lines.push([patient.hash, patient.name, patient.cpf, patient.phone, created, created, patient.deleted?.toISOString() ?? null].map(csvField).join(","));
      }
      writeFileSync(file, `${lines.join("\n")}\n`);
      await client.query(`COPY "patients" ("hash", "name", "cpf", "phone", "created_at", "updated_at", "deleted_at") FROM '${file}' WITH (FORMAT csv)`);
      log(`  COPY: ${Math.min(rows, from + chunk)} rows`);
    }
    rmSync(file, { force: true });
    const built = {};
    for (const { indexname, indexdef } of indexes) {
      const started = performance.now();
      await client.query(indexdef);
      built[indexname] = (performance.now() - started) / 1000;
      log(`  ${indexname}: ${built[indexname].toFixed(1)} s`);
    }
    await client.query("VACUUM ANALYZE");
    return built;
  } finally {
    await client.end();
  }
}
