import { HashapiError } from "../errors.js";
import type { ColumnFill } from "../model/schema-evolution.js";
import type { ChangeAssessment, RequiredColumn } from "./changes.js";
import { fillStatement } from "./fills.js";
import { renamedSchema, renameStatements, type Renames } from "./renames.js";
import { widens } from "./changes.js";
import { parseSchemaShape, rewriteModels, type ColumnShape, type SchemaShape, type TableShape } from "./schema-shape.js";

/*
 * `deploy: rolling` (PostgreSQL): the old build keeps serving while the new one starts, so a change
 * it cannot survive is split in two (docs/decisions.md, "Expand and contract"):
 * - the expand migration brings the database to the union of both schemas: a renamed column is a
 *   new column beside the old one, filled from it and kept in step by a trigger both ways; a
 *   renamed table keeps its old name as a view over the new one; a dropped column stays, optional;
 *   a new required column gets its backfill as a default, so the old build's inserts still fit;
 *   a column that becomes required stays optional;
 * - the contract step (contract.sql, `npm run db:contract`) takes the old shape away once no
 *   instance of the old build runs: views, triggers, old columns, defaults, NOT NULL at last.
 * Both halves' schema changes are Prisma's diff: previous → union, union → new.
 */

/** What the union needs beside Prisma's diff, from which the expand and contract SQL are written. */
export interface UnionPlan {
  /** The schema the database has between expand and contract. */
  union: string;
  /** The previous schema after table renames only (what the expand's diff starts from). */
  renamedTables: string;
  renames: Renames;
  /** Columns that become required (made NOT NULL by the contract, filled by both halves). */
  required: RequiredColumn[];
}

/** Whether a change needs two halves: renames, dropped columns, columns required now. */
export function needsContract(renames: Renames, previous: SchemaShape, next: SchemaShape, assessment: ChangeAssessment): boolean {
  if (renames.tables.length > 0 || renames.columns.length > 0 || assessment.required.length > 0 || narrowsColumns(previous, next)) return true;
  return [...previous].some(([table, shape]) => [...shape.columns.keys()].some((column) => next.get(table) !== undefined && !next.get(table)!.columns.has(column)));
}

/** The previous schema after its table renames only: what the expand's diff starts from. */
export function withTableRenames(previous: string, renames: Renames): string {
  return renamedSchema(previous, parseSchemaShape(previous), { tables: renames.tables, columns: [] }, "postgresql");
}

export function unionPlan(previous: string, schema: string, renames: Renames, assessment: ChangeAssessment): UnionPlan {
  const renamedTables = withTableRenames(previous, renames);
  const before = parseSchemaShape(renamedTables);
  const next = parseSchemaShape(schema);
  refuseWhatCannotRoll(before, next, renames, assessment);
  const union = rewriteModels(schema, ({ table, body }) => {
    const old = before.get(table);
    if (!old) return undefined;
    const renamedTo = new Set(renames.columns.filter((rename) => rename.table === table).map((rename) => rename.to));
    const required = new Map(assessment.required.filter((column) => column.table === table).map((column) => [column.column, column]));
    const lines = body.split("\n").map((line) => {
      const name = /^\s*(\w+)\s+\w+\s/.exec(line)?.[1] ?? /^\s*(\w+)\s+\w+$/.exec(line)?.[1];
      if (name === undefined || line.trim().startsWith("//") || line.trim().startsWith("@@")) return line;
      const fill = required.get(name);
      // A column the new schema narrows keeps the old width until the contract: the old build writes it.
      const narrowed = narrowedColumn(old, next.get(table)!, name);
      if (narrowed) return fill || renamedTo.has(name) ? optional(narrowed.line) : narrowed.line;
      // A new required column: its backfill as a default, so that the old build's inserts fit.
      if (fill?.added && !renamedTo.has(name)) return withDefault(line, fill.fill, table, name);
      return renamedTo.has(name) || fill ? optional(line) : line;
    });
    // The old build's columns the new schema lacks (dropped, or renamed away) stay, optional.
    const kept = [...old.columns.values()].filter((column) => !next.get(table)!.columns.has(column.name)).map((column) => optional(column.line));
    const attributes = lines.findIndex((line) => line.trim().startsWith("@@"));
    const at = attributes > 0 && lines[attributes - 1]!.trim() === "" ? attributes - 1 : attributes;
    lines.splice(at, 0, ...kept);
    return lines.join("\n");
  });
  return { union, renamedTables, renames, required: assessment.required };
}

/** The old column when the new schema narrows its native type (VarChar(200) → VarChar(100)). */
function narrowedColumn(old: TableShape, next: TableShape, name: string): ColumnShape | undefined {
  const before = old.columns.get(name);
  const after = next.columns.get(name);
  if (!before || !after || before.type !== after.type || before.native === after.native || before.native === undefined || after.native === undefined) return undefined;
  return widens(before.native, after.native) ? undefined : before;
}

/** Whether some column of a table in both schemas is narrowed: the contract narrows it. */
export function narrowsColumns(previous: SchemaShape, next: SchemaShape): boolean {
  return [...next].some(([table, shape]) => previous.has(table) && [...shape.columns.keys()].some((name) => narrowedColumn(previous.get(table)!, shape, name) !== undefined));
}

/** Changes that no expand can serve to both builds: refused, with the way to do them in two deploys. */
export function refuseWhatCannotRoll(before: SchemaShape, next: SchemaShape, renames: Renames, assessment: ChangeAssessment): void {
  const problems: string[] = [];
  for (const table of before.keys())
    if (!next.has(table)) problems.push(`table ${table} is dropped: the old build still serves it. Deploy once without the resource's routes in use, or with deploy: restart.`);
  const renamedFrom = (table: string, column: string) => renames.columns.find((rename) => rename.table === table && rename.to === column)?.from ?? column;
  for (const [table, shape] of next)
    for (const [name, column] of shape.columns) {
      const old = before.get(table)?.columns.get(renamedFrom(table, name));
      if (old && old.type !== column.type)
        problems.push(`${table}.${name} changes type from ${old.type} to ${column.type}: both builds would read one column as two types. Add a field of the new type under a new name, let both builds run, then drop the old one in a later deploy.`);
    }
  for (const column of assessment.required)
    if (column.added && !renames.columns.some((rename) => rename.table === column.table && rename.to === column.column) && prismaLiteral(column.fill) === undefined)
      problems.push(`${column.table}.${column.column} is a new required field whose backfill (a ${column.fill.type}) cannot be a column default: give it a text, number or boolean backfill.`);
  if (problems.length > 0)
    throw new HashapiError(`deploy: rolling cannot split this change into an expand and a contract:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
}

/** A field line made optional (`Type?`), its other attributes kept. */
function optional(line: string): string {
  return /^(\s*\w+\s+\w+)\?/.test(line) ? line : line.replace(/^(\s*\w+\s+\w+)/, "$1?");
}

function withDefault(line: string, fill: ColumnFill, table: string, column: string): string {
  const literal = prismaLiteral(fill);
  if (literal === undefined) throw new HashapiError(`${table}.${column}: its backfill cannot be a column default`);
  return /@default\(/.test(line) ? line : line.replace(/^(\s*\w+\s+\w+\??)(\s*)(.*)$/, (_all, head: string, _space: string, rest: string) => `${head} @default(${literal})${rest ? ` ${rest}` : ""}`);
}

function prismaLiteral(fill: ColumnFill): string | undefined {
  if (fill.type === "integer" || fill.type === "decimal") return String(fill.value);
  if (fill.type === "boolean") return fill.value === true ? "true" : "false";
  if (fill.type === "tenant" || fill.type === "json" || fill.type === "date" || fill.type === "datetime") return undefined;
  return JSON.stringify(String(fill.value));
}

/** The statements of the expand around its diff: renames of tables, fills, the triggers and views. */
export function expandStatements(plan: UnionPlan): { before: string[]; after: string[] } {
  const { renames } = plan;
  const before = renames.tables.length > 0 ? [`-- Renamed tables (renamedFrom): the old name stays a view until the contract\n${renameStatements({ tables: renames.tables, columns: [] }, "postgresql").join("\n")}\n`] : [];
  const after: string[] = [];
  for (const { table, from, to } of renames.columns)
    after.push(
      [
        `-- ${table}.${from} is renamed ${to}: the new column is filled from the old one and kept in step with it both ways while the old build runs`,
        `UPDATE "${table}" SET "${to}" = "${from}" WHERE "${to}" IS NULL;`,
        `CREATE FUNCTION "${syncName(table, to)}"() RETURNS trigger LANGUAGE plpgsql AS $$`,
        `BEGIN`,
        `  IF TG_OP = 'INSERT' THEN`,
        `    NEW."${to}" := COALESCE(NEW."${to}", NEW."${from}");`,
        `    NEW."${from}" := COALESCE(NEW."${from}", NEW."${to}");`,
        `  ELSIF NEW."${to}" IS DISTINCT FROM OLD."${to}" THEN`,
        `    NEW."${from}" := NEW."${to}";`,
        `  ELSIF NEW."${from}" IS DISTINCT FROM OLD."${from}" THEN`,
        `    NEW."${to}" := NEW."${from}";`,
        `  END IF;`,
        `  RETURN NEW;`,
        `END $$;`,
        `CREATE TRIGGER "${syncName(table, to)}" BEFORE INSERT OR UPDATE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${syncName(table, to)}"();`,
        "",
      ].join("\n"),
    );
  const filled = plan.required.filter((column) => !column.added);
  if (filled.length > 0) after.push(`-- Rows without a value get the backfill (the contract makes the columns required)\n${filled.map((column) => fillStatement(column, "postgresql")).join("\n")}\n`);
  for (const { from, to } of renames.tables) after.push(`-- The old build still names ${from}: a view over ${to}, which PostgreSQL writes through\nCREATE VIEW "${from}" AS SELECT * FROM "${to}";\n`);
  return { before, after };
}

/** The statements of the contract before its diff: the old shape's views and triggers go, rows are filled. */
export function contractStatements(plan: UnionPlan): string[] {
  const parts: string[] = [];
  for (const { from } of plan.renames.tables) parts.push(`-- No build names ${from} any more\nDROP VIEW IF EXISTS "${from}";\n`);
  for (const { table, to } of plan.renames.columns) parts.push(`DROP TRIGGER IF EXISTS "${syncName(table, to)}" ON "${table}";\nDROP FUNCTION IF EXISTS "${syncName(table, to)}"();\n`);
  // The old build may have written rows without a value since the expand.
  const filled = plan.required.filter((column) => !column.added);
  if (filled.length > 0) parts.push(`-- Rows the old build wrote without a value get the backfill\n${filled.map((column) => fillStatement(column, "postgresql")).join("\n")}\n`);
  return parts;
}

const syncName = (table: string, column: string) => `hashapi_sync_${table}_${column}`;
