import { textLiteral, type GeneratorDialect } from "./dialect.js";
import { sqliteProjectText } from "./sqlite-project-text.js";

/** SQLite: one file, no native types, ISO texts with an explicit offset for dates. */
export const sqliteDialect: GeneratorDialect = {
  provider: "sqlite",
  label: "SQLite",
  defaultUrl: "file:./data/app.db",
  nativeTypes: false,
  // Its primary and foreign keys have no names Prisma manages.
  namedKeys: false,
  identifierLimit: Infinity,
  sharedRequestCounts: false,
  alterRebuildsTables: true,
  decimalDigits: 15,
  jsonDefaults: false,
  literal: {
    boolean: (value) => (value ? "1" : "0"),
    date: (day) => textLiteral(`${day}T00:00:00.000+00:00`),
    // Prisma's ISO text with an explicit offset (runtime/sqlite/src/db/driver.ts).
    datetime: (iso) => textLiteral(iso.replace("Z", "+00:00")),
    now: `strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')`,
  },
  tableRenameExtras: () => [],
  joinedTexts: (column) => `group_concat(${column}, ', ')`,
  moveChangesKey(where, from, to) {
    const path = (key: string) => textLiteral(`$.${JSON.stringify(key)}`);
    return `UPDATE "hashapi_events" SET "changes" = json_set(json_remove("changes", ${path(from)}), ${path(to)}, json("changes" -> ${path(from)})) WHERE ${where} AND json_type("changes", ${path(from)}) IS NOT NULL;`;
  },
  projectText: sqliteProjectText,
};
