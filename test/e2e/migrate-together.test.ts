import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/databases.js";
import { databaseTargets } from "../support/hostile.js";
import { startPostgres, type PostgresServer } from "../support/postgres.js";
import { prepareProject, type Project } from "../support/service.js";

/**
 * Instances started together each run `npm run db:migrate` (issue 52): every migration is applied
 * once, the one that waits says what it waits for (the holder, on PostgreSQL), and both end
 * with the database up to date. A migration of its own keeps the first migrator busy for seconds.
 */
const slowMigration: Record<"sqlite" | "postgresql", string> = {
  postgresql: `SELECT pg_sleep(4);\n`,
  // No sleep in SQLite: counting a few million rows of a recursive CTE takes seconds.
  sqlite: `CREATE TABLE "slow_fill" AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 6000000) SELECT count(*) AS n FROM c;\nDROP TABLE "slow_fill";\n`,
};

describe.each(databaseTargets)("two migrators started together on $label", ({ database }) => {
  let postgres: PostgresServer | undefined;
  let project: Project;

  afterAll(async () => {
    await project?.cleanup();
    await postgres?.destroy();
  });

  it("apply each migration once; the other waits, says for what, and finds them applied", async () => {
    let url: string | undefined;
    if (database === "postgresql") {
      postgres = await startPostgres();
      await postgres.createDatabase("first");
      await postgres.createDatabase("together");
      url = postgres.url("first");
    }
    project = await prepareProject({ name: `migrate-together-${database}`, database, databaseUrl: url });
    const folder = join(project.dir, "prisma/migrations/0999_slow");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "migration.sql"), slowMigration[database]);
    const together = database === "postgresql" ? postgres!.url("together") : "file:./data/together.db";
    const env = { DATABASE_URL: together };
    const migrators = [0, 1].map(() => execa("npm", ["run", "db:migrate", "--silent"], { cwd: project.dir, env, all: true, reject: false }));
    const outputs = await Promise.all(migrators);
    for (const output of outputs) expect(output.exitCode, output.all).toBe(0);
    const all = outputs.map((output) => String(output.all));
    const waited = all.filter((output) => output.includes("Waiting for"));
    expect(waited.length, all.join("\n---\n")).toBeGreaterThanOrEqual(1);
    if (database === "postgresql") expect(waited[0]).toMatch(/Waiting for the migration lock \(PostgreSQL advisory lock\): held by process \d+ from /);
    else expect(waited[0]).toContain("Waiting for the database's write lock");
    const folders = (await readdir(join(project.dir, "prisma/migrations"), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    for (const name of folders) expect(all.join("\n").split(`Applied ${name} (`).length - 1, name).toBe(1);
    const records = await queryDatabase(together, project.dir, `SELECT "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name"`);
    expect(records.map((row) => row.migration_name)).toEqual([...folders].sort());
  }, 240_000);
});
