/**
 * The tables and columns a Prisma schema written by hashapi (src/emit/prisma-schema.ts) declares:
 * what the migration planner compares between the last migrated schema and the new one. It reads
 * hashapi's own layout (one attribute list per line, `@@map` on every model), not Prisma's whole
 * grammar.
 */
export interface ColumnShape {
  name: string;
  /** Prisma scalar type: String, Int, Decimal, DateTime, Boolean, Json. */
  type: string;
  optional: boolean;
  unique: boolean;
  hasDefault: boolean;
  /** PostgreSQL native type as written, e.g. `VarChar(120)`; undefined on SQLite. */
  native?: string;
  /** An enum field's values, from its `/// values:` line; undefined when the schema does not say. */
  values?: string[];
  /** The line as written, to rewrite it. */
  line: string;
}

export interface TableShape {
  model: string;
  table: string;
  columns: Map<string, ColumnShape>;
  /** Relation fields: `name` → the columns of `fields: [...]`. */
  relations: Map<string, string[]>;
  /** `@@index([...])` and `@@unique([...])` column lists. */
  indexes: { columns: string[]; unique: boolean }[];
}

export type SchemaShape = Map<string, TableShape>;

const scalarTypes = new Set(["String", "Int", "BigInt", "Float", "Decimal", "DateTime", "Boolean", "Json", "Bytes"]);

/** A `model Name { … }` block: its name and its body (every line up to the closing brace). */
const modelBlocks = /^model (\w+) \{\n([\s\S]*?)^\}/gm;

/** The table a model maps to: its `@@map`, else its name (as Prisma does). */
function tableOf(model: string, body: string): string {
  return /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? model;
}

/**
 * The schema with some model blocks rewritten: `rewrite` gets each model's name, table and body, and
 * returns the new body, or undefined to keep the block as it is.
 */
export function rewriteModels(schema: string, rewrite: (model: { name: string; table: string; body: string }) => string | undefined): string {
  return schema.replace(modelBlocks, (block, name: string, body: string) => {
    const rewritten = rewrite({ name, table: tableOf(name, body), body });
    return rewritten === undefined ? block : `model ${name} {\n${rewritten}}`;
  });
}

/** Tables by name. */
export function parseSchemaShape(schema: string): SchemaShape {
  const tables: SchemaShape = new Map();
  for (const block of schema.matchAll(modelBlocks)) {
    const [, model, body] = block as unknown as [string, string, string];
    const table = tableOf(model, body);
    const shape: TableShape = { model, table, columns: new Map(), relations: new Map(), indexes: [] };
    let values: string[] | undefined;
    for (const line of body.split("\n")) {
      const trimmed = line.trim();
      const doc = /^\/\/\/ values: (.*)$/.exec(trimmed);
      if (doc) {
        values = doc[1]!.split("|").map((value) => value.trim());
        continue;
      }
      const index = /^@@(index|unique)\(\[([^\]]*)\]/.exec(trimmed);
      if (index) shape.indexes.push({ unique: index[1] === "unique", columns: index[2]!.split(",").map((name) => name.trim()) });
      const field = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(trimmed);
      if (!field || trimmed.startsWith("//")) continue;
      const [, name, type, list, optional, attributes] = field as unknown as [string, string, string, string | undefined, string | undefined, string];
      if (list || !scalarTypes.has(type)) {
        const fields = /fields: \[([^\]]*)\]/.exec(attributes)?.[1];
        if (fields) shape.relations.set(name, fields.split(",").map((column) => column.trim()));
        values = undefined;
        continue;
      }
      shape.columns.set(name, {
        name,
        type,
        optional: optional === "?",
        unique: /@unique\b/.test(attributes),
        hasDefault: /@default\(/.test(attributes),
        native: /@db\.(\w+(?:\([^)]*\))?)/.exec(attributes)?.[1],
        values,
        line,
      });
      values = undefined;
    }
    tables.set(table, shape);
  }
  return tables;
}

/** The schema without comments and blank lines: two schemas that differ only there migrate alike. */
export function withoutComments(schema: string): string {
  return schema
    .split("\n")
    // `/// hashapi:` lines say what the schema language cannot (see case-insensitive-email.ts): a change to them is one.
    .filter((line) => (!/^\s*\/\//.test(line) || /^\s*\/\/\/ hashapi:/.test(line)) && line.trim() !== "")
    .join("\n");
}
