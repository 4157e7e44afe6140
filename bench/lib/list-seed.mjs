// The data of the list-query benchmark (bench/lists.mjs), on top of seed.mjs's patients and admin:
// the admin made an admin (appointments are owned; admins bypass the scope), doctors with three
// specialties each (a pivot date on every link), and appointments spread over a year with the
// three statuses in turn. Written directly with better-sqlite3 in the formats Prisma writes.
import Database from "better-sqlite3";
import { newHash } from "../servers/shared/hash-id.mjs";
import { toStoredDate } from "../servers/shared/stored-dates.mjs";
import { seedDatabase } from "./seed.mjs";

export const appointmentStatuses = ["scheduled", "completed", "cancelled"];
export const weekMs = 7 * 86_400_000;
// Appointments start on this Monday and fill `weeks` weeks evenly.
export const firstWeek = Date.UTC(2026, 0, 5);

/**
 * When the index-th of `count` appointments is scheduled, in ms after firstWeek: not in the creation
 * order, so that pages by created_at and ranges by scheduled_at touch different rows, as in a clinic.
 */
export function scheduledSlot(index, count, weeks) {
  return Math.floor(((index * 7919) % count) * ((weeks * weekMs) / count));
}

function insertDoctors(db, count, specialtyCount, now) {
  const specialty = db.prepare("INSERT INTO specialties (hash, name, created_at, updated_at) VALUES (?, ?, ?, ?)");
  const specialties = [];
  for (let index = 0; index < specialtyCount; index += 1)
    specialties.push(specialty.run(newHash("SPC"), `Specialty ${index + 1}`, toStoredDate(new Date(Date.parse(now) + index)), now).lastInsertRowid);
  const doctor = db.prepare("INSERT INTO doctors (hash, name, crm, specialty, created_at, updated_at) VALUES (?, ?, ?, 'general', ?, ?)");
  const link = db.prepare("INSERT INTO doctors_specialties (doctor_id, specialty_id, since) VALUES (?, ?, ?)");
  const doctors = [];
  for (let index = 0; index < count; index += 1) {
    const created = toStoredDate(new Date(Date.parse(now) + 1000 + index));
    const id = doctor.run(newHash("DOC"), `Dr. Bench ${index + 1}`, `CRM-BENCH-${index + 1}`, created, created).lastInsertRowid;
    doctors.push(id);
    for (let offset = 0; offset < 3; offset += 1)
      link.run(id, specialties[(index + offset * 7) % specialties.length], offset === 2 ? null : toStoredDate(new Date(Date.UTC(2010 + (index % 10), offset, 1))));
  }
  return doctors;
}

function insertAppointments(db, count, weeks, doctors) {
  const patients = db.prepare("SELECT id FROM patients WHERE deleted_at IS NULL").pluck().all();
  const insert = db.prepare("INSERT INTO appointments (hash, scheduled_at, status, notes, patient_id, doctor_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  const start = Date.now() - count * 60_000;
  for (let index = 0; index < count; index += 1) {
    const created = toStoredDate(new Date(start + index * 60_000));
    const scheduled = toStoredDate(new Date(firstWeek + scheduledSlot(index, count, weeks)));
    insert.run(
      newHash("APT"),
      scheduled,
      appointmentStatuses[index % 3],
      index % 4 === 0 ? null : `Note ${index}`,
      patients[index % patients.length],
      doctors[index % doctors.length],
      created,
      created,
    );
  }
}

/** A seeded copy of the template; returns seed.mjs's figures plus what the list scenarios need. */
export async function seedLists(templatePath, path, { patients, appointments, doctors = 300, specialties = 20, weeks = 52 }) {
  const seeded = await seedDatabase(templatePath, path, patients);
  const db = new Database(path);
  try {
    const now = toStoredDate(new Date());
    db.prepare("UPDATE users SET role = 'admin'").run();
    db.transaction(() => {
      const doctorIds = insertDoctors(db, doctors, specialties, now);
      insertAppointments(db, appointments, weeks, doctorIds);
    })();
  } finally {
    db.close();
  }
  return { ...seeded, ...listFigures({ appointments, doctors, weeks }) };
}

/** What the list scenarios need to know of a database seedLists made (bench/pairs.mjs reads one again). */
export function listFigures({ appointments, doctors, weeks = 52 }) {
  const weekStarts = Array.from({ length: weeks }, (_, index) => new Date(firstWeek + index * weekMs).toISOString());
  return {
    appointments,
    doctors,
    weekStarts,
    weekEnd: (start) => new Date(Date.parse(start) + weekMs).toISOString(),
  };
}
