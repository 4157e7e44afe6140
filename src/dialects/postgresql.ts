import { textLiteral, type GeneratorDialect } from "./dialect.js";
import { postgresqlProjectText } from "./postgresql-project-text.js";

/** PostgreSQL: a server, native types, named constraints, identifiers cut at 63 bytes. */
export const postgresqlDialect: GeneratorDialect = {
  provider: "postgresql",
  label: "PostgreSQL",
  defaultUrl: "postgresql://localhost:5432/app",
  nativeTypes: true,
  namedKeys: true,
  identifierLimit: 63,
  sharedRequestCounts: true,
  alterRebuildsTables: false,
  decimalDigits: Infinity,
  jsonDefaults: true,
  literal: {
    boolean: (value) => String(value),
    date: (day) => textLiteral(day),
    datetime: (iso) => textLiteral(iso),
    now: "CURRENT_TIMESTAMP",
  },
  // So the database reads like a fresh one.
  tableRenameExtras: (from, to) => [`ALTER SEQUENCE IF EXISTS "${from}_id_seq" RENAME TO "${to}_id_seq";`],
  joinedTexts: (column) => `string_agg(${column}, ', ' ORDER BY ${column})`,
  moveChangesKey(where, from, to) {
    const changes = `"changes"::jsonb`;
    return `UPDATE "hashapi_events" SET "changes" = ((${changes} - ${textLiteral(from)}) || jsonb_build_object(${textLiteral(to)}, ${changes} -> ${textLiteral(from)}))::text WHERE ${where} AND (${changes} -> ${textLiteral(from)}) IS NOT NULL;`;
  },
  projectText: postgresqlProjectText,
};
