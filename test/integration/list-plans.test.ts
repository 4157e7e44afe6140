import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { defineTable, Table, type TableSpec } from "../../runtime/common/src/data/table.js";
import { postgresBinDir, startPostgres, type PostgresServer } from "../support/postgres.js";

/**
 * How PostgreSQL plans the lists of a soft-deleting table (issue 23): the live rows of a page, a
 * cursor's next page and the last page backwards walk the (deleted_at, created_at, id) index the
 * schema declares, instead of reading every row and sorting them. PostgreSQL does not take
 * `deleted_at IS NULL` as fixing deleted_at, so the statement orders by deleted_at first; without
 * that, every plan below is a Seq Scan and a Sort (checked). Real PostgreSQL, the runtime's driver,
 * EXPLAIN of the very statements Table ran.
 */
const patients: TableSpec = defineTable<any>({ name: "patients", softDelete: true, columns: { name: "string" } });

async function openPostgres(url: string): Promise<Sql> {
  const driver = "../../runtime/postgresql/src/db/driver.js";
  return ((await import(driver)) as { openSql: (url: string, poolSize: number) => Sql }).openSql(url, 2);
}

describe.skipIf(!postgresBinDir() && !process.env.CI)("list plans on PostgreSQL", () => {
  let postgres: PostgresServer;
  let db: Sql;
  const ran: { text: string; values: readonly unknown[] }[] = [];
  let table: Table<any, any>;

  beforeAll(async () => {
    postgres = await startPostgres();
    await postgres.createDatabase("plans");
    const real = await openPostgres(postgres.url("plans"));
    const recorded = (method: "all" | "get" | "rows" | "run") => (query: never, values?: readonly unknown[]) => {
      ran.push({ text: String(query), values: values ?? [] });
      return (real[method] as (q: never, v?: readonly unknown[]) => Promise<never>)(query, values);
    };
    db = { ...real, all: recorded("all"), get: recorded("get"), rows: recorded("rows"), run: recorded("run") };
    await real.exec(`CREATE TABLE "patients" ("id" SERIAL PRIMARY KEY, "hash" VARCHAR(20) UNIQUE NOT NULL, "name" TEXT NOT NULL, "created_at" TIMESTAMPTZ(3) NOT NULL, "updated_at" TIMESTAMPTZ(3) NOT NULL, "deleted_at" TIMESTAMPTZ(3))`);
    await real.exec(`CREATE INDEX "patients_deleted_at_created_at_id_idx" ON "patients" ("deleted_at", "created_at", "id")`);
    // 20,000 rows, one in 50 soft-deleted, then the statistics autovacuum would gather.
    await real.exec(`INSERT INTO "patients" ("hash", "name", "created_at", "updated_at", "deleted_at") SELECT 'PAT_' || lpad(i::text, 8, '0'), 'Patient ' || i, now() - (20000 - i) * interval '1 minute', now(), CASE WHEN i % 50 = 0 THEN now() END FROM generate_series(1, 20000) AS i`);
    await real.exec(`VACUUM ANALYZE "patients"`);
    table = new Table(db, patients);
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await postgres?.destroy();
  });

  /** The plan of the last statement Table ran, with its own values. */
  async function lastPlan(): Promise<string> {
    const { text, values } = ran.at(-1)!;
    const rows = (await db.all(`EXPLAIN (COSTS OFF) ${text}` as never, values)) as { "QUERY PLAN": string }[];
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  }

  it("reads a page of live rows, forwards and backwards, from the order index", async () => {
    expect(await table.findMany({ limit: 16 })).toHaveLength(16);
    const first = await lastPlan();
    expect(first).toContain("Index Scan using patients_deleted_at_created_at_id_idx");
    expect(first).not.toMatch(/Sort|Seq Scan/);
    await table.findMany({ orderBy: [{ created_at: "desc" }, { id: "desc" }], limit: 16 });
    expect(await lastPlan()).toContain("Index Scan Backward using patients_deleted_at_created_at_id_idx");
  });

  it("seeks a cursor's position in the index instead of reading the rows before it", async () => {
    const [edge] = await table.findMany({ limit: 1, offset: 10_000 });
    const page = await table.findMany({ after: [edge.created_at, edge.id], limit: 16 });
    expect(page[0].id).toBeGreaterThan(edge.id);
    expect(page.every((row: { deleted_at: unknown }) => row.deleted_at === null)).toBe(true);
    expect(await lastPlan()).toMatch(/Index Cond: \(\(deleted_at IS NULL\) AND \(ROW\(created_at, id\) > ROW\(/);
  });

  it("keeps the order of a list with trashed rows, where no deleted_at condition applies", async () => {
    const rows = await table.findMany({ withTrashed: true, limit: 100 });
    expect(rows.some((row: { deleted_at: unknown }) => row.deleted_at !== null)).toBe(true);
    expect(rows.map((row: { id: number }) => row.id)).toEqual([...rows.map((row: { id: number }) => row.id)].sort((a, b) => a - b));
  });
});
