/**
 * What a schema's `/// hashapi: …` doc lines declare: Prisma's schema language cannot express an
 * index on an expression, a partial index or a virtual table, so the Prisma schema hashapi writes
 * carries a doc line on the column instead, and the migration planner reads the lines of the last
 * migrated snapshot and of the new schema to write what changed (owned-sql.ts).
 */
export interface MarkedField {
  /** The model's table (its `@@map`). */
  readonly table: string;
  /** The field line under the marker: its column. */
  readonly column: string;
  /** The marker's match: its groups carry what the line names. */
  readonly marker: RegExpExecArray;
}

/**
 * Every field under a doc line that `pattern` matches: the field line under the marker names the
 * column (other doc lines may sit between them), the model's `@@map` the table, so a renamed column
 * or table is seen as moved.
 */
export function markedFields(schema: string | null, pattern: RegExp): MarkedField[] {
  if (schema === null) return [];
  const found: MarkedField[] = [];
  for (const [block, model] of schema.matchAll(/^model (\w+) \{[\s\S]*?^\}/gm)) {
    const table = /^\s*@@map\("([^"]+)"\)/m.exec(block)?.[1] ?? model!;
    const lines = block.split("\n");
    for (const [at, line] of lines.entries()) {
      const marker = pattern.exec(line);
      if (marker === null) continue;
      const column = lines
        .slice(at + 1)
        .filter((next) => !/^\s*\/\//.test(next))
        .map((next) => /^\s*(\w+)\s/.exec(next)?.[1])
        .find(Boolean);
      if (column !== undefined) found.push({ table, column, marker });
    }
  }
  return found;
}
