/**
 * The outbox table (runtime lib/events/outbox.ts) for tests that build their own tables by hand: the
 * columns the Prisma model HashapiEvent gives it in a generated project's migrations.
 */
export function eventsTableStatement(dialect: "sqlite" | "postgresql"): string {
  const id = dialect === "sqlite" ? `"id" INTEGER PRIMARY KEY AUTOINCREMENT` : `"id" SERIAL PRIMARY KEY`;
  const time = dialect === "sqlite" ? "DATETIME" : "TIMESTAMPTZ(3)";
  return `CREATE TABLE "hashapi_events" (${id}, "type" TEXT NOT NULL, "record_hash" TEXT NOT NULL, "actor_hash" TEXT, "actor_name" TEXT, "changes" TEXT NOT NULL, "fanned_out" BOOLEAN NOT NULL DEFAULT false, "created_at" ${time} NOT NULL)`;
}
