import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../runtime/common/src/db/sql.js";
import { claimJobs, insertJob, retryJob, settleJob } from "../../runtime/common/src/jobs/queue.js";
import { jobsTableStatements } from "../support/events-table.js";
import { integrationTargets, openIntegrationDatabase, type IntegrationDatabase } from "../support/integration-database.js";

/**
 * A retry answers the job as its own UPDATE left it (runtime jobs/queue.ts retryJob). A worker may
 * claim the job the moment that statement ends (CI saw it on PostgreSQL, where another process's
 * worker polls): the retry still worked, and its answer must say "pending", not what happened next.
 */
describe.each(integrationTargets)("retrying a job on $label", ({ dialect }) => {
  let db: Sql;
  let opened: IntegrationDatabase | undefined;

  beforeAll(async () => {
    opened = await openIntegrationDatabase(dialect, "job_retry", 2);
    db = opened.db;
    for (const statement of jobsTableStatements(dialect)) await db.exec(statement);
  }, 120_000);

  afterAll(async () => {
    await opened?.close();
  });

  /** The database as the retry sees it, with a worker that claims every due job right after each UPDATE of a job. */
  function withEagerWorker(sql: Sql): Sql {
    const claimAfter = async <T>(text: unknown, ran: Promise<T>): Promise<T> => {
      const result = await ran;
      if (typeof text === "string" && text.startsWith(`UPDATE "hashapi_jobs"`)) await claimJobs(sql, ["flaky"], 10, () => 60_000);
      return result;
    };
    return {
      ...sql,
      dialect: sql.dialect,
      all: (query, values) => claimAfter(query, sql.all(query, values)),
      get: (query, values) => sql.get(query, values),
      rows: (query, values) => sql.rows(query, values),
      run: (query, values) => claimAfter(query, sql.run(query, values)),
    };
  }

  it("answers pending for a failed job a worker takes at once, and leaves a running or done one as it is", async () => {
    await insertJob(db, "flaky", null, { key: "once" });
    const [claimed] = await claimJobs(db, ["flaky"], 1, () => 60_000);
    expect(await settleJob(db, claimed!, { error: "still failing", retryAt: null })).toBe(true);
    const retried = await retryJob(withEagerWorker(db), claimed!.hash);
    expect(retried).toMatchObject({ id: claimed!.hash, status: "pending", attempts: 1, last_error: "still failing" });
    // The eager worker did take it: a retry of a running job changes nothing and says so.
    expect(await retryJob(db, claimed!.hash)).toMatchObject({ status: "running", attempts: 2 });
    expect(await retryJob(db, "JOB_AAAAAAAA")).toBeNull();
  });
});
