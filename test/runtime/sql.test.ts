import { describe, expect, it } from "vitest";
import { placeholder, sql, statementOf, uniqueViolationColumn } from "../../runtime/common/src/lib/sql.js";

describe("sql tag and placeholders (runtime/common/src/lib/sql.ts)", () => {
  it("puts each dialect's own placeholders where the values were, and nowhere else", () => {
    const query = (id: number) => sql`SELECT "data" ? 'key' AS "has", "data" ?| array['a'] FROM "t" WHERE "id" = ${id} AND "n" > ${2}`;
    expect(statementOf("postgresql", query(7))).toEqual({
      text: `SELECT "data" ? 'key' AS "has", "data" ?| array['a'] FROM "t" WHERE "id" = $1 AND "n" > $2`,
      values: [7, 2],
    });
    expect(statementOf("sqlite", query(7)).text).toBe(
      `SELECT "data" ? 'key' AS "has", "data" ?| array['a'] FROM "t" WHERE "id" = ? AND "n" > ?`,
    );
  });

  it("leaves a plain text as written", () => {
    expect(statementOf("postgresql", `SELECT $1::jsonb ? 'a'`, [{}])).toEqual({ text: `SELECT $1::jsonb ? 'a'`, values: [{}] });
    expect([placeholder("sqlite", 3), placeholder("postgresql", 3)]).toEqual(["?", "$3"]);
  });
});

describe("uniqueViolationColumn: the column of a UNIQUE violation, from either database's words", () => {
  it.each([
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: members.code" }, "code"],
    [{ code: "23505", detail: "Key (code)=(X1) already exists." }, "code"],
    [{ code: "23505", detail: 'Key ("order")=(7) already exists.' }, "order"],
    [{ code: "23505", detail: "Key (lower(email))=(a@b.c) already exists." }, "email"],
    [{ code: "23505", detail: "Key (lower(contact_email::text))=(a@b.c) already exists." }, "contact_email"],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: index 'members_contact_email_lower_key'" }, "contact_email"],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: index 'other_email_lower_key'" }, undefined],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: links.a_id, links.b_id" }, undefined],
    [{ code: "23505", detail: "Key (a_id, b_id)=(1, 2) already exists." }, undefined],
    [new Error("something else"), undefined],
  ])("%j → %s", (error, column) => {
    expect(uniqueViolationColumn(error, "members")).toBe(column);
  });
});
