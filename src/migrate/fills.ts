import { dialectOf } from "../dialects/index.js";
import type { ColumnFill } from "../model/schema-evolution.js";
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
        // The relation field of such a column (tenancy's tenant) must be optional with it.
        const keys = /@relation\([^)]*fields: \[(\w+)\]/.exec(line)?.[1];
        return field && (names.has(field[2]!) || (keys !== undefined && names.has(keys))) ? line.replace(/^(\s*\w+\s+\w+)/, "$1?") : line;
      })
      .join("\n");
  });
}

/**
 * With tenancy.adopt: a check the migrator runs before anything else, which refuses the migration
 * when the adopted tenant is not stored (its rows would be left without one); once, whatever the
 * number of tables it fills.
 */
export function adoptionChecks(columns: readonly RequiredColumn[]): string[] {
  const adopted = columns.find((column) => column.fill.type === "tenant");
  if (!adopted) return [];
  const hash = `'${String(adopted.fill.value).replaceAll("'", "''")}'`;
  const tenants = adopted.fill.tenants!;
  return [
    `-- hashapi:refuse-when-rows tenancy.adopt names a record no row of ${tenants} holds: store it first (or name one that is stored), then run \`npm run db:migrate\` again.`,
    `SELECT ${hash} AS "tenancy.adopt" WHERE NOT EXISTS (SELECT 1 FROM "${tenants}" WHERE "hash" = ${hash});`,
  ];
}

/** `UPDATE … SET column = value WHERE column IS NULL`: the rows that lack a value get the fill. */
export function fillStatement(column: RequiredColumn, provider: Provider): string {
  const name = `"${column.column}"`;
  return `UPDATE "${column.table}" SET ${name} = ${sqlLiteral(column.fill, provider)} WHERE ${name} IS NULL;`;
}

/** The fill value as SQL, stored the way the service stores that type on each database. */
export function sqlLiteral(fill: ColumnFill, provider: Provider): string {
  const { type, value } = fill;
  const dialect = dialectOf(provider);
  const text = (content: string) => `'${content.replaceAll("'", "''")}'`;
  switch (type) {
    case "tenant":
      // A tenant that does not exist leaves the rows without one: making the column NOT NULL then fails.
      return `(SELECT "id" FROM "${fill.tenants!}" WHERE "hash" = ${text(String(value))})`;
    case "integer":
    case "decimal":
      return String(value);
    case "boolean":
      return dialect.literal.boolean(value === true);
    case "json":
      return text(JSON.stringify(value));
    case "date": {
      return dialect.literal.date(String(value).slice(0, 10));
    }
    case "datetime":
      if (value === "now") return dialect.literal.now;
      return dialect.literal.datetime(new Date(String(value)).toISOString());
    default:
      return text(String(value));
  }
}
