import { engineDiff } from "./schema-engine.js";

export type { Provider } from "../dialects/index.js";

/**
 * SQL that takes a database from `fromSchema` (or from nothing) to `toSchema`: what `prisma migrate
 * diff --from-schema-datamodel … --to-schema-datamodel … --script` prints, computed by Prisma's
 * WebAssembly schema engine in this process (schema-engine.ts), with no database and no download.
 */
export async function prismaMigrateDiff(fromSchema: string | null, toSchema: string): Promise<string> {
  return normalizeSql(await engineDiff(fromSchema, toSchema));
}

/** The engine pads with blank lines and says when a migration is empty; keep only the SQL. */
export function normalizeSql(output: string): string {
  const lines = output.split("\n").filter((line) => !line.startsWith("Loaded Prisma config"));
  const text = lines.join("\n").trim();
  return text === "" || /^-- This is an empty migration\.?$/.test(text) ? "" : `${text}\n`;
}
