// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase, databaseDialect } from "./database.js";
import { applyMigrations, migrationsPath } from "./migrations.js";
import { loadEnvironment } from "../base/project-files.js";

/** A database the project's tests own for one run, with every migration applied. */
export interface TestDatabase {
  url: string;
  /** Removes it: the SQLite file's folder, or the PostgreSQL schema. */
  cleanup(): Promise<void>;
}

/** `url` with its connections' search_path set to `schema` (node-postgres passes `options` on). */
function inSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

/**
 * An empty database for one test run, migrated by the project's own migrator (npm run db:migrate):
 * on SQLite a file in a temporary folder; on PostgreSQL a schema of its own in TEST_DATABASE_URL's
 * database, dropped afterwards, so every run starts empty and runs side by side never meet.
 */
export async function freshTestDatabase(moduleUrl: string): Promise<TestDatabase> {
  let url: string;
  let remove: () => Promise<void>;
  if (databaseDialect.embedded) {
    const dir = mkdtempSync(join(tmpdir(), "hashapi-test-"));
    url = `file:${join(dir, "test.db")}`;
    remove = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    loadEnvironment(moduleUrl);
    const base = process.env.TEST_DATABASE_URL;
    if (!base)
      throw new Error(
        `Set TEST_DATABASE_URL (in .env or the environment) to a ${databaseDialect.url.label} database the tests may use, e.g. ${databaseDialect.url.example}_test: each run works in a schema of its own and drops it.`,
      );
    const schema = `test_${randomUUID().replaceAll("-", "")}`;
    const owner = await connectDatabase(base, 1);
    await owner.exec(`CREATE SCHEMA "${schema}"`);
    url = inSchema(base, schema);
    remove = async () => {
      try {
        await owner.exec(`DROP SCHEMA "${schema}" CASCADE`);
      } finally {
        await owner.close();
      }
    };
  }
  const db = await connectDatabase(url, 1);
  try {
    await applyMigrations(db, migrationsPath(moduleUrl));
  } catch (error) {
    await remove();
    throw error;
  } finally {
    await db.close();
  }
  return { url, cleanup: remove };
}
