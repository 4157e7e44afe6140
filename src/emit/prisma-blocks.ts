import type { DatabaseModel } from "../model/types.js";

/** A native type attribute (`@db.…`) where the database has them (PostgreSQL), else nothing. */
export function native(database: DatabaseModel, attribute: string): string {
  return database.dialect.nativeTypes ? ` ${attribute}` : "";
}

/** Aligns columns the way `prisma format` does, so the file reads like a hand-kept schema. */
export function modelBlock(name: string, lines: string[][], blockAttributes: string[]): string {
  const nameWidth = Math.max(...lines.map(([field]) => field!.length));
  const typeWidth = Math.max(...lines.map(([, type]) => type!.length));
  // A line is [field, type, attributes, ...doc lines].
  const body = lines.flatMap(([field, type, attributes, ...docs]) => [
    ...docs.filter(Boolean).map((doc) => `  /// ${doc}`),
    `  ${field!.padEnd(nameWidth)} ${attributes ? type!.padEnd(typeWidth) + " " + attributes : type}`.trimEnd(),
  ]);
  return [`model ${name} {`, ...body, "", ...blockAttributes.map((line) => `  ${line}`), "}"].join("\n");
}
