// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * A path a project's own code imports (the database handle and the `sql` tag): it stays here, whatever folder of the runtime the
 * module lives in (docs/architecture.md "The runtime: layers"). The runtime itself imports the
 * module where it is.
 */
export * from "../db/database.js";
