// Seeds a copy of the migrated template directly with better-sqlite3, in exactly the formats
// Prisma writes (dates as "…+00:00" text, see servers/shared/stored-dates.mjs): N patients, a few
// of them soft-deleted, and one admin user whose password has the service's scrypt format.
import { copyFileSync } from "node:fs";
import Database from "better-sqlite3";
import { newHash } from "../servers/shared/hash-id.mjs";
import { hashPassword } from "../servers/shared/passwords.mjs";
import { toStoredDate } from "../servers/shared/stored-dates.mjs";
import { removeDatabase } from "./prepare-project.mjs";

/** The credentials of the seeded user (the login body). */
export const admin = { email: "admin@example.com", password: "bench-password-0123" };
const adminName = "Bench Admin";

/**
 * The accounts the login row signs in with, one per connection (scenarios.mjs): more than the row's
 * connections (at most 16), so that no account has more than one login under way and the row
 * measures a login, not the throttle (5 attempts a minute per e-mail and address, counted before the
 * password is checked). Each logged in before from the bench's address (a known-good pair, as
 * `npm run` users who come back are), so that only its own counter applies. One password hash for
 * all of them: the bench measures the check, not the seed.
 */
export const loginAccountCount = 64;
export const loginAccount = (index) => ({ email: `login-${index % loginAccountCount}@example.com`, password: admin.password });
const benchAddress = "127.0.0.1";
const knownGoodDays = 30;

/** The login accounts' rows, and the known-good rows of the service's throttle (src/auth/login-throttle.ts). */
export function loginAccountRows() {
  const knownUntil = new Date(Date.now() + knownGoodDays * 86_400_000);
  return Array.from({ length: loginAccountCount }, (_, index) => {
    const { email } = loginAccount(index);
    return { hash: newHash("USR"), name: `Login ${index}`, email, knownKey: `known|${email}|${benchAddress}`, knownUntil };
  });
}
// Seeded cpfs are 1xxxxxxxxxx; the ones the load creates start elsewhere (see scenarios.mjs).
const firstSeededCpf = 10_000_000_000;
// One patient in 50 is soft-deleted: lists and shows must skip them, as in a real table.
const deletedEvery = 50;

export function uniqueHashes(count) {
  const hashes = new Set();
  while (hashes.size < count) hashes.add(newHash("PAT"));
  return [...hashes];
}

/** When the first of `count` seeded patients was created: one a minute, ending a day ago. */
export function seedStart(count) {
  return Date.now() - count * 60_000 - 86_400_000;
}

/** The index-th seeded patient (from 0), whatever the database: names, cpfs, phones, dates, one in 50 deleted. */
export function seededPatient(index, start) {
  return {
    name: `Patient ${index + 1}`,
    cpf: String(firstSeededCpf + index),
    phone: index % 5 === 4 ? null : `+55 11 9${String(index).padStart(4, "0").slice(-4)}-${String(index * 7).padStart(4, "0").slice(-4)}`,
    created: new Date(start + index * 60_000),
    deleted: index % deletedEvery === deletedEvery - 1 ? new Date(start + index * 60_000 + 1000) : null,
  };
}

export async function seedDatabase(templatePath, path, patientCount) {
  await removeDatabase(path);
  copyFileSync(templatePath, path);
  const passwordHash = await hashPassword(admin.password);
  const db = new Database(path);
  try {
    const start = seedStart(patientCount);
    const now = toStoredDate(new Date());
    const userHash = newHash("USR");
    const addUser = db.prepare("INSERT INTO users (hash, name, email, password, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
    addUser.run(userHash, adminName, admin.email, passwordHash, now, now);
    const known = db.prepare("INSERT INTO login_throttles (key, attempts, reset_at) VALUES (?, 0, ?)");
    for (const account of loginAccountRows()) {
      addUser.run(account.hash, account.name, account.email, passwordHash, now, now);
      known.run(account.knownKey, toStoredDate(account.knownUntil));
    }
    const insert = db.prepare("INSERT INTO patients (hash, name, cpf, phone, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    const hashes = uniqueHashes(patientCount);
    const live = [];
    db.transaction(() => {
      hashes.forEach((hash, index) => {
        const patient = seededPatient(index, start);
        const created = toStoredDate(patient.created);
        insert.run(hash, patient.name, patient.cpf, patient.phone, created, created, patient.deleted && toStoredDate(patient.deleted));
        if (patient.deleted === null) live.push(hash);
      });
    })();
    const maxId = db.prepare("SELECT MAX(id) FROM patients").pluck().get() ?? 0;
    return {
      userHash,
      liveHashes: live,
      liveCount: live.length,
      maxId,
      firstHash: hashes[0],
      firstCpf: String(firstSeededCpf),
      secondCpf: String(firstSeededCpf + 1),
    };
  } finally {
    db.close();
  }
}

/** Removes what a run wrote after seeding, so that every server and round lists the same rows. */
export function resetWrites(path, seeded) {
  const db = new Database(path);
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare("DELETE FROM patients WHERE id > ?").run(seeded.maxId);
    // The known-good pairs of the login accounts stay (see loginAccountCount).
    db.prepare("DELETE FROM login_throttles WHERE key NOT LIKE 'known|%'").run();
    db.prepare("DELETE FROM revoked_tokens").run();
  } finally {
    db.close();
  }
}

/** A token id marked revoked in this database, for the verification's revoked-token case. */
export function markRevoked(path, jti) {
  const db = new Database(path);
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare("INSERT INTO revoked_tokens (jti, expires_at) VALUES (?, ?)").run(jti, toStoredDate(new Date(Date.now() + 86_400_000)));
  } finally {
    db.close();
  }
}
