import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSql as openSqlite } from "../../runtime/sqlite/src/db/driver.js";
import {
  applyMigrations,
  checksumOf,
  MigrationFailed,
  MigrationRefused,
  migrationsPath,
  pendingMigrations,
  resolveMigration,
  splitStatements,
} from "../../runtime/common/src/db/migrations.js";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { caselessIndexSql } from "../../src/migrate/case-insensitive-email.js";
import { adoptionChecks, fillStatement } from "../../src/migrate/fills.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

const init = `CREATE TABLE "owners" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT);
CREATE TABLE "pets" ("id" INTEGER NOT NULL PRIMARY KEY, "owner_id" INTEGER NOT NULL REFERENCES "owners" ("id") ON DELETE CASCADE);
INSERT INTO "owners" ("id", "name") VALUES (1, 'Ann'), (2, NULL);
INSERT INTO "pets" ("id", "owner_id") VALUES (10, 1), (11, 2);`;

// What Prisma writes on SQLite to change a column: a copy of the table, as in `prisma migrate diff`.
const rebuildOwners = (nameColumn: string) => `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_owners" ("id" INTEGER NOT NULL PRIMARY KEY, ${nameColumn});
INSERT INTO "new_owners" ("id", "name") SELECT "id", "name" FROM "owners";
DROP TABLE "owners";
ALTER TABLE "new_owners" RENAME TO "owners";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;`;

function migrationsFolder(migrations: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "hashapi-migrations-"));
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

describe("splitStatements", () => {
  it("splits at semicolons outside quotes and comments", () => {
    expect(splitStatements(`-- a comment; with a semicolon\nCREATE TABLE "a;b" (x TEXT DEFAULT 'it''s; fine');\n/* block; */ DROP TABLE y;\n`)).toEqual([
      `CREATE TABLE "a;b" (x TEXT DEFAULT 'it''s; fine')`,
      "DROP TABLE y",
    ]);
  });

  it("keeps a SQLite trigger's body and a PostgreSQL function's dollar-quoted body whole", () => {
    const sqliteTrigger = `CREATE TRIGGER "t_update" AFTER UPDATE OF "a" ON "t" BEGIN DELETE FROM "x" WHERE rowid = old."id"; INSERT INTO "x" (rowid, "a") VALUES (new."id", new."a"); END`;
    const postgresFunction = `CREATE FUNCTION "f"() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  NEW."a" := COALESCE(NEW."a", 'x;y');\n  RETURN NEW;\nEND $$`;
    const postgresTrigger = `CREATE TRIGGER "f" BEFORE INSERT OR UPDATE ON "t" FOR EACH ROW EXECUTE FUNCTION "f"()`;
    expect(splitStatements(`${sqliteTrigger};\n${postgresFunction};\n${postgresTrigger};\nSELECT $1;\n`)).toEqual([sqliteTrigger, postgresFunction, postgresTrigger, "SELECT $1"]);
  });
});

describe("migrationsPath", () => {
  it("finds prisma/migrations of the project from a module in src/ or dist/, at any depth", () => {
    expect(migrationsPath(pathToFileURL("/app/dist/server.js").href)).toBe("/app/prisma/migrations");
    expect(migrationsPath(pathToFileURL("/app/dist/scripts/migrate.js").href)).toBe("/app/prisma/migrations");
    expect(migrationsPath(pathToFileURL("/app/src/app.ts").href)).toBe("/app/prisma/migrations");
    expect(migrationsPath(pathToFileURL("/app/test/support.ts").href)).toBe("/app/prisma/migrations");
  });
});

interface Target {
  name: string;
  open(): Promise<Sql>;
}

// Loaded by path at run time: the PostgreSQL runtime is type-checked on its own (runtime/tsconfig.postgresql.json).
const postgresDriver = "../../runtime/postgresql/src/db/driver.js";
const openPostgres = async (url: string, poolSize: number) =>
  ((await import(postgresDriver)) as { openSql: typeof openSqlite }).openSql(url, poolSize);

const targets: Target[] = [];
let postgres: PostgresServer | undefined;
let databases = 0;
const scratch = mkdtempSync(join(tmpdir(), "hashapi-migrate-db-"));
targets.push({ name: "SQLite", open: async () => openSqlite(`file:${join(scratch, `db-${(databases += 1)}.db`)}`) });
if (postgresBinDir()) targets.push({
  name: "PostgreSQL",
  open: async () => {
    const name = `db_${(databases += 1)}`;
    await postgres!.createDatabase(name);
    return openPostgres(postgres!.url(name), 1);
  },
});

beforeAll(async () => {
  if (postgresBinDir()) postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

describe.each(targets)("applyMigrations on $name", (target) => {
  const rows = async (db: Sql, table: string) => db.all(`SELECT * FROM "${table}" ORDER BY "id"`);

  it("applies what is pending, in order, records Prisma's checksums, and is a no-op the second time", async () => {
    const dir = migrationsFolder({ "0001_init": init, "0002_more": `ALTER TABLE "owners" ADD COLUMN "email" TEXT;` });
    const db = await target.open();
    try {
      expect(await pendingMigrations(db, dir)).toEqual(["0001_init", "0002_more"]);
      const first = await applyMigrations(db, dir);
      expect(first.applied.map((entry) => entry.name)).toEqual(["0001_init", "0002_more"]);
      const records = await db.all(`SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" ORDER BY "migration_name"`);
      expect(records.map((record) => [record.migration_name, record.checksum])).toEqual([
        ["0001_init", checksumOf(init)],
        ["0002_more", checksumOf(`ALTER TABLE "owners" ADD COLUMN "email" TEXT;`)],
      ]);
      expect(records.every((record) => record.finished_at !== null)).toBe(true);
      expect(await applyMigrations(db, dir)).toMatchObject({ applied: [], upToDate: 2 });
      expect(await pendingMigrations(db, dir)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("refuses the case-insensitive e-mail index while users differ only in case, listing them, and enforces it once applied", async () => {
    const users = `CREATE TABLE "users" ("id" INTEGER NOT NULL PRIMARY KEY, "email" TEXT NOT NULL UNIQUE);
INSERT INTO "users" ("id", "email") VALUES (1, 'Ana@Example.com'), (2, 'ana@example.com'), (3, 'bo@example.com');`;
    const dir = migrationsFolder({ "0001_init": users, "0002_email_unique_regardless_of_case": caselessIndexSql({ name: "users_email_lower_key", table: "users", column: "email" }, target.name === "SQLite" ? "sqlite" : "postgresql") });
    const db = await target.open();
    try {
      const refused = await applyMigrations(db, dir).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(MigrationRefused);
      expect((refused as Error).message).toMatch(/^Migration 0002_email_unique_regardless_of_case was not applied\. Users whose e-mails differ only in case/);
      expect((refused as Error).message).toMatch(/e-mails: (Ana@Example\.com, ana@example\.com|ana@example\.com, Ana@Example\.com)/);
      expect((refused as Error).message).not.toMatch(/bo@example/);
      expect(await pendingMigrations(db, dir)).toEqual(["0002_email_unique_regardless_of_case"]);
      // The owner decides: one of the two goes; then the index is built and holds.
      await db.run(`DELETE FROM "users" WHERE "id" = 1`);
      expect((await applyMigrations(db, dir)).applied.map((entry) => entry.name)).toEqual(["0002_email_unique_regardless_of_case"]);
      await expect(db.run(`INSERT INTO "users" ("id", "email") VALUES (4, 'ANA@example.COM')`)).rejects.toThrow();
      await db.run(`INSERT INTO "users" ("id", "email") VALUES (5, 'cy@example.com')`);
    } finally {
      await db.close();
    }
  });

  it("refuses a resource's e-mail index regardless of case while rows differ only in case, naming the table, column and values", async () => {
    const members = `CREATE TABLE "members" ("id" INTEGER NOT NULL PRIMARY KEY, "contact" TEXT UNIQUE);
INSERT INTO "members" ("id", "contact") VALUES (1, 'Case.Test@Example.COM'), (2, 'case.test@example.com'), (3, NULL), (4, NULL), (5, 'x@example.com');`;
    const index = { name: "members_contact_lower_key", table: "members", column: "contact" };
    const dir = migrationsFolder({ "0001_init": members, "0002_contact_regardless_of_case": caselessIndexSql(index, target.name === "SQLite" ? "sqlite" : "postgresql") });
    const db = await target.open();
    try {
      const refused = await applyMigrations(db, dir).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(MigrationRefused);
      expect((refused as Error).message).toMatch(/Rows of members whose contact differ only in case must be told apart/);
      expect((refused as Error).message).toMatch(/contact: (Case\.Test@Example\.COM, case\.test@example\.com|case\.test@example\.com, Case\.Test@Example\.COM)/);
      await db.run(`UPDATE "members" SET "contact" = 'other@example.com' WHERE "id" = 1`);
      expect((await applyMigrations(db, dir)).applied.map((entry) => entry.name)).toEqual(["0002_contact_regardless_of_case"]);
      await expect(db.run(`INSERT INTO "members" ("id", "contact") VALUES (6, 'X@EXAMPLE.com')`)).rejects.toThrow();
      // Rows without a value are not values that clash.
      await db.run(`INSERT INTO "members" ("id", "contact") VALUES (7, NULL)`);
    } finally {
      await db.close();
    }
  });

  it("refuses tenancy.adopt naming a tenant no row holds, before anything is written; fills every row once it is stored", async () => {
    const init = `CREATE TABLE "teams" ("id" INTEGER NOT NULL PRIMARY KEY, "hash" TEXT NOT NULL UNIQUE);
CREATE TABLE "projects" ("id" INTEGER NOT NULL PRIMARY KEY, "title" TEXT NOT NULL);
INSERT INTO "projects" ("id", "title") VALUES (1, 'Engine'), (2, 'Wheels');`;
    const provider = target.name === "SQLite" ? "sqlite" : "postgresql";
    const column = { table: "projects", column: "tenant_id", added: true, fill: { table: "projects", column: "tenant_id", type: "tenant" as const, value: "TEM_7KX9MQ2B", tenants: "teams" } };
    const adopt = [`ALTER TABLE "projects" ADD COLUMN "tenant_id" INTEGER;`, ...adoptionChecks([column]), fillStatement(column, provider)].join("\n");
    const dir = migrationsFolder({ "0001_init": init, "0002_adopt": adopt });
    const db = await target.open();
    try {
      const refused = await applyMigrations(db, dir).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(MigrationRefused);
      expect((refused as Error).message).toMatch(/^Migration 0002_adopt was not applied\. tenancy\.adopt names a record no row of teams holds[\s\S]*tenancy\.adopt: TEM_7KX9MQ2B/);
      expect(await db.all(`SELECT * FROM "projects" ORDER BY "id"`)).toEqual([{ id: 1, title: "Engine" }, { id: 2, title: "Wheels" }]);
      await db.run(`INSERT INTO "teams" ("id", "hash") VALUES (7, 'TEM_7KX9MQ2B')`);
      expect((await applyMigrations(db, dir)).applied.map((entry) => entry.name)).toEqual(["0002_adopt"]);
      expect((await db.all(`SELECT "tenant_id" FROM "projects"`)).map((row) => Number(row.tenant_id))).toEqual([7, 7]);
    } finally {
      await db.close();
    }
  });

  it("rolls a failing migration back whole, naming it and its statement, and records nothing", async () => {
    const failing = target.name === "SQLite" ? rebuildOwners(`"name" TEXT NOT NULL`) : `ALTER TABLE "owners" ADD COLUMN "age" INTEGER;\nALTER TABLE "owners" ALTER COLUMN "name" SET NOT NULL;`;
    const dir = migrationsFolder({ "0001_init": init, "0002_require_name": failing });
    const db = await target.open();
    try {
      const error = await applyMigrations(db, dir).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MigrationFailed);
      expect((error as MigrationFailed).migration).toBe("0002_require_name");
      expect((error as Error).message).toMatch(/rolled back: the database is as it was before it/);
      expect((error as MigrationFailed).statement).toMatch(target.name === "SQLite" ? /^INSERT INTO "new_owners"/ : /SET NOT NULL/);
      expect((error as MigrationFailed).reason).toMatch(/NOT NULL|null value/i);
      // 0001 stays applied; 0002 left no table, no column and no record behind.
      expect(await pendingMigrations(db, dir)).toEqual(["0002_require_name"]);
      expect(await rows(db, "owners")).toEqual([{ id: 1, name: "Ann" }, { id: 2, name: null }]);
      const tables = target.name === "SQLite" ? await db.all(`SELECT name FROM sqlite_master WHERE name = 'new_owners'`) : [];
      expect(tables).toEqual([]);
      expect(await db.all(`SELECT * FROM "_prisma_migrations" WHERE "migration_name" = '0002_require_name'`)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it.runIf(target.name === "SQLite")("rebuilds a parent table without cascading deletes to its children, and keeps foreign keys on afterwards", async () => {
    const dir = migrationsFolder({ "0001_init": init, "0002_widen": rebuildOwners(`"name" VARCHAR(200)`) });
    const db = await target.open();
    try {
      await applyMigrations(db, dir);
      expect(await rows(db, "pets")).toEqual([{ id: 10, owner_id: 1 }, { id: 11, owner_id: 2 }]);
      expect(await db.get("PRAGMA foreign_keys")).toEqual({ foreign_keys: 1 });
    } finally {
      await db.close();
    }
  });

  it.runIf(target.name === "SQLite")("refuses to commit a migration that leaves rows pointing at nothing", async () => {
    const dir = migrationsFolder({ "0001_init": init, "0002_orphans": `PRAGMA foreign_keys=OFF;\nDELETE FROM "owners" WHERE "id" = 2;` });
    const db = await target.open();
    try {
      const error = await applyMigrations(db, dir).catch((caught: unknown) => caught);
      expect((error as MigrationFailed).reason).toMatch(/1 row\(s\) would point at rows that do not exist/);
      expect(await rows(db, "owners")).toHaveLength(2);
    } finally {
      await db.close();
    }
  });

  it("refuses a migration changed after it was applied, and one a crashed deploy left failed until it is resolved", async () => {
    const dir = migrationsFolder({ "0001_init": init });
    const db = await target.open();
    try {
      await applyMigrations(db, dir);
      writeFileSync(join(dir, "0001_init", "migration.sql"), `${init}\n-- edited`);
      await expect(applyMigrations(db, dir)).rejects.toThrow(/0001_init changed after it was applied/);
      writeFileSync(join(dir, "0001_init", "migration.sql"), init);

      // What `prisma migrate deploy` leaves after a failure: a record with neither finished_at nor rolled_back_at.
      mkdirSync(join(dir, "0002_broken"));
      writeFileSync(join(dir, "0002_broken", "migration.sql"), `ALTER TABLE "owners" ADD COLUMN "nickname" TEXT;`);
      await db.run(`INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "applied_steps_count") VALUES ('crashed', 'x', '0002_broken', 0)`);
      expect(await pendingMigrations(db, dir)).toEqual(["0002_broken"]);
      await expect(applyMigrations(db, dir)).rejects.toThrow(MigrationRefused);
      await expect(applyMigrations(db, dir)).rejects.toThrow(/npm run db:resolve -- --rolled-back 0002_broken/);
      await expect(resolveMigration(db, "0001_init", "rolled-back", dir)).rejects.toThrow(/not a failed migration/);
      await resolveMigration(db, "0002_broken", "rolled-back", dir);
      expect((await applyMigrations(db, dir)).applied.map((entry) => entry.name)).toEqual(["0002_broken"]);
      expect(await pendingMigrations(db, dir)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe("applyMigrations while another process writes to the SQLite file", () => {
  it("waits for the writer's lock instead of failing", async () => {
    const path = join(scratch, "busy.db");
    const dir = migrationsFolder({ "0001_init": init });
    const holder = new Worker(
      `const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve("better-sqlite3"))});
       const db = new Database(${JSON.stringify(path)});
       db.pragma("journal_mode = WAL");
       db.exec("CREATE TABLE held (x)");
       db.exec("BEGIN IMMEDIATE");
       db.exec("INSERT INTO held VALUES (1)");
       require("node:worker_threads").parentPort.postMessage("locked");
       setTimeout(() => { db.exec("COMMIT"); db.close(); }, 700);`,
      { eval: true },
    );
    await new Promise((resolve) => holder.once("message", resolve));
    const db = openSqlite(`file:${path}`);
    try {
      const started = Date.now();
      expect((await applyMigrations(db, dir)).applied).toHaveLength(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    } finally {
      await db.close();
      await holder.terminate();
    }
  });
});
