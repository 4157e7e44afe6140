import { describe, expect, it } from "vitest";
import { StatementTimeout, type DatabaseErrors, type SqlDialect } from "../../runtime/common/src/db/sql.js";
import { dialect as sqlite } from "../../runtime/sqlite/src/db/dialect.js";

// The PostgreSQL runtime compiles with its own tsconfig (runtime/tsconfig.postgresql.json): loaded by path.
const postgresDialect = "../../runtime/postgresql/src/db/dialect.js";
const { dialect: postgresql } = (await import(postgresDialect)) as { dialect: SqlDialect };

type Question = Exclude<keyof DatabaseErrors, "uniqueViolationColumn">;

/** Each dialect answers for its own database's errors, and says no to the other's. */
const cases: [string, unknown, Record<"sqlite" | "postgresql", Question | undefined>][] = [
  ["SQLite UNIQUE", { code: "SQLITE_CONSTRAINT_UNIQUE" }, { sqlite: "isUniqueViolation", postgresql: undefined }],
  ["SQLite primary key", { code: "SQLITE_CONSTRAINT_PRIMARYKEY" }, { sqlite: "isUniqueViolation", postgresql: undefined }],
  ["PostgreSQL unique_violation", { code: "23505" }, { sqlite: undefined, postgresql: "isUniqueViolation" }],
  ["SQLite foreign key", { code: "SQLITE_CONSTRAINT_FOREIGNKEY" }, { sqlite: "isForeignKeyViolation", postgresql: undefined }],
  ["SQLite ON DELETE RESTRICT", { code: "SQLITE_CONSTRAINT_TRIGGER" }, { sqlite: "isForeignKeyViolation", postgresql: undefined }],
  ["PostgreSQL foreign_key_violation", { code: "23503" }, { sqlite: undefined, postgresql: "isForeignKeyViolation" }],
  ["the runtime's own timeout", new StatementTimeout(), { sqlite: "isStatementTimeout", postgresql: "isStatementTimeout" }],
  ["PostgreSQL query_canceled", { code: "57014" }, { sqlite: undefined, postgresql: "isStatementTimeout" }],
  ["a refused connection", { code: "ECONNREFUSED" }, { sqlite: undefined, postgresql: "isDatabaseAway" }],
  ["a server shutting down", { code: "57P01" }, { sqlite: undefined, postgresql: "isDatabaseAway" }],
  ["a pooler that cannot log in", { code: "08P01" }, { sqlite: undefined, postgresql: "isDatabaseAway" }],
  ["pg's dropped connection", new Error("Connection terminated unexpectedly"), { sqlite: undefined, postgresql: "isDatabaseAway" }],
  ["SQLite missing table", { code: "SQLITE_ERROR", message: "no such table: patients" }, { sqlite: "isSchemaBehind", postgresql: undefined }],
  ["SQLite missing column", { code: "SQLITE_ERROR", message: "table patients has no column named phone" }, { sqlite: "isSchemaBehind", postgresql: undefined }],
  ["SQLite syntax error", { code: "SQLITE_ERROR", message: 'near "FROM": syntax error' }, { sqlite: undefined, postgresql: undefined }],
  ["PostgreSQL undefined_table", { code: "42P01" }, { sqlite: undefined, postgresql: "isSchemaBehind" }],
  ["PostgreSQL undefined_column", { code: "42703" }, { sqlite: undefined, postgresql: "isSchemaBehind" }],
  ["anything else", new Error("something else"), { sqlite: undefined, postgresql: undefined }],
  ["not an error", "text", { sqlite: undefined, postgresql: undefined }],
];
const questions: Question[] = ["isUniqueViolation", "isForeignKeyViolation", "isStatementTimeout", "isDatabaseAway", "isSchemaBehind"];

describe.each([
  ["sqlite", sqlite],
  ["postgresql", postgresql],
] as const)("%s dialect: which error is which", (name, dialect) => {
  it.each(cases)("%s", (_label, error, expected) => {
    const answers = questions.filter((question) => dialect.errors[question](error));
    expect(answers).toEqual(expected[name] === undefined ? [] : [expected[name]]);
  });
});

describe("uniqueViolationColumn: the column of a UNIQUE violation, from each database's own words", () => {
  it.each([
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: members.code" }, "code"],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: index 'members_contact_email_lower_key'" }, "contact_email"],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: index 'other_email_lower_key'" }, undefined],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: links.a_id, links.b_id" }, undefined],
    [new Error("something else"), undefined],
  ])("SQLite %j → %s", (error, column) => {
    expect(sqlite.errors.uniqueViolationColumn(error, "members")).toBe(column);
  });
  it.each([
    [{ code: "23505", detail: "Key (code)=(X1) already exists." }, "code"],
    [{ code: "23505", detail: 'Key ("order")=(7) already exists.' }, "order"],
    [{ code: "23505", detail: "Key (lower(email))=(a@b.c) already exists." }, "email"],
    [{ code: "23505", detail: "Key (lower(contact_email::text))=(a@b.c) already exists." }, "contact_email"],
    [{ code: "23505", detail: "Key (a_id, b_id)=(1, 2) already exists." }, undefined],
    [new Error("something else"), undefined],
  ])("PostgreSQL %j → %s", (error, column) => {
    expect(postgresql.errors.uniqueViolationColumn(error, "members")).toBe(column);
  });
});
