// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { databaseUrlProblem, ensureDatabaseFolder, explainOpenFailure } from "../db/database.js";
import { openSql } from "../db/driver.js";
import { applyMigrations, MigrationFailed, MigrationRefused } from "../db/migrations.js";

/**
 * - `current`: nothing was pending, or what was is now applied: start the server on it.
 * - `refused`: a migration failed (rolled back) or was refused: the schema is still the one before it.
 * - `unreachable`: the database could not be opened; the server, started anyway, says why.
 */
export type DevelopmentMigration = "current" | "refused" | "unreachable";

/**
 * What `npm run dev` does before each start: applies the pending migrations with the runner of
 * `npm run db:migrate` (one transaction each, the same refusals), printing what it applied or why
 * it could not.
 */
export async function migrateForDevelopment(
  databaseUrl: string,
  /** Where DATABASE_URL came from (settingSource), for the message when it cannot be opened. */
  source: string,
  dir: string,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<DevelopmentMigration> {
  // A URL of the other database (a SQLite URL left in .env after a switch): named, not tried.
  const wrongKind = databaseUrlProblem(databaseUrl, source);
  if (wrongKind) {
    print(wrongKind);
    return "unreachable";
  }
  let db;
  try {
    ensureDatabaseFolder(databaseUrl);
    db = openSql(databaseUrl, 1);
    const report = await applyMigrations(db, dir, { waitForEmpty: true });
    for (const { name, statements, ms } of report.applied)
      print(`Applied ${name} (${statements} statements, ${ms} ms)`);
    if (report.waiting === undefined) return "current";
    print(`${dir}/${report.waiting}/migration.sql is empty: it is applied once it is written.`);
    return "refused";
  } catch (error) {
    if (error instanceof MigrationFailed || error instanceof MigrationRefused) {
      print(error.message);
      return "refused";
    }
    print(explainOpenFailure(databaseUrl, source, error));
    return "unreachable";
  } finally {
    await db?.close().catch(() => undefined);
  }
}
