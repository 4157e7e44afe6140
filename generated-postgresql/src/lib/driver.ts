// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import pg from "pg";
import { maxPreparedStatements, statementOf, type Sql, type SqlRow } from "./sql.js";

// DATE stays text (pg would make a local-time Date of it); COUNT(*) is int8, which pg leaves as text.
const dateOid = 1082;
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === dateOid) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/** A pool of `poolSize` connections per process; each prepares a statement once and reuses it. */
export function openSql(url: string, poolSize = 10): Sql {
  // pg's pool replaces broken connections by itself: after a database restart the next queries reconnect.
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on("error", () => undefined); // an idle connection lost to a restart is simply replaced
  // A name makes pg prepare the statement once per connection and reuse it.
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < maxPreparedStatements) {
      name = `s${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  const query = (input: Parameters<Sql["all"]>[0], values?: readonly unknown[]) => {
    const statement = statementOf("postgresql", input, values);
    const name = nameOf(statement.text);
    return pool.query({
      ...(name === undefined ? {} : { name }),
      text: statement.text,
      values: statement.values as unknown[],
      types,
    });
  };
  return {
    dialect: "postgresql",
    async all(input, values) {
      return (await query(input, values)).rows as SqlRow[];
    },
    async get(input, values) {
      return (await query(input, values)).rows[0] as SqlRow | undefined;
    },
    async run(input, values) {
      return (await query(input, values)).rowCount ?? 0;
    },
    async exec(script) {
      await pool.query(script);
    },
    async close() {
      await pool.end();
    },
  };
}
