import { describe, expect, it } from "vitest";
import { databaseUrlProblem, explainOpenFailure, printableUrl } from "../../runtime/common/src/db/database.js";
import { settingSource } from "../../runtime/common/src/base/project-files.js";
import type { SqlDialect } from "../../runtime/common/src/db/sql.js";

// The PostgreSQL runtime compiles with its own tsconfig (runtime/tsconfig.postgresql.json): loaded by path.
const postgresDialect = "../../runtime/postgresql/src/db/dialect.js";
const { dialect: postgresql } = (await import(postgresDialect)) as { dialect: SqlDialect };

/** What a user reads when the database cannot be opened or is of the wrong kind (issue 21). */
describe("database start-up messages (runtime/common/src/db/database.ts)", () => {
  it("masks a password in a URL, and leaves other URLs alone", () => {
    expect(printableUrl("postgresql://app:s3cret@db:5432/app")).toBe("postgresql://app:***@db:5432/app");
    expect(printableUrl("postgresql://app@db:5432/app")).toBe("postgresql://app@db:5432/app");
    expect(printableUrl("file:./data/app.db")).toBe("file:./data/app.db");
  });

  it("tells where a setting came from", () => {
    expect(settingSource("DATABASE_URL", new Set(["DATABASE_URL"]), { DATABASE_URL: "x" })).toBe(".env");
    expect(settingSource("DATABASE_URL", new Set(), { DATABASE_URL: "x" })).toBe("the environment");
    expect(settingSource("DATABASE_URL", new Set(), {})).toBe("the default");
  });

  it("sends a SQLite file whose folder does not exist to `npm run db:migrate`", () => {
    const line = explainOpenFailure("file:./data/app.db", "the default", new TypeError("Cannot open database because the directory does not exist"));
    expect(line).toBe("Cannot open the database at DATABASE_URL (file:./data/app.db, from the default): its folder does not exist yet. Run `npm run db:migrate` first: it creates the database and its tables.");
  });

  it("says which PostgreSQL URL did not answer, from where, without its password, and what to set", () => {
    const refused = new Error("connect ECONNREFUSED 127.0.0.1:5432");
    expect(explainOpenFailure("postgresql://localhost:5432/app", "the default", refused, postgresql)).toMatch(/^Cannot open the database at DATABASE_URL \(postgresql:\/\/localhost:5432\/app, from the default\): connect ECONNREFUSED 127\.0\.0\.1:5432\. Set DATABASE_URL in \.env/);
    const line = explainOpenFailure("postgresql://app:s3cret@db:5432/app", ".env", refused, postgresql);
    expect(line).not.toContain("s3cret");
    expect(line).toMatch(/from \.env\): connect ECONNREFUSED .*running and reachable/);
    expect(line.split("\n")).toHaveLength(1);
  });

  it("refuses a URL of the other database, naming where it came from and the form expected (this runtime is SQLite's)", () => {
    expect(databaseUrlProblem("file:./data/app.db", ".env")).toBeUndefined();
    expect(databaseUrlProblem("postgresql://app:s3cret@localhost:5432/app", ".env")).toBe(
      'DATABASE_URL (from .env) must be a SQLite URL such as "file:./data/app.db": this project\'s database is SQLite (`database:` in hashapi.yaml); got "postgresql://app:***@localhost:5432/app"',
    );
  });
});
