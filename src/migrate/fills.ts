import type { ColumnFill } from "../model/evolution.js";
import type { RequiredColumn } from "./changes.js";
import type { Provider } from "./prisma-diff.js";
import { rewriteModels } from "./schema-shape.js";

/**
 * Required columns on tables that hold rows. The migration is written in three parts: the columns
 * are added (or kept) nullable, rows without a value get the field's `backfill:` or `default:`, and
 * only then do the columns become NOT NULL. The first and last parts come from Prisma's diff through
 * this intermediate schema: the new one, with those columns still optional.
 */
export function withOptionalColumns(schema: string, columns: readonly RequiredColumn[]): string {
  if (columns.length === 0) return schema;
  return rewriteModels(schema, ({ table, body }) => {
    const names = new Set(columns.filter((column) => column.table === table).map((column) => column.column));
    if (names.size === 0) return undefined;
    return body
      .split("\n")
      .map((line) => {
        const field = /^(\s*)(\w+)(\s+)(\w+)(\s|$)/.exec(line);
        return field && names.has(field[2]!) ? line.replace(/^(\s*\w+\s+\w+)/, "$1?") : line;
      })
      .join("\n");
  });
}

/** `UPDATE … SET column = value WHERE column IS NULL`: the rows that lack a value get the fill. */
export function fillStatement(column: RequiredColumn, provider: Provider): string {
  const name = `"${column.column}"`;
  return `UPDATE "${column.table}" SET ${name} = ${sqlLiteral(column.fill, provider)} WHERE ${name} IS NULL;`;
}

/** The fill value as SQL, stored the way the service stores that type on each database. */
export function sqlLiteral(fill: ColumnFill, provider: Provider): string {
  const { type, value } = fill;
  const text = (content: string) => `'${content.replaceAll("'", "''")}'`;
  switch (type) {
    case "integer":
    case "decimal":
      return String(value);
    case "boolean":
      return provider === "postgresql" ? String(value === true) : value === true ? "1" : "0";
    case "json":
      return text(JSON.stringify(value));
    case "date": {
      const day = String(value).slice(0, 10);
      return provider === "postgresql" ? text(day) : text(`${day}T00:00:00.000+00:00`);
    }
    case "datetime":
      // SQLite keeps Prisma's ISO text with an explicit offset (runtime/sqlite/src/lib/driver.ts).
      if (value === "now") return provider === "postgresql" ? "CURRENT_TIMESTAMP" : `strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')`;
      return provider === "postgresql" ? text(new Date(String(value)).toISOString()) : text(new Date(String(value)).toISOString().replace("Z", "+00:00"));
    default:
      return text(String(value));
  }
}
