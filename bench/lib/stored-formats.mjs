// How a patient row is stored (SQLite type of each column, and the text format of dates), to
// prove that the seeder and the reference write exactly what Prisma writes.
import Database from "better-sqlite3";
import { isStoredDate } from "../servers/shared/stored-dates.mjs";

export function storedPatientShape(databasePath, hash) {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT * FROM patients WHERE hash = ?").get(hash);
    const types = db.prepare("SELECT typeof(created_at) AS created_at, typeof(updated_at) AS updated_at, typeof(phone) AS phone, typeof(id) AS id FROM patients WHERE hash = ?").get(hash);
    if (!row) return undefined;
    return {
      ...types,
      created_at_format: isStoredDate(row.created_at) ? "prisma-iso8601" : row.created_at,
      updated_at_format: isStoredDate(row.updated_at) ? "prisma-iso8601" : row.updated_at,
      deleted_at: row.deleted_at,
    };
  } finally {
    db.close();
  }
}
