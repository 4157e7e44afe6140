// Created once by hashapi from specs/. This file is yours: hashapi never overwrites it.

import type { JobHandlers } from "../lib/jobs/jobs.js";
import type { JobName } from "../jobs.js";

/**
 * Yours (hashapi writes it once and never again): the code of each job hashapi.yaml declares under
 * `jobs:` (a job declared there and missing here does not compile). A job runs after the
 * transaction that enqueued it commits, in whichever process of the service claims it, at least
 * once: make it safe to repeat. What it throws (or running over its timeoutSeconds) is retried
 * with growing delays until its attempts are spent; then it is kept as failed, listed at
 * GET /api/jobs?status=failed and retried with POST /api/jobs/{id}/retry.
 *
 * Enqueue one with a write, from your controller (src/custom/<resource>/<resource>.controller.ts):
 *
 *   protected override async onWrite(req: Request, write: CommittingWrite<Candidate>) {
 *     if (write.action === "create")
 *       await write.jobs.enqueue("send-welcome", { candidate: write.record.hash });
 *   }
 *
 * and run it here, reading what it needs as the service itself does:
 *
 *   "send-welcome": async (payload, ctx) => {
 *     const { candidate } = payload as { candidate: string };
 *     const record = await ctx.read(candidate);
 *     if (!record) return; // deleted since
 *     ctx.log.info({ candidate }, "welcoming");
 *   },
 */
export const jobs: JobHandlers<JobName> = {
};
