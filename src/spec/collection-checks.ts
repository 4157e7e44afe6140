import { defaultCollection } from "../model/naming.js";
import type { CheckedResource } from "./resource-checks.js";
import type { Problem, ProjectSpec } from "./types.js";

/**
 * Collections the service's own routes hold under /api for this project: a resource there would
 * be routed twice (the service would not start). Each with why, for the message.
 */
function reservedCollections(project: ProjectSpec): Map<string, string> {
  const reserved = new Map<string, string>();
  if (Object.keys(project.jobs).length > 0 || project.mail)
    reserved.set("jobs", "/api/jobs lists the service's jobs (hashapi.yaml jobs:, and mail: sends by a job)");
  if (project.webhooks.length > 0) reserved.set("webhooks", "/api/webhooks/deliveries lists the webhooks' deliveries (hashapi.yaml webhooks:)");
  if (project.tenancy) reserved.set("members", "/api/members are a tenant's members (hashapi.yaml tenancy:)");
  return reserved;
}

/** Names of openapi.json's schemas this project has (with jobs, with webhooks): no resource may take one. */
function reservedSchemas(project: ProjectSpec): Map<string, string> {
  const reserved = new Map<string, string>();
  if (Object.keys(project.jobs).length > 0) reserved.set("Job", "the schema of /api/jobs's entries (hashapi.yaml jobs:)");
  if (project.webhooks.length > 0) reserved.set("Delivery", "the schema of the webhooks' deliveries (hashapi.yaml webhooks:)");
  if (project.tenancy) reserved.set("Member", "the typed client's `members` are a tenant's members (hashapi.yaml tenancy:)");
  return reserved;
}

/** No resource's name is one of the schemas openapi.json holds for the service's own routes. */
export function checkReservedNames(project: ProjectSpec, resources: readonly CheckedResource[]): Problem[] {
  const reserved = reservedSchemas(project);
  return resources.flatMap(({ spec, source }) => {
    const why = reserved.get(spec.name);
    return why === undefined ? [] : [source.problem(["name"], `"${spec.name}" is ${why} in openapi.json; choose another name (renamedFrom: keeps the data)`)];
  });
}

/** No resource's collection is one the service's own routes hold. */
export function checkReservedCollections(project: ProjectSpec, resources: readonly CheckedResource[]): Problem[] {
  const reserved = reservedCollections(project);
  return resources.flatMap(({ spec, source }) => {
    const collection = spec.collection ?? defaultCollection(spec.name);
    const why = reserved.get(collection);
    if (why === undefined) return [];
    return [source.problem([spec.collection ? "collection" : "name"], `collection "${collection}" is taken: ${why}; set another collection: here`)];
  });
}
