/**
 * Prisma 6.19 writes a Json column's default on SQLite as bare JSON (`DEFAULT {"a":1}`), which
 * SQLite cannot parse ("unrecognized token") or reads as something else (`DEFAULT "text"` is an
 * identifier, `DEFAULT true` the integer 1). On SQLite a Json column (JSONB in the DDL) stores the
 * JSON text, so its default is that text as a string literal: `DEFAULT '{"a":1}'`. PostgreSQL's
 * diff quotes it already.
 */
export function quoteSqliteJsonDefaults(sql: string): string {
  return sql
    .split("\n")
    .map((line) => {
      const column = /^(\s*(?:ALTER TABLE "[^"]+" ADD COLUMN )?"[^"]+" JSONB\b.*? DEFAULT )(.+?)([,;]?)$/.exec(line);
      if (!column || column[2]!.startsWith("'")) return line;
      return `${column[1]}'${column[2]!.replaceAll("'", "''")}'${column[3]}`;
    })
    .join("\n");
}
