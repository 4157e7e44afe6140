// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/** A migration that failed and was rolled back: the database is as it was before it. */
export class MigrationFailed extends Error {
  constructor(
    readonly migration: string,
    readonly statement: string,
    readonly reason: string,
  ) {
    super(
      `Migration ${migration} failed and was rolled back: the database is as it was before it.\n` +
        `  statement: ${statement.length > 300 ? `${statement.slice(0, 300)}…` : statement}\n` +
        `  reason: ${reason}`,
    );
  }
}

/** A state the migrations cannot proceed from, with the way out in the message. */
export class MigrationRefused extends Error {}
