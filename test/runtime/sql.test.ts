import { describe, expect, it } from "vitest";
import { placeholder, sql, statementOf } from "../../runtime/common/src/lib/sql.js";

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
