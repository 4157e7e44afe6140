import { markedFields } from "./marked-fields.js";
import type { OwnedObject } from "./owned-object.js";
import type { Provider } from "./prisma-diff.js";

/**
 * Trigram indexes for `contains`, `starts_with`, `ends_with` and `?search=` (docs/decisions.md,
 * "Indexes Prisma cannot declare"). Both databases compare a folded copy of the text (the runtime's
 * SqlDialect.foldedText), so the index must hold that copy:
 * - PostgreSQL: a GIN index of pg_trgm on the very expression the runtime compares,
 *   `lower(CAST(col AS text) COLLATE "und-x-icu")`, one per column; the planner reads it for LIKE.
 * - SQLite: one FTS5 table of the `trigram` tokenizer per table (every indexed column of it, so a
 *   search's words in different columns are one MATCH), contentless, without positions
 *   (`detail='column'`: a query reads rows, not occurrences), kept in step by triggers; the runtime
 *   narrows to its rowids and still compares each row exactly (data/text-index.ts).
 */

/** The doc line on an indexed field; `name` is the PostgreSQL index or the SQLite FTS5 table. */
export function textIndexMarker(name: string): string {
  return `hashapi: text index ${name} (trigram, written into the migration)`;
}

/** PostgreSQL: one GIN index per column. */
export function trigramIndexName(table: string, column: string): string {
  return `${table}_${column}_trgm`;
}

/**
 * SQLite: the FTS5 table of a table's indexed columns. Its shadow tables add `_data`, `_idx`,
 * `_config`…: the `_fts` suffix keeps them from ever being another table's FTS5 table (tables
 * `t` and `t_data` would otherwise meet at `hashapi_text_t_data`).
 */
export function textTableName(table: string): string {
  return `hashapi_text_${table}_fts`;
}

const markerPattern = /^\s*\/\/\/ hashapi: text index (\S+) \(trigram, written into the migration\)$/;

/** An index as the schema's doc lines declare it: on SQLite, every column of the table's FTS5 table. */
export interface TextIndex {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
}

export function textIndexes(schema: string | null): TextIndex[] {
  const byName = new Map<string, { table: string; columns: string[] }>();
  for (const { table, column, marker } of markedFields(schema, markerPattern)) {
    const name = marker[1]!;
    const index = byName.get(name) ?? { table, columns: [] };
    index.columns.push(column);
    byName.set(name, index);
  }
  return [...byName].map(([name, index]) => ({ name, ...index }));
}

const quoted = (name: string) => `"${name}"`;

/** The statements that make, fill and drop an index, per database. */
export function textIndexObject(index: TextIndex, provider: Provider): OwnedObject {
  const id = `text ${index.name} ${index.table}(${index.columns.join(",")})`;
  if (provider === "postgresql") {
    // The operator class is named in the extension's own schema, wherever it was installed (public,
    // a hosted database's `extensions`), whatever the connection's search_path (a test schema).
    const definition = `lower(CAST(${quoted(index.columns[0]!)} AS text) COLLATE "und-x-icu")`;
    const create = [
      `-- ${index.table}.${index.columns[0]}: a trigram index for contains and ?search= (Prisma's schema cannot declare it)`,
      `DO $$ BEGIN EXECUTE format('CREATE INDEX ${quoted(index.name)} ON ${quoted(index.table)} USING GIN (${definition.replaceAll("'", "''")} %I.gin_trgm_ops)', (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm')); END $$;`,
      "",
    ].join("\n");
    const needs = [
      "-- pg_trgm (in PostgreSQL's contrib, trusted: a database owner may create it) indexes trigrams;",
      "-- made in public when the database has none, so that every schema's indexes share it",
      "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN CREATE EXTENSION pg_trgm SCHEMA public; END IF; END $$;",
      "",
    ].join("\n");
    return { id, table: index.table, names: [index.name], create, recreate: create, drop: `DROP INDEX IF EXISTS ${quoted(index.name)};\n`, needs };
  }
  const columns = index.columns.map(quoted).join(", ");
  const values = (row: string) => index.columns.map((column) => `${row}.${quoted(column)}`).join(", ");
  const insert = `INSERT INTO ${quoted(index.name)} (rowid, ${columns}) VALUES (new."id", ${values("new")});`;
  const remove = `DELETE FROM ${quoted(index.name)} WHERE rowid = old."id";`;
  const triggers = textTriggers(index.name);
  const create = [
    `-- ${index.table}: a trigram index (FTS5) of ${index.columns.join(", ")} for contains and ?search=, kept in step by triggers`,
    `CREATE VIRTUAL TABLE ${quoted(index.name)} USING fts5(${columns}, content='', contentless_delete=1, tokenize='trigram', detail='column');`,
    `INSERT INTO ${quoted(index.name)} (rowid, ${columns}) SELECT "id", ${columns} FROM ${quoted(index.table)};`,
    `CREATE TRIGGER ${quoted(triggers.insert)} AFTER INSERT ON ${quoted(index.table)} BEGIN ${insert} END;`,
    `CREATE TRIGGER ${quoted(triggers.update)} AFTER UPDATE OF ${columns} ON ${quoted(index.table)} BEGIN ${remove} ${insert} END;`,
    `CREATE TRIGGER ${quoted(triggers.delete)} AFTER DELETE ON ${quoted(index.table)} BEGIN ${remove} END;`,
    "",
  ].join("\n");
  const drop = [...Object.values(triggers).map((trigger) => `DROP TRIGGER IF EXISTS ${quoted(trigger)};`), `DROP TABLE IF EXISTS ${quoted(index.name)};`, ""].join("\n");
  // A rebuilt table lost its triggers: the index is made again from the copied rows.
  return { id, table: index.table, names: [index.name, ...Object.values(triggers)], create, recreate: `${drop}${create}`, drop };
}

function textTriggers(name: string) {
  return { insert: `${name}_insert`, update: `${name}_update`, delete: `${name}_delete` };
}
