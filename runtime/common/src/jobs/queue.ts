// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID } from "node:crypto";
import { encodeValue, requiredInstant } from "../data/column-codec.js";
import { newHash } from "../base/hash-id.js";
import { recordsTenants } from "../data/outbox.js";
import { delayedSignal } from "../base/signal.js";
import { Binder, quote, type Sql, type SqlRow } from "../db/sql.js";

/*
 * The job queue: one row per job (hashapi_jobs), inserted in the transaction of the code that
 * enqueues it (a write's, a handler's success, a schedule's tick), so a job exists exactly when
 * what asked for it committed. A worker claims due jobs under a lease (`FOR UPDATE SKIP LOCKED` on
 * PostgreSQL, the one writer on SQLite; plain polling, so it works behind PgBouncer in transaction
 * mode), renews it while the job runs, and settles it: done, due again after a delay, or failed
 * once its attempts are spent. While running, `run_at` is the lease's end: a worker that died
 * leaves a job that is claimed again when it runs out, never while its lease holds.
 */

export const jobsTable = quote("hashapi_jobs");

const at = (sql: Sql, date: Date) => encodeValue("datetime", date, sql.dialect);

/** When a job runs, and whether it is put on the queue once only. */
export interface EnqueueOptions {
  /** Not before this instant (default: at once). */
  readonly runAt?: Date;
  /** A job with the same key is put on the queue once: enqueuing it again does nothing. */
  readonly key?: string;
}

/** Tells this process's job worker that jobs were enqueued (a moment after, once per burst). */
export const jobsEnqueued = delayedSignal(5);

/**
 * Puts a job on the queue in the transaction `sql` belongs to (once per `key`, when it has one).
 * `tenant`: with tenancy, the id of the tenant it runs in (a tenant's write or event asked for
 * it); its `key` is then that tenant's, so two tenants' keys never collide.
 */
export async function insertJob(
  sql: Sql,
  name: string,
  payload: unknown,
  options: EnqueueOptions = {},
  tenant: number | null = null,
): Promise<void> {
  const now = new Date();
  const values = new Binder(sql.dialect);
  const tenanted = recordsTenants();
  const key =
    options.key === undefined ? null : tenant === null ? options.key : `${tenant}:${options.key}`;
  const row = [
    values.add(newHash("JOB")),
    values.add(name),
    values.add(JSON.stringify(payload ?? null)),
    values.add(key),
    values.add("pending"),
    values.add(at(sql, options.runAt ?? now)),
    values.add(at(sql, now)),
    values.add(at(sql, now)),
    ...(tenanted ? [values.add(tenant)] : []),
  ];
  const columns = `"hash", "name", "payload", "key", "status", "run_at", "created_at", "updated_at"${tenanted ? `, "tenant_id"` : ""}`;
  await sql.run(
    `INSERT INTO ${jobsTable} (${columns}) VALUES (${row.join(", ")}) ON CONFLICT ("key") DO NOTHING`,
    values.list,
  );
  jobsEnqueued.notify();
}

/** A job a worker holds under its lease. */
export interface ClaimedJob {
  readonly id: number;
  readonly hash: string;
  readonly name: string;
  readonly payload: unknown;
  /** This attempt's number (1 for the first). */
  readonly attempt: number;
  readonly token: string;
  readonly createdAt: Date;
  /** With tenancy: the id of the tenant it runs in, null for none. */
  readonly tenant: number | null;
}

/** Takes up to `limit` due jobs among `names` (the jobs this process runs), each leased for `leaseMs`. */
export async function claimJobs(
  sql: Sql,
  names: readonly string[],
  limit: number,
  leaseMs: (name: string) => number,
): Promise<ClaimedJob[]> {
  if (names.length === 0 || limit <= 0) return [];
  const now = new Date();
  const probe = new Binder(sql.dialect);
  // Looked for first with a plain read: an idle service takes no write lock for nothing.
  const due = await sql.get(
    `SELECT 1 AS "found" FROM ${jobsTable} WHERE "status" IN (${probe.addAll(["pending", "running"])}) AND "run_at" <= ${probe.add(at(sql, now))} LIMIT 1`,
    probe.list,
  );
  if (due === undefined) return [];
  const token = randomUUID();
  // The longest lease of these jobs for the claim; each is set to its own right after (renewJob).
  const longest = Math.max(...names.map(leaseMs));
  const values = new Binder(sql.dialect);
  const set = [
    `"status" = ${values.add("running")}`,
    `"lease" = ${values.add(token)}`,
    `"run_at" = ${values.add(at(sql, new Date(now.getTime() + longest)))}`,
    `"attempts" = "attempts" + 1`,
    `"updated_at" = ${values.add(at(sql, now))}`,
  ];
  const chosen = `SELECT "id" FROM ${jobsTable} WHERE "status" IN (${values.addAll(["pending", "running"])}) AND "run_at" <= ${values.add(at(sql, now))} AND "name" IN (${values.addAll(names)}) ORDER BY "run_at" LIMIT ${values.add(limit)}${sql.dialect.lockClause("claim")}`;
  const rows = await sql.all(
    `UPDATE ${jobsTable} SET ${set.join(", ")} WHERE "id" IN (${chosen}) RETURNING "id", "hash", "name", "payload", "attempts", "created_at"${recordsTenants() ? `, "tenant_id"` : ""}`,
    values.list,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    hash: String(row.hash),
    name: String(row.name),
    payload: JSON.parse(String(row.payload)) as unknown,
    attempt: Number(row.attempts),
    token,
    createdAt: requiredInstant(row.created_at, sql.dialect),
    tenant: row.tenant_id === undefined || row.tenant_id === null ? null : Number(row.tenant_id),
  }));
}

/** Extends a running job's lease to `leaseMs` from now; false when it is no longer the worker's. */
export async function renewJob(sql: Sql, job: ClaimedJob, leaseMs: number): Promise<boolean> {
  const values = new Binder(sql.dialect);
  const changed = await sql.run(
    `UPDATE ${jobsTable} SET "run_at" = ${values.add(at(sql, new Date(Date.now() + leaseMs)))} WHERE "id" = ${values.add(job.id)} AND "lease" = ${values.add(job.token)}`,
    values.list,
  );
  return changed > 0;
}

/** How a run ended: done (no error), due again at `retryAt`, or failed (no retry left). */
export interface JobOutcome {
  readonly error: string | null;
  readonly retryAt: Date | null;
}

/** Records a run's outcome if the job is still the worker's; false when its lease was lost. */
export async function settleJob(sql: Sql, job: ClaimedJob, outcome: JobOutcome): Promise<boolean> {
  const now = new Date();
  const status = outcome.error === null ? "done" : outcome.retryAt === null ? "failed" : "pending";
  const values = new Binder(sql.dialect);
  const set = [
    `"status" = ${values.add(status)}`,
    `"lease" = NULL`,
    `"run_at" = ${values.add(at(sql, outcome.retryAt ?? now))}`,
    `"last_error" = ${values.add(outcome.error?.slice(0, 500) ?? null)}`,
    `"finished_at" = ${values.add(status === "pending" ? null : at(sql, now))}`,
    `"updated_at" = ${values.add(at(sql, now))}`,
    // hashapi's own jobs (a colon in the name: the mail's) keep nothing once done: a sign-up's
    // payload holds a password hash. A failed one keeps it, to be retried.
    ...(status === "done" && job.name.includes(":") ? [`"payload" = 'null'`] : []),
  ];
  const changed = await sql.run(
    `UPDATE ${jobsTable} SET ${set.join(", ")} WHERE "id" = ${values.add(job.id)} AND "lease" = ${values.add(job.token)}`,
    values.list,
  );
  return changed > 0;
}

/** A job as its routes output it. */
export interface JobRecord {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly attempts: number;
  readonly key: string | null;
  readonly last_error: string | null;
  readonly run_at: string | null;
  readonly finished_at: string | null;
  readonly created_at: string;
}

const listedColumns = `"hash", "name", "status", "attempts", "key", "last_error", "run_at", "finished_at", "created_at"`;
const listed = `SELECT ${listedColumns} FROM ${jobsTable}`;

function record(sql: Sql, row: SqlRow): JobRecord {
  const time = (value: unknown) =>
    value === null ? null : requiredInstant(value, sql.dialect).toISOString();
  return {
    id: String(row.hash),
    name: String(row.name),
    status: String(row.status),
    attempts: Number(row.attempts),
    key: row.key === null ? null : String(row.key),
    last_error: row.last_error === null ? null : String(row.last_error),
    run_at: row.status === "pending" ? time(row.run_at) : null,
    finished_at: time(row.finished_at),
    created_at: time(row.created_at)!,
  };
}

/** A page of jobs, newest first, with the given status and name when asked, and their total. */
export async function jobPage(
  sql: Sql,
  filter: { status?: string; name?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: JobRecord[]; total: number }> {
  const where = (values: Binder) => {
    const conditions = [
      ...(filter.status ? [`"status" = ${values.add(filter.status)}`] : []),
      ...(filter.name ? [`"name" = ${values.add(filter.name)}`] : []),
    ];
    return conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
  };
  const values = new Binder(sql.dialect);
  const text = `${listed}${where(values)} ORDER BY "id" DESC LIMIT ${values.add(page.limit)} OFFSET ${values.add(page.offset)}`;
  const counted = new Binder(sql.dialect);
  const [rows, count] = await Promise.all([
    sql.all(text, values.list),
    sql.get(`SELECT COUNT(*) AS "count" FROM ${jobsTable}${where(counted)}`, counted.list),
  ]);
  return { rows: rows.map((row) => record(sql, row)), total: Number(count?.count ?? 0) };
}

/**
 * Makes a failed or pending job due now (its attempts kept, one more allowed); a running or done
 * one is left as it is. The job, or null when there is none. The job a retry answers is the one its
 * UPDATE wrote: a worker may claim it the moment the statement ends, so reading it again could
 * answer "running" for a retry that worked.
 */
export async function retryJob(sql: Sql, hash: string): Promise<JobRecord | null> {
  const values = new Binder(sql.dialect);
  const now = at(sql, new Date());
  const [retried] = await sql.all(
    `UPDATE ${jobsTable} SET "status" = ${values.add("pending")}, "run_at" = ${values.add(now)}, "finished_at" = NULL, "updated_at" = ${values.add(now)} WHERE "hash" = ${values.add(hash)} AND "status" IN (${values.addAll(["pending", "failed"])}) RETURNING ${listedColumns}`,
    values.list,
  );
  if (retried) {
    jobsEnqueued.notify();
    return record(sql, retried);
  }
  const found = new Binder(sql.dialect);
  const row = await sql.get(`${listed} WHERE "hash" = ${found.add(hash)}`, found.list);
  return row ? record(sql, row) : null;
}

/** How far the queue is behind, in seconds: how long the most overdue job has waited (0: none). */
export async function jobLagSeconds(sql: Sql, now = new Date()): Promise<number> {
  const values = new Binder(sql.dialect);
  const row = await sql.get(
    `SELECT "run_at" AS "at" FROM ${jobsTable} WHERE "status" = ${values.add("pending")} ORDER BY "run_at" LIMIT 1`,
    values.list,
  );
  if (row === undefined) return 0;
  return Math.max(0, (now.getTime() - requiredInstant(row.at, sql.dialect).getTime()) / 1000);
}

/** Deletes up to `batch` jobs that finished (done or failed) before `before`; how many it deleted. */
export async function pruneJobs(sql: Sql, before: Date, batch: number): Promise<number> {
  const values = new Binder(sql.dialect);
  const old = `SELECT "id" FROM ${jobsTable} WHERE "finished_at" < ${values.add(at(sql, before))} LIMIT ${values.add(batch)}`;
  return sql.run(`DELETE FROM ${jobsTable} WHERE "id" IN (${old})`, values.list);
}
