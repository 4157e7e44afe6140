import { engineDiff } from "./schema-engine.js";

export type { Provider } from "../dialects/index.js";

/**
 * SQL that takes a database from `fromSchema` (or from nothing) to `toSchema`: what `prisma migrate
 * diff --from-schema-datamodel … --to-schema-datamodel … --script` prints, computed by Prisma's
 * WebAssembly schema engine in this process (schema-engine.ts), with no database and no download.
 */
export async function prismaMigrateDiff(fromSchema: string | null, toSchema: string): Promise<string> {
  return separateConstraintRenames(normalizeSql(await engineDiff(fromSchema, toSchema)));
}

/**
 * Prisma writes a primary key's rename as the first action of an ALTER TABLE that goes on with
 * others (`RENAME CONSTRAINT a TO b, ADD COLUMN …`), which PostgreSQL refuses: RENAME takes no
 * other action. Seen when a renamed table also gains a column (a rolling deploy's expand): the
 * rename becomes a statement of its own.
 */
export function separateConstraintRenames(sql: string): string {
  return sql.replace(/^ALTER TABLE ("[^"]+") (RENAME CONSTRAINT "[^"]+" TO "[^"]+"),\n/gm, "ALTER TABLE $1 $2;\nALTER TABLE $1 ");
}

/** The engine pads with blank lines and says when a migration is empty; keep only the SQL. */
export function normalizeSql(output: string): string {
  const lines = output.split("\n").filter((line) => !line.startsWith("Loaded Prisma config"));
  const text = lines.join("\n").trim();
  return text === "" || /^-- This is an empty migration\.?$/.test(text) ? "" : `${text}\n`;
}
