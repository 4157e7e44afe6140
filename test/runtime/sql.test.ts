import { describe, expect, it } from "vitest";
import { Binder, sql, statementOf } from "../../runtime/common/src/db/sql.js";
import { dialect as sqlite } from "../../runtime/sqlite/src/db/dialect.js";
import type { SqlDialect } from "../../runtime/common/src/db/sql.js";

// The PostgreSQL runtime compiles with its own tsconfig (runtime/tsconfig.postgresql.json): loaded by path.
const postgresDialect = "../../runtime/postgresql/src/db/dialect.js";
const { dialect: postgresql } = (await import(postgresDialect)) as { dialect: SqlDialect };

describe("sql tag and placeholders (runtime/common/src/db/sql.ts)", () => {
  it("puts each dialect's own placeholders where the values were, and nowhere else", () => {
    const query = (id: number) => sql`SELECT "data" ? 'key' AS "has", "data" ?| array['a'] FROM "t" WHERE "id" = ${id} AND "n" > ${2}`;
    expect(statementOf(postgresql, query(7))).toEqual({
      text: `SELECT "data" ? 'key' AS "has", "data" ?| array['a'] FROM "t" WHERE "id" = $1 AND "n" > $2`,
      values: [7, 2],
    });
    expect(statementOf(sqlite, query(7)).text).toBe(
      `SELECT "data" ? 'key' AS "has", "data" ?| array['a'] FROM "t" WHERE "id" = ? AND "n" > ?`,
    );
  });

  it("leaves a plain text as written", () => {
    expect(statementOf(postgresql, `SELECT $1::jsonb ? 'a'`, [{}])).toEqual({ text: `SELECT $1::jsonb ? 'a'`, values: [{}] });
  });

  it("binds a value once per use, so one text is right on both databases", () => {
    // The `?search=` 500 of issue 31: a pattern bound once and used in two columns' LIKEs.
    for (const dialect of [sqlite, postgresql]) {
      const values = new Binder(dialect);
      const pattern = "%ann%";
      const text = `"name" LIKE ${values.add(pattern)} OR "notes" LIKE ${values.add(pattern)} OR "id" IN (${values.addAll([1, 2])})`;
      expect(values.list).toEqual([pattern, pattern, 1, 2]);
      expect(text).toBe(
        dialect === sqlite ? `"name" LIKE ? OR "notes" LIKE ? OR "id" IN (?, ?)` : `"name" LIKE $1 OR "notes" LIKE $2 OR "id" IN ($3, $4)`,
      );
    }
  });
});
