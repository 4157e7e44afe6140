// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { resolve } from "node:path";
import type { Request } from "express";
import { JobQueue } from "../jobs/jobs.js";
import type { Database } from "../db/database.js";
import type { JwtSettings } from "../base/tokens.js";
import {
  releaseJobHandler,
  releaseJobName,
  releaseJobSettings,
  sweepJobHandler,
  sweepJobName,
  sweepJobSettings,
  sweepSchedule,
} from "../files/file-jobs.js";
import { Files } from "../files/files.js";
import { LocalStorage } from "../files/local-storage.js";
import { isMultipart } from "../files/multipart.js";
import { S3Storage } from "../files/s3-storage.js";
import { UrlSigner } from "../files/signed-urls.js";
import type { StorageConfig } from "../files/storage-settings.js";

/*
 * hashapi.yaml's `storage:` in the composed service: the files of every resource with file fields
 * (files/), hashapi's own jobs that release and sweep them, and which requests stream their body.
 */

/** The service's files, in the storage the configuration chose. */
export function filesOf(
  storage: StorageConfig,
  db: Database,
  settings: { jwt: JwtSettings; appUrl: string | undefined },
): Files {
  const signer = new UrlSigner(settings.jwt.key);
  const { choice } = storage;
  const store =
    choice.driver === "local"
      ? new LocalStorage(resolve(choice.folder), signer, settings.appUrl ?? "")
      : new S3Storage(choice.s3, resolve(choice.spool), signer);
  return new Files(store, db, storage.settings, signer);
}

/** The project's jobs with the files' release job and sweep schedule (names of hashapi's own). */
export function withFileJobs(jobs: JobQueue | undefined, files: Files): JobQueue {
  return (jobs ?? new JobQueue({}, {}))
    .including(releaseJobName, releaseJobSettings, releaseJobHandler(files))
    .including(sweepJobName, sweepJobSettings, sweepJobHandler(files), sweepSchedule);
}

/**
 * The requests whose route reads the body as a stream (http/json-body.ts skips them): a two-phase
 * upload's PUT, and a multipart create or update of a resource with file fields.
 */
export function streamedBodies(
  base: string,
  collections: readonly string[],
): (req: Request) => boolean {
  const escaped = collections.map((collection) =>
    collection.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&"),
  );
  const writes = new RegExp(`^${base}/(?:${escaped.join("|")})(?:/[^/]+)?/?$`);
  const puts = new RegExp(`^${base}/uploads/[^/]+$`);
  return (req) =>
    (req.method === "PUT" && puts.test(req.path)) ||
    (collections.length > 0 && isMultipart(req) && writes.test(req.path));
}
