// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { quote, type Sql } from "../db/sql.js";
import type { JobHandler, JobSettings, Schedule } from "../jobs/jobs.js";
import { insertJob } from "../jobs/queue.js";
import type { Files } from "./files.js";
import {
  attachedToMissing,
  markRemoving,
  unattachedBefore,
  uploadById,
  uploadsOfRecord,
  type Upload,
} from "./uploads.js";

/*
 * Files leave with the writes that let go of them, after those commit: a replaced file, a record
 * hard-deleted. Each is a job of hashapi's own (`hashapi:file-release`), enqueued in the write's
 * transaction and retried as every job; it removes the file only if no record holds it any more,
 * so a retry, a restore or a race can never remove a file in use. A schedule (`hashapi:file-sweep`,
 * every ten minutes across every instance) removes uploads never attached once their grace is
 * over, and files of records gone by a cascade or a purge.
 */

export const releaseJobName = "hashapi:file-release";
export const sweepJobName = "hashapi:file-sweep";
export const releaseJobSettings: JobSettings = { attempts: 10, timeoutMs: 60_000, concurrency: 4 };
export const sweepJobSettings: JobSettings = { attempts: 3, timeoutMs: 300_000, concurrency: 1 };
export const sweepSchedule: Schedule = {
  name: sweepJobName,
  cron: "*/10 * * * *",
  timezone: "UTC",
  job: sweepJobName,
};

/** Enqueues the release of every file a record holds, in the transaction that deletes it. */
export async function releaseFilesOf(tx: Sql, prefix: string, recordId: number): Promise<void> {
  for (const upload of await uploadsOfRecord(tx, prefix, recordId))
    await insertJob(tx, releaseJobName, { upload });
}

/** Enqueues the release of one upload, by id. */
export function releaseUpload(tx: Sql, upload: number): Promise<void> {
  return insertJob(tx, releaseJobName, { upload });
}

/** Whether a record still holds the upload, in any of its resource's file columns. */
async function stillHeld(files: Files, upload: Upload): Promise<boolean> {
  const resource = files.columns.get(upload.prefix);
  // A resource this build does not know: nothing can be decided, so nothing is removed.
  if (resource === undefined || upload.recordId === null) return true;
  const list = resource.columns.map(quote).join(", ");
  const text = `SELECT ${list} FROM ${quote(resource.table)} WHERE "id" = ${files.sql.dialect.placeholder(1)}`;
  const row = await files.sql.get(text, [upload.recordId]);
  if (!row) return false;
  return resource.columns.some((column) => keyOf(row[column]) === upload.key);
}

/** The storage key a file column's stored value names. */
export function keyOf(value: unknown): string | undefined {
  const stored = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  if (typeof stored !== "object" || stored === null) return undefined;
  const key = (stored as { key?: unknown }).key;
  return typeof key === "string" ? key : undefined;
}

export function releaseJobHandler(files: Files): JobHandler {
  return async (payload) => {
    const id = Number((payload as { upload?: unknown } | null)?.upload);
    if (!Number.isSafeInteger(id)) return;
    const upload = await uploadById(files.sql, id);
    if (upload === undefined || upload.state !== "attached") return;
    if (await stillHeld(files, upload)) return;
    await files.forget(upload.id, upload.key);
  };
}

const batch = 200;

export function sweepJobHandler(files: Files): JobHandler {
  return async (_payload, ctx) => {
    const graceEnd = new Date(Date.now() - files.settings.orphanHours * 3600 * 1000);
    let removed = 0;
    for (let round = 0; round < 25 && !ctx.signal.aborted; round += 1) {
      const orphans = await unattachedBefore(files.sql, graceEnd, batch);
      for (const upload of orphans)
        if (await markRemoving(files.sql, upload.id)) await files.forget(upload.id, upload.key);
      removed += orphans.length;
      if (orphans.length < batch) break;
    }
    for (const [prefix, { table }] of files.columns)
      for (let round = 0; round < 25 && !ctx.signal.aborted; round += 1) {
        const gone = await attachedToMissing(files.sql, prefix, table, batch);
        for (const upload of gone) await files.forget(upload.id, upload.key);
        removed += gone.length;
        if (gone.length < batch) break;
      }
    if (removed > 0) ctx.log.info({ removed }, "removed orphaned files");
  };
}
