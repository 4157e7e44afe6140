import type { FieldType } from "./field-types.js";

/**
 * What the specs say about changing a live database (docs/spec-format.md, "Changing a live
 * database"): renames to carry out instead of drop + add, and the value existing rows get when a
 * column becomes required. The migration planner (src/migrate/) uses what applies to the change at
 * hand and ignores the rest, so a `renamedFrom` left in a spec after its migration changes nothing.
 */
export interface SchemaEvolution {
  /**
   * A resource's table renamed: `from` is the resource's previous name (the Prisma model name);
   * `events`, its events' previous and new names (`appointment` → `visit`), absent for a pivot.
   */
  tables: { from: string; table: string; events?: { from: string; to: string } }[];
  /**
   * A column renamed: a field's `renamedFrom`, or a belongsTo's (its foreign key); `eventKey`, the
   * key its events record it under before and after (a belongsTo's is the relation's name).
   */
  columns: { table: string; from: string; to: string; eventKey?: { from: string; to: string } }[];
  /**
   * Each resource's table → its events' name and the keys they record now: a column dropped from
   * it leaves its key in old events, which the migration puts out of the way (src/migrate/event-keys.ts).
   */
  events: Record<string, { event: string; keys: readonly string[] }>;
  /** The value for rows without one when `column` becomes required: a `backfill:`, else the default. */
  fills: ColumnFill[];
  /** Each resource's table → its spec file, for messages. */
  sources: Record<string, string>;
  /** With tenancy: the tenant resource, and the tables whose records carry a tenant_id. */
  tenancy?: { resource: string; tables: string[] };
}

export interface ColumnFill {
  table: string;
  column: string;
  /** A field's type; `tenant` (tenancy.adopt): `value` is a tenant's public id in `tenants`. */
  type: FieldType | "tenant";
  value: unknown;
  /** For a `tenant` fill: the tenant resource's table. */
  tenants?: string;
}
