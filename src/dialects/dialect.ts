import type { ProjectText } from "./project-text.js";

/**
 * What the generator asks of a database, in one object per database (sqlite.ts, postgresql.ts):
 * shared code asks the object, never the name. The runtime's counterpart is each driver's
 * `SqlDialect` (runtime/<database>/src/db/dialect.ts). docs/architecture.md lists what a third
 * database would add.
 */
export type Provider = "sqlite" | "postgresql";

export interface GeneratorDialect {
  readonly provider: Provider;
  /** Its name in messages. */
  readonly label: string;
  /** DATABASE_URL in a new project's .env: a file beside it, or a local server. */
  readonly defaultUrl: string;
  /** Prisma's `@db.` native types are written (column widths, decimal precision, timestamps). */
  readonly nativeTypes: boolean;
  /** Primary and foreign keys carry names Prisma manages (`map:`); indexes and uniques do everywhere. */
  readonly namedKeys: boolean;
  /** The longest identifier the database keeps (PostgreSQL cuts at 63 bytes). */
  readonly identifierLimit: number;
  /** Request counts live in a table every instance shares (else in the supervisor's memory). */
  readonly sharedRequestCounts: boolean;
  /** Most ALTERs rebuild the table (SQLite), dropping indexes Prisma's schema does not declare. */
  readonly alterRebuildsTables: boolean;
  /** Significant digits a decimal keeps (SQLite: 15, a 64-bit float); a wider precision is a spec error. */
  readonly decimalDigits: number;
  /** A json field may have a default (Prisma writes SQLite's unquoted, which SQLite cannot read). */
  readonly jsonDefaults: boolean;
  /** A migration's fill value as the service stores it (see migrate/fills.ts). */
  readonly literal: {
    boolean(value: boolean): string;
    date(day: string): string;
    datetime(iso: string): string;
    readonly now: string;
  };
  /** Statements a table rename needs beside ALTER TABLE … RENAME TO (PostgreSQL's id sequence). */
  tableRenameExtras(from: string, to: string): string[];
  /** The texts of `column` in a group, comma-separated, for a refusal that lists them. */
  joinedTexts(column: string): string;
  /** An UPDATE of the events selected by `where` that renames key `from` of their changes to `to`. */
  moveChangesKey(where: string, from: string, to: string): string;
  /** What the project's package.json, Prisma config, .env.example, Dockerfile and README say of it. */
  readonly projectText: ProjectText;
}

/** The SQL text literal of `content`. */
export const textLiteral = (content: string) => `'${content.replaceAll("'", "''")}'`;
