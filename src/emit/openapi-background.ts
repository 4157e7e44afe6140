import { exampleHash, hashPattern } from "../model/hash-format.js";
import type { JsonSchema } from "../model/json-schema.js";
import type { ProjectModel } from "../model/types.js";
import { badRequest, json, listResponseSchema, postBodyErrors, ref, responseRef, successRecord } from "./openapi-parts.js";

/*
 * The service's background work in openapi.json: the webhooks' deliveries and the jobs, each a
 * list and a retry for the most privileged role (runtime resource/background-routes.ts).
 */

const time = { type: ["string", "null"], format: "date-time" };

/** The schemas of what the project has: Delivery with webhooks, Job with jobs. */
export function backgroundSchemas(project: ProjectModel): Record<string, JsonSchema> {
  return {
    ...(project.webhooks.length > 0 ? { Delivery: deliverySchema(project) } : {}),
    ...(project.jobs.length > 0 ? { Job: jobSchema(project) } : {}),
  };
}

export function backgroundPaths(project: ProjectModel): Record<string, object> {
  return {
    ...(project.webhooks.length > 0
      ? workPaths(project, {
          path: "/api/webhooks/deliveries",
          tag: "webhooks",
          schema: "Delivery",
          idPrefix: "DLV",
          statuses: deliveryStatuses,
          filter: { name: "webhook", values: project.webhooks.map((webhook) => webhook.name) },
          list: { operationId: "listDeliveries", summary: "The deliveries of the webhooks, newest first" },
          retry: { operationId: "retryDelivery", summary: "Attempt a delivery again now (its attempts so far kept)" },
        })
      : {}),
    ...(project.jobs.length > 0
      ? workPaths(project, {
          path: "/api/jobs",
          tag: "jobs",
          schema: "Job",
          idPrefix: "JOB",
          statuses: jobStatuses,
          filter: { name: "name", values: project.jobs.map((job) => job.name) },
          list: { operationId: "listJobs", summary: "The jobs, newest first (failed ones are the dead letters)" },
          retry: { operationId: "retryJob", summary: "Run a failed or pending job again now (one more attempt)" },
        })
      : {}),
  };
}

const deliveryStatuses = ["pending", "delivered", "failed", "skipped"];
const jobStatuses = ["pending", "running", "done", "failed"];

/** One event's delivery to one webhook (runtime events/deliveries.ts). */
function deliverySchema(project: ProjectModel): JsonSchema {
  return {
    type: "object",
    required: ["id", "webhook", "event", "record", "status", "attempts", "last_status", "last_error", "next_attempt_at", "delivered_at", "created_at"],
    properties: {
      id: { type: "string", pattern: hashPattern("DLV"), examples: [exampleHash("DLV")] },
      webhook: { enum: project.webhooks.map((webhook) => webhook.name) },
      event: { type: "string", examples: ["patient.updated"] },
      record: { type: "string", description: "the hash of the record the event is about" },
      status: { enum: deliveryStatuses, description: "skipped: not sent, the webhook's role may not read the record under the current specs" },
      attempts: { type: "integer", minimum: 0 },
      last_status: { type: ["integer", "null"], description: "the receiver's answer to the last attempt; null when none came" },
      last_error: { type: ["string", "null"] },
      next_attempt_at: { ...time, description: "when a pending delivery is attempted next" },
      delivered_at: time,
      created_at: { type: "string", format: "date-time" },
    },
    additionalProperties: false,
  };
}

/** One job of hashapi.yaml's `jobs` (runtime jobs/queue.ts). */
function jobSchema(project: ProjectModel): JsonSchema {
  return {
    type: "object",
    required: ["id", "name", "status", "attempts", "key", "last_error", "run_at", "finished_at", "created_at"],
    properties: {
      id: { type: "string", pattern: hashPattern("JOB"), examples: [exampleHash("JOB")] },
      name: { enum: project.jobs.map((job) => job.name) },
      status: { enum: jobStatuses, description: "failed: its attempts are spent (a dead letter); retry it with POST /api/jobs/{id}/retry" },
      attempts: { type: "integer", minimum: 0 },
      key: { type: ["string", "null"], description: "what made it once only: a schedule's tick (schedule:<name>:<instant>) or the enqueuer's own key" },
      last_error: { type: ["string", "null"] },
      run_at: { ...time, description: "when a pending job runs next" },
      finished_at: time,
      created_at: { type: "string", format: "date-time" },
    },
    additionalProperties: false,
  };
}

interface WorkRoutes {
  path: string;
  tag: string;
  schema: string;
  idPrefix: string;
  statuses: string[];
  filter: { name: string; values: string[] };
  list: { operationId: string; summary: string };
  retry: { operationId: string; summary: string };
}

/** A list and a retry, for the most privileged role (runtime resource/work-routes.ts). */
function workPaths(project: ProjectModel, routes: WorkRoutes): Record<string, object> {
  const role = project.auth.roles[0]!;
  const access = { "x-roles": [role], description: `Only for the role ${role}; 403 for the others.` };
  const tags = [routes.tag];
  const common = { "401": responseRef("Unauthenticated"), "403": responseRef("Forbidden"), "500": responseRef("ServerError") };
  return {
    [routes.path]: {
      get: {
        ...routes.list,
        tags,
        ...access,
        parameters: [
          { name: "page", in: "query", schema: { type: "integer", minimum: 1, maximum: 2_147_483_647, default: 1 } },
          { name: "per_page", in: "query", schema: { type: "integer", minimum: 1, maximum: project.pagination.maxPerPage, default: project.pagination.defaultPerPage } },
          { name: "status", in: "query", schema: { enum: routes.statuses } },
          { name: routes.filter.name, in: "query", schema: { enum: routes.filter.values } },
        ],
        responses: { "200": { description: "a page, newest first", content: json(listResponseSchema(ref(routes.schema))) }, ...badRequest, ...common, "422": responseRef("ValidationFailed") },
      },
    },
    [`${routes.path}/{id}/retry`]: {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", examples: [exampleHash(routes.idPrefix)] } }],
      post: {
        ...routes.retry,
        tags,
        ...access,
        responses: { "200": { description: "due now", content: successRecord(ref(routes.schema), 200) }, ...postBodyErrors, ...common, "404": responseRef("NotFound") },
      },
    },
  };
}
