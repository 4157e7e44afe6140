import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ownedObjects } from "../../src/migrate/owned-sql.js";
import { textIndexes, textTableName } from "../../src/migrate/text-indexes.js";
import { queryDatabase } from "./databases.js";

/**
 * What a migrated project's database lacks of the objects its schema's doc lines declare (trigram
 * indexes, owners' partial indexes, indexes regardless of case: src/migrate/owned-sql.ts), and on
 * SQLite any FTS5 table out of step with its table (a row count apart). Empty when all is there.
 */
export async function missingOwnedObjects(api: string, url: string): Promise<string[]> {
  const schema = await readFile(join(api, "prisma/schema.prisma"), "utf8");
  const sqlite = url.startsWith("file:");
  const problems: string[] = [];
  for (const object of ownedObjects(schema, sqlite ? "sqlite" : "postgresql"))
    for (const name of object.names) {
      const found = sqlite
        ? await queryDatabase(url, api, `SELECT name FROM sqlite_master WHERE name = ?`, [name])
        : await queryDatabase(url, api, `SELECT to_regclass($1) AS name`, [`"${name}"`]).then((rows) => rows.filter((row) => row.name !== null));
      if (found.length === 0) problems.push(`${object.table}: ${name} is missing from the database (${object.id})`);
    }
  if (sqlite)
    for (const index of textIndexes(schema)) {
      const [rows] = await queryDatabase(url, api, `SELECT (SELECT COUNT(*) FROM "${index.table}") AS "rows", (SELECT COUNT(*) FROM "${textTableName(index.table)}") AS "indexed"`);
      if (rows!.rows !== rows!.indexed) problems.push(`${index.table}: ${String(rows!.rows)} rows but ${String(rows!.indexed)} in its trigram index`);
    }
  return problems;
}
