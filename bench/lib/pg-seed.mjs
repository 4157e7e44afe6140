// The PostgreSQL side of seed.mjs: the same admin and patients (same names, cpfs, phones, dates,
// one in 50 soft-deleted) written with `pg` into a migrated template database, copies of it for
// each server (CREATE DATABASE … TEMPLATE), and the revocation and clean-up the verification needs.
import pg from "pg";
import { newHash } from "../servers/shared/hash-id.mjs";
import { hashPassword } from "../servers/shared/passwords.mjs";
import { appointmentStatuses, firstWeek, scheduledSlot, weekMs } from "./list-seed.mjs";
import { admin, loginAccountRows, seededPatient, seedStart, uniqueHashes } from "./seed.mjs";


async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** N patients and the admin into the database at url; returns what seed.mjs's seedDatabase returns. */
export async function seedPostgres(url, patientCount) {
  const passwordHash = await hashPassword(admin.password);
  return withClient(url, async (client) => {
    const now = new Date().toISOString();
    const userHash = newHash("USR");
    await client.query(`INSERT INTO "users" ("hash", "name", "email", "password", "created_at", "updated_at") VALUES ($1, 'Bench Admin', $2, $3, $4, $4)`, [
      userHash,
      admin.email,
      passwordHash,
      now,
    ]);
    for (const account of loginAccountRows()) {
      await client.query(`INSERT INTO "users" ("hash", "name", "email", "password", "created_at", "updated_at") VALUES ($1, $2, $3, $4, $5, $5)`, [account.hash, account.name, account.email, passwordHash, now]);
      await client.query(`INSERT INTO "login_throttles" ("key", "attempts", "reset_at") VALUES ($1, 0, $2)`, [account.knownKey, account.knownUntil]);
    }
    const start = seedStart(patientCount);
    const columns = { hash: [], name: [], cpf: [], phone: [], created: [], deleted: [] };
    const live = [];
    uniqueHashes(patientCount).forEach((hash, index) => {
      const patient = seededPatient(index, start);
      columns.hash.push(hash);
      columns.name.push(patient.name);
      columns.cpf.push(patient.cpf);
      columns.phone.push(patient.phone);
      columns.created.push(patient.created.toISOString());
      columns.deleted.push(patient.deleted?.toISOString() ?? null);
      if (patient.deleted === null) live.push(hash);
    });
    await client.query(
      `INSERT INTO "patients" ("hash", "name", "cpf", "phone", "created_at", "updated_at", "deleted_at")
       SELECT h, n, c, p, t::timestamp, t::timestamp, d::timestamp FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(h, n, c, p, t, d)`,
      [columns.hash, columns.name, columns.cpf, columns.phone, columns.created, columns.deleted],
    );
    // As autovacuum leaves a table some time after a bulk load: statistics for the planner, and a
    // visibility map that lets COUNT(*) and index walks skip the heap (index-only scans).
    await client.query("VACUUM ANALYZE");
    const maxId = (await client.query(`SELECT COALESCE(MAX("id"), 0)::int AS "max" FROM "patients"`)).rows[0].max;
    return {
      userHash,
      liveHashes: live,
      liveCount: live.length,
      maxId,
      firstHash: columns.hash[0],
      firstCpf: columns.cpf[0],
      secondCpf: columns.cpf[1],
    };
  });
}

/** A fresh copy of the template database for one server. */
export async function copyDatabase(adminUrl, template, name) {
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}"`);
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  });
}

export function markRevokedPg(url, jti) {
  return withClient(url, (client) => client.query(`INSERT INTO "revoked_tokens" ("jti", "expires_at") VALUES ($1, $2)`, [jti, new Date(Date.now() + 86_400_000).toISOString()]));
}

/** What a run wrote after seeding removed, so that every server and run lists the same rows. */
export function resetWritesPg(url, seeded) {
  return withClient(url, async (client) => {
    await client.query(`DELETE FROM "patients" WHERE "id" > $1`, [seeded.maxId]);
    await client.query(`DELETE FROM "login_throttles" WHERE "key" NOT LIKE 'known|%'`);
    await client.query(`DELETE FROM "revoked_tokens"`);
  });
}

/** list-seed.mjs's doctors, specialties, links and appointments, into the PostgreSQL database at url. */
export async function seedListsPostgres(url, seeded, { appointments, doctors = 300, specialties = 20, weeks = 52 }) {
  return withClient(url, async (client) => {
    const now = new Date().toISOString();
    await client.query(`UPDATE "users" SET "role" = 'admin'`);
    const specialtyIds = (
      await client.query(
        `INSERT INTO "specialties" ("hash", "name", "created_at", "updated_at") SELECT h, 'Specialty ' || i, $2::timestamp + i * interval '1 millisecond', $2::timestamp FROM unnest($1::text[]) WITH ORDINALITY AS u(h, i) RETURNING "id"`,
        [Array.from({ length: specialties }, () => newHash("SPC")), now],
      )
    ).rows.map((row) => row.id);
    const doctorIds = (
      await client.query(
        `INSERT INTO "doctors" ("hash", "name", "crm", "specialty", "created_at", "updated_at") SELECT h, 'Dr. Bench ' || i, 'CRM-BENCH-' || i, 'general', $2::timestamp + (1000 + i) * interval '1 millisecond', $2::timestamp + (1000 + i) * interval '1 millisecond' FROM unnest($1::text[]) WITH ORDINALITY AS u(h, i) RETURNING "id"`,
        [Array.from({ length: doctors }, () => newHash("DOC")), now],
      )
    ).rows.map((row) => row.id);
    const links = { doctor: [], specialty: [], since: [] };
    doctorIds.forEach((id, index) => {
      for (let offset = 0; offset < 3; offset += 1) {
        links.doctor.push(id);
        links.specialty.push(specialtyIds[(index + offset * 7) % specialtyIds.length]);
        links.since.push(offset === 2 ? null : new Date(Date.UTC(2010 + (index % 10), offset, 1)).toISOString().slice(0, 10));
      }
    });
    await client.query(`INSERT INTO "doctors_specialties" ("doctor_id", "specialty_id", "since") SELECT * FROM unnest($1::int[], $2::int[], $3::date[])`, [
      links.doctor,
      links.specialty,
      links.since,
    ]);
    const patients = (await client.query(`SELECT "id" FROM "patients" WHERE "deleted_at" IS NULL ORDER BY "id"`)).rows.map((row) => row.id);
    const rows = { hash: [], scheduled: [], status: [], notes: [], patient: [], doctor: [], created: [] };
    const start = Date.now() - appointments * 60_000;
    for (let index = 0; index < appointments; index += 1) {
      rows.hash.push(newHash("APT"));
      rows.scheduled.push(new Date(firstWeek + scheduledSlot(index, appointments, weeks)).toISOString());
      rows.status.push(appointmentStatuses[index % 3]);
      rows.notes.push(index % 4 === 0 ? null : `Note ${index}`);
      rows.patient.push(patients[index % patients.length]);
      rows.doctor.push(doctorIds[index % doctorIds.length]);
      rows.created.push(new Date(start + index * 60_000).toISOString());
    }
    await client.query(
      `INSERT INTO "appointments" ("hash", "scheduled_at", "status", "notes", "patient_id", "doctor_id", "created_at", "updated_at")
       SELECT h, s::timestamp, st, n, p, d, c::timestamp, c::timestamp FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[]) AS u(h, s, st, n, p, d, c)`,
      [rows.hash, rows.scheduled, rows.status, rows.notes, rows.patient, rows.doctor, rows.created],
    );
    await client.query("VACUUM ANALYZE");
    const weekStarts = Array.from({ length: weeks }, (_, index) => new Date(firstWeek + index * weekMs).toISOString());
    return { ...seeded, appointments, doctors, weekStarts, weekEnd: (start) => new Date(Date.parse(start) + weekMs).toISOString() };
  });
}
