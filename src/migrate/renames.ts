import { dialectOf } from "../dialects/index.js";
import type { SchemaEvolution } from "../model/schema-evolution.js";
import type { Provider } from "./prisma-diff.js";
import { rewriteModels, type SchemaShape } from "./schema-shape.js";

/** Renames that apply to this migration: the previous schema has the old name and not the new one. */
export interface Renames {
  tables: { from: string; to: string }[];
  /** `table` is the table's name after any table rename. */
  columns: { table: string; from: string; to: string }[];
}

export function resolveRenames(previous: SchemaShape, next: SchemaShape, evolution: SchemaEvolution): Renames {
  const tables: Renames["tables"] = [];
  for (const rename of evolution.tables) {
    const old = [...previous.values()].find((table) => table.model === rename.from);
    if (!old || old.table === rename.table || previous.has(rename.table) || !next.has(rename.table)) continue;
    tables.push({ from: old.table, to: rename.table });
  }
  const oldName = (table: string) => tables.find((rename) => rename.to === table)?.from ?? table;
  const columns: Renames["columns"] = [];
  for (const rename of evolution.columns) {
    const old = previous.get(oldName(rename.table));
    if (!old?.columns.has(rename.from) || old.columns.has(rename.to) || !next.get(rename.table)?.columns.has(rename.to)) continue;
    columns.push({ table: rename.table, from: rename.from, to: rename.to });
  }
  return { tables, columns };
}

export function hasRenames(renames: Renames): boolean {
  return renames.tables.length > 0 || renames.columns.length > 0;
}

/**
 * The statements that carry the renames out, first in the migration (same syntax on both databases;
 * PostgreSQL also renames the table's id sequence, so the database reads like a fresh one).
 */
export function renameStatements(renames: Renames, provider: Provider): string[] {
  const quote = (name: string) => `"${name}"`;
  return [
    ...renames.tables.flatMap(({ from, to }) => [
      `ALTER TABLE ${quote(from)} RENAME TO ${quote(to)};`,
      ...dialectOf(provider).tableRenameExtras(from, to),
    ]),
    ...renames.columns.map(({ table, from, to }) => `ALTER TABLE ${quote(table)} RENAME COLUMN ${quote(from)} TO ${quote(to)};`),
  ];
}

/**
 * The previous schema as the database stands right after the renames: tables and columns under their
 * new names, while indexes and constraints keep the names they have in the database (explicit `map:`).
 * Diffing this against the new schema gives the rest of the migration, including the renames of
 * those indexes and constraints, instead of a drop and an add.
 */
export function renamedSchema(previous: string, shape: SchemaShape, renames: Renames, provider: Provider): string {
  if (!hasRenames(renames)) return previous;
  const { namedKeys } = dialectOf(provider);
  return rewriteModels(previous, ({ table, body }) => {
    const current = shape.get(table);
    if (!current) return undefined;
    const tableRename = renames.tables.find((rename) => rename.from === current.table);
    const newTable = tableRename?.to ?? current.table;
    const columnRenames = new Map(renames.columns.filter((rename) => rename.table === newTable).map((rename) => [rename.from, rename.to]));
    if (!tableRename && columnRenames.size === 0) return undefined;
    const column = (name: string) => columnRenames.get(name) ?? name;
    const list = (names: string) => names.split(",").map((name) => column(name.trim())).join(", ");
    const keep = (columns: string[], suffix: string) => constraintName(current.table, columns, suffix, provider);
    const lines = body.split("\n").map((line) => {
      const field = /^(\s*)(\w+)(\s+)(\w+(?:\[\])?\??)(.*)$/.exec(line);
      if (line.trim().startsWith("@@index([") || line.trim().startsWith("@@unique([")) {
        return line.replace(/@@(index|unique)\(\[([^\]]*)\]\)/, (_all, kind: string, names: string) => {
          const columns = names.split(",").map((name) => name.trim());
          return `@@${kind}([${list(names)}], map: "${keep(columns, kind === "index" ? "idx" : "key")}")`;
        });
      }
      // A composite primary key (a belongsToMany's pivot): its columns renamed, its name kept.
      if (line.trim().startsWith("@@id(["))
        return line.replace(/@@id\(\[([^\]]*)\]\)/, (_all, names: string) => `@@id([${list(names)}]${namedKeys ? `, map: "${keep([], "pkey")}"` : ""})`);
      if (line.trim().startsWith("@@map(")) return line.replace(/@@map\("[^"]+"\)/, `@@map("${newTable}")`);
      if (!field || line.trim().startsWith("//")) return line;
      const [, indent, name, space, type, attributes] = field as unknown as [string, string, string, string, string, string];
      let rewritten = attributes;
      // SQLite's foreign keys have no names Prisma manages; PostgreSQL's keep theirs until renamed.
      rewritten = rewritten.replace(/@relation\(([^)]*fields: \[)([^\]]*)(\][^)]*)\)/, (_all, head: string, fields: string, tail: string) => {
        const name = namedKeys ? `, map: "${keep(fields.split(",").map((field) => field.trim()), "fkey")}"` : "";
        return `@relation(${head}${list(fields)}${tail}${name})`;
      });
      rewritten = rewritten.replace(/@unique\b(?!\()/, `@unique(map: "${keep([name], "key")}")`);
      if (namedKeys) rewritten = rewritten.replace(/@id\b(?!\()/, `@id(map: "${keep([], "pkey")}")`);
      return `${indent}${column(name)}${space}${type}${rewritten}`;
    });
    return lines.join("\n");
  });
}

/**
 * The name Prisma gives an index or constraint by default: table, columns and a suffix joined by
 * `_`, cut to PostgreSQL's 63 bytes by shortening the part before the suffix.
 */
export function constraintName(table: string, columns: string[], suffix: string, provider: Provider): string {
  const name = [table, ...columns, suffix].join("_");
  const limit = dialectOf(provider).identifierLimit;
  if (name.length <= limit) return name;
  return `${name.slice(0, limit - suffix.length - 1)}_${suffix}`;
}
