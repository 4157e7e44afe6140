/** An index or table hashapi's migrations own beside Prisma's diff (owned-sql.ts), with its statements. */
export interface OwnedObject {
  /** Equal ids: the database has it as wanted (its name, table, columns and definition). */
  readonly id: string;
  readonly table: string;
  /** The database objects it makes (indexes, tables, triggers), to find them in the catalog. */
  readonly names: readonly string[];
  readonly create: string;
  /** After SQLite rebuilt its table (which drops what Prisma does not know of). */
  readonly recreate: string;
  readonly drop: string;
  /** A statement it needs first (an extension), written once before every create that needs it. */
  readonly needs?: string;
}
