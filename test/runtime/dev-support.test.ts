import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { migrateForDevelopment } from "../../runtime/common/src/app/dev-migrations.js";
import { runMigrateCommand } from "../../runtime/common/src/app/migrate-command.js";
import { appliedMarkerPath } from "../../runtime/common/src/db/migrations.js";
import { readSetting } from "../../runtime/common/src/base/project-files.js";
import { afterWorkerExit, maxFailedStarts, workerCount, type StartRecord } from "../../runtime/common/src/app/supervisor.js";
import { runUserCreateCommand } from "../../runtime/common/src/app/user-create.js";
import { openSql } from "../../runtime/sqlite/src/db/driver.js";
import { eventsTableStatement } from "../support/events-table.js";

/** A project folder of its own: prisma/migrations with the given migrations, and a module URL inside src/. */
function project(migrations: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "hashapi-dev-"));
  const dir = join(root, "prisma/migrations");
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, "migration.sql"), sql);
  }
  mkdirSync(dir, { recursive: true });
  return { root, dir, url: `file:${join(root, "data/app.db")}`, moduleUrl: pathToFileURL(join(root, "src/lib/module.ts")).href };
}

const users = `CREATE TABLE "users" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "hash" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "email" TEXT NOT NULL UNIQUE, "password" TEXT NOT NULL, "role" TEXT NOT NULL DEFAULT 'clerk', "created_at" DATETIME NOT NULL, "updated_at" DATETIME NOT NULL);`;
const access = { roles: ["admin", "clerk"], defaultRole: "clerk", passwords: { min: 8 } };

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe("migrateForDevelopment (what npm run dev does before each start)", () => {
  it("applies what is pending, says so, and creates the SQLite folder", async () => {
    const { root, dir, url } = project({ "0001_init": users });
    folders.push(root);
    const lines: string[] = [];
    expect(await migrateForDevelopment(url, "the default", dir, (line) => lines.push(line))).toBe("current");
    expect(lines).toEqual([expect.stringMatching(/^Applied 0001_init \(1 statements, \d+ ms\)$/)]);
    expect(await migrateForDevelopment(url, "the default", dir, (line) => lines.push(line))).toBe("current");
    expect(lines).toHaveLength(1);
    // Not the hand-run command: no marker, so the dev server does not restart twice for one migration.
    expect(existsSync(appliedMarkerPath(dir))).toBe(false);
  });

  it("a failing migration is rolled back and reported as refused", async () => {
    const { root, dir, url } = project({ "0001_init": users, "0002_bad": `CREATE TABLE "a" ("id" INTEGER);\nSELECT "nope" FROM "nowhere";` });
    folders.push(root);
    const lines: string[] = [];
    expect(await migrateForDevelopment(url, "the default", dir, (line) => lines.push(line))).toBe("refused");
    expect(lines.join("\n")).toMatch(/Migration 0002_bad failed and was rolled back/);
    const db = openSql(url);
    expect(await db.all(`SELECT "name" FROM sqlite_master WHERE "name" = 'a'`)).toEqual([]);
    await db.close();
  });

  it("waits for a migration file that is still empty (being written), and applies it once written", async () => {
    const { root, dir, url } = project({ "0001_init": users, "0002_notes": "" });
    folders.push(root);
    const lines: string[] = [];
    expect(await migrateForDevelopment(url, "the default", dir, (line) => lines.push(line))).toBe("refused");
    expect(lines).toEqual([expect.stringMatching(/^Applied 0001_init/), `${dir}/0002_notes/migration.sql is empty: it is applied once it is written.`]);
    writeFileSync(join(dir, "0002_notes", "migration.sql"), `CREATE TABLE "notes" ("id" INTEGER);`);
    expect(await migrateForDevelopment(url, "the default", dir, (line) => lines.push(line))).toBe("current");
    expect(lines[2]).toMatch(/^Applied 0002_notes \(1 statements, \d+ ms\)$/);
    // npm run db:migrate applies an empty migration as Prisma does: a no-op, recorded.
    const empty = project({ "0001_init": users, "0002_nothing": "" });
    folders.push(empty.root);
    vi.spyOn(process.stdout, "write").mockReturnValue(true);
    expect(await runMigrateCommand(["migrate"], empty.url, empty.dir)).toBe(0);
  });

  it("a database it cannot open is 'unreachable', explained with where DATABASE_URL came from", async () => {
    const { root, dir } = project({});
    folders.push(root);
    // The database's folder cannot be made: a file stands where it should be.
    writeFileSync(join(root, "data"), "");
    const url = `file:${join(root, "data/app.db")}`;
    const lines: string[] = [];
    expect(await migrateForDevelopment(url, ".env", dir, (line) => lines.push(line))).toBe("unreachable");
    expect(lines[0]).toContain(`Cannot open the database at DATABASE_URL (${url}, from .env)`);
  });
});

describe("npm run dev names a URL of the other database instead of migrating it", () => {
  it("prints the URL's problem (source, expected form) and applies nothing", async () => {
    const { root, dir } = project({ "0001_init": users });
    folders.push(root);
    const lines: string[] = [];
    expect(await migrateForDevelopment("postgresql://localhost:5432/app", ".env", dir, (line) => lines.push(line))).toBe("unreachable");
    expect(lines).toEqual([expect.stringMatching(/^DATABASE_URL \(from \.env\) must be a SQLite URL such as "file:\.\/data\/app\.db"/)]);
  });
});

describe("npm run db:migrate names the URL it was given, where it came from, and what to do", () => {
  it("refuses a URL of the other database, and explains one it cannot open", async () => {
    const { root, dir } = project({ "0001_init": users });
    folders.push(root);
    const errors: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((text) => errors.push(String(text)) > 0);
    // This project is SQLite: a PostgreSQL URL left in .env after switching back is named, not tried.
    expect(await runMigrateCommand(["migrate"], "postgresql://app:secret@localhost:5432/app", dir, ".env")).toBe(1);
    expect(errors.join("")).toMatch(/^DATABASE_URL \(from \.env\) must be a SQLite URL such as "file:\.\/data\/app\.db": this project's database is SQLite \(`database:` in hashapi\.yaml\); got "postgresql:\/\/app:\*\*\*@localhost:5432\/app"/);
    errors.length = 0;
    // A file where the database's folder should be: the URL, its source and the reason, in one line.
    writeFileSync(join(root, "blocked"), "");
    const url = `file:${join(root, "blocked/app.db")}`;
    expect(await runMigrateCommand(["migrate"], url, dir, "the environment")).toBe(1);
    expect(errors.join("")).toMatch(new RegExp(`^Cannot open the database at DATABASE_URL \\(${url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}, from the environment\\): `));
  });
});

describe("npm run db:migrate tells a running npm run dev", () => {
  it("rewrites the marker after it applied something, not when nothing was pending", async () => {
    const { root, dir, url } = project({ "0001_init": users });
    folders.push(root);
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    expect(await runMigrateCommand(["migrate"], url, dir)).toBe(0);
    const marker = appliedMarkerPath(dir);
    expect(marker).toBe(join(root, "node_modules/.cache/hashapi/migrations-applied"));
    const first = readFileSync(marker, "utf8");
    rmSync(marker);
    expect(await runMigrateCommand(["migrate"], url, dir)).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe("readSetting", () => {
  it("reads .env without changing process.env; the environment wins and is named", () => {
    const { root, moduleUrl } = project({});
    folders.push(root);
    writeFileSync(join(root, ".env"), "HASHAPI_TEST_SETTING=from-file\n");
    expect(readSetting(moduleUrl, "HASHAPI_TEST_SETTING")).toEqual({ value: "from-file", source: ".env" });
    expect(process.env.HASHAPI_TEST_SETTING).toBeUndefined();
    process.env.HASHAPI_TEST_SETTING = "from-environment";
    try {
      expect(readSetting(moduleUrl, "HASHAPI_TEST_SETTING")).toEqual({ value: "from-environment", source: "the environment" });
    } finally {
      delete process.env.HASHAPI_TEST_SETTING;
    }
    expect(readSetting(moduleUrl, "HASHAPI_TEST_UNSET")).toEqual({ value: undefined, source: "the default" });
  });
});

describe("the supervisor's decisions", () => {
  const fresh: StartRecord = { diedBeforeListening: 0, failedStarts: 0 };

  it("doubles the delay for each worker in a row that died before listening, up to 8 s", () => {
    let record = fresh;
    const delays: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      const next = afterWorkerExit(record, { served: false, signal: "SIGKILL" });
      delays.push(next.delayMs);
      expect(next.stop).toBe(false);
      record = next.record;
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("stops after maxFailedStarts exits with an error code in a row; signals never count", () => {
    let record = fresh;
    for (let index = 1; index < maxFailedStarts; index += 1) {
      record = afterWorkerExit(record, { served: false, signal: null }).record;
      record = afterWorkerExit(record, { served: false, signal: "SIGKILL" }).record;
    }
    expect(record.failedStarts).toBe(maxFailedStarts - 1);
    expect(afterWorkerExit(record, { served: false, signal: "SIGTERM" }).stop).toBe(false);
    expect(afterWorkerExit(record, { served: false, signal: null }).stop).toBe(true);
  });

  it("replaces a worker that had served at once, without counting it", () => {
    const record = { diedBeforeListening: 3, failedStarts: 2 };
    expect(afterWorkerExit(record, { served: true, signal: null })).toEqual({ record, stop: false, delayMs: 0 });
  });

  it("runs WEB_CONCURRENCY workers, else one per core in production and one elsewhere", () => {
    expect(workerCount({ WEB_CONCURRENCY: "3" })).toBe(3);
    expect(workerCount({ WEB_CONCURRENCY: "zero", NODE_ENV: "development" })).toBe(1);
    expect(workerCount({ NODE_ENV: "production" })).toBeGreaterThanOrEqual(1);
    expect(workerCount({ WEB_CONCURRENCY: "-2" })).toBe(1);
  });
});

describe("npm run user:create", () => {
  const quiet = () => {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((text) => (out.push(String(text)), true));
    vi.spyOn(process.stderr, "write").mockImplementation((text) => (err.push(String(text)), true));
    return { out, err };
  };

  it("stores the user as the API would (trimmed, NFC, e-mail lower-cased) and prints its public id", async () => {
    const { root, dir, url } = project({ "0001_init": `${users}\n${eventsTableStatement("sqlite")};` });
    folders.push(root);
    const { out, err } = quiet();
    await runMigrateCommand(["migrate"], url, dir);
    out.length = 0;
    const args = ["--name", "  Jose\u0301 ", "--email", " Jose@Example.COM ", "--password", " a long password "];
    expect(await runUserCreateCommand(args, url, "the default", access)).toBe(0);
    expect(out.join("")).toMatch(/^USR_[A-HJ-NP-Z2-9]{8}\n$/);
    const db = openSql(url);
    const [row] = await db.all(`SELECT "hash", "name", "email", "password", "role" FROM "users"`);
    await db.close();
    expect(row).toMatchObject({ hash: out.join("").trim(), name: "José", email: "jose@example.com", role: "clerk" });
    // Its event, written with it (no actor: a script), holds no password.
    const check = openSql(url);
    const events = await check.all(`SELECT "type", "record_hash", "actor_hash", "changes" FROM "hashapi_events"`);
    await check.close();
    expect(events).toEqual([{ type: "user.created", record_hash: row!.hash, actor_hash: null, changes: JSON.stringify({ name: [null, "José"], email: [null, "jose@example.com"], role: [null, "clerk"] }) }]);
    expect(await runUserCreateCommand(args, url, "the default", access)).toBe(1);
    expect(err.join("")).toContain("a user with e-mail jose@example.com already exists");
    const admin = ["--name", "Ann", "--email", "ann@example.com", "--password", "a long password", "--role", "admin"];
    expect(await runUserCreateCommand(admin, url, "the default", access)).toBe(0);
    const again = openSql(url);
    expect(await again.all(`SELECT "role" FROM "users" WHERE "email" = 'ann@example.com'`)).toEqual([{ role: "admin" }]);
    await again.close();
    expect(await runUserCreateCommand([...admin.slice(0, -1), "owner"], url, "the default", access)).toBe(2);
    expect(err.join("")).toContain('unknown role "owner": one of admin, clerk');
  });

  it("refuses bad arguments with the usage (exit 2) and an unmigrated database with the way forward (exit 1)", async () => {
    const { root, url } = project({});
    folders.push(root);
    const { err } = quiet();
    expect(await runUserCreateCommand(["--name", "Ann"], url, "the default", access)).toBe(2);
    expect(await runUserCreateCommand(["--bogus"], url, "the default", access)).toBe(2);
    expect(await runUserCreateCommand(["--name", "Ann", "--email", "not-an-address", "--password", "a long password"], url, "the default", access)).toBe(2);
    expect(await runUserCreateCommand(["--name", "Ann", "--email", "ann@example.com", "--password", "short"], url, "the default", access)).toBe(2);
    expect(err.join("")).toContain("usage: npm run user:create");
    mkdirSync(join(root, "data"));
    expect(await runUserCreateCommand(["--name", "Ann", "--email", "ann@example.com", "--password", "a long password"], url, "the default", access)).toBe(1);
    expect(err.join("")).toContain("The database has no users table yet: run `npm run db:migrate` first.");
  });
});
