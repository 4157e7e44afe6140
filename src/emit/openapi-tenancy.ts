import type { ProjectModel } from "../model/types.js";
import { badRequest, bodyErrors, json, ref, responseRef, successRecord } from "./openapi-parts.js";

/*
 * openapi.json's part of hashapi.yaml `tenancy`: every route of a tenant's records names its tenant
 * in the X-Tenant header (400 without it, 403 for a tenant the caller does not work in), the
 * members' routes, and the caller's own tenants.
 */

const tenantHeader = { $ref: "#/components/parameters/Tenant" };

/** components.parameters: the X-Tenant header. */
export function tenantParameters(project: ProjectModel): Record<string, object> {
  const tenancy = project.tenancy;
  if (!tenancy) return {};
  const tenant = tenancy.resource;
  return {
    Tenant: {
      name: "X-Tenant",
      in: "header",
      required: true,
      description: `The ${tenant.names.label} the request works in: the public id of one the caller is a member of (its role there is the caller's role), or any for a role of tenancy.bypass. 400 without it; 403, the same for any other or none.`,
      schema: { type: "string", examples: [`${tenant.prefix}_7KX9MQ2B`] },
    },
  };
}

/**
 * The X-Tenant header, 400 and 403 on every operation of the tenants' routes: those of tenanted
 * resources, and the tenant resource's own but its create (a new tenant needs none).
 */
export function withTenantHeader(paths: Record<string, object>, project: ProjectModel): void {
  const tenancy = project.tenancy;
  if (!tenancy) return;
  const tenanted = project.resources.filter((resource) => resource.tenant && resource.tenant.kind !== "global").map((resource) => `/api/${resource.collection}`);
  const own = `/api/${tenancy.resource.collection}`;
  for (const [path, item] of Object.entries(paths)) {
    if (!tenanted.some((base) => path === base || path.startsWith(`${base}/`)) && !path.startsWith("/api/members")) continue;
    for (const [method, operation] of Object.entries(item as Record<string, { parameters?: object[]; responses?: Record<string, object> }>)) {
      if (method === "parameters" || (path === own && method === "post")) continue;
      operation.parameters = [tenantHeader, ...(operation.parameters ?? [])];
      operation.responses = { ...badRequest, ...operation.responses, "400": responseRef("BadRequest"), "403": responseRef("Forbidden") };
    }
  }
}

/** The members of the tenant a request works in, and the caller's own tenants. */
export function tenancyPaths(project: ProjectModel): Record<string, object> {
  const tenancy = project.tenancy;
  if (!tenancy) return {};
  const tags = ["members"];
  const role = { type: "string", enum: tenancy.roles };
  const userParameter = { name: "user", in: "path", required: true, schema: { type: "string", examples: ["USR_7KX9MQ2B"] } };
  const member = successRecord(ref("HashapiMember"), 200);
  const errors = { "401": responseRef("Unauthenticated"), "404": responseRef("NotFound"), "422": responseRef("ValidationFailed"), "500": responseRef("ServerError") };
  const manage = `Roles of tenancy.manage (${tenancy.manage.join(", ")}), for members below their own role (the first role also for its peers), never to a role above their own`;
  return {
    "/api/members": {
      get: { operationId: "listMembers", tags, summary: "The members of the tenant, with their role there", responses: { "200": { description: "every member, oldest first", content: json({ type: "object", required: ["type", "status", "data"], properties: { type: { const: "success" }, status: { const: 200 }, data: { type: "array", items: ref("HashapiMember") } } }) }, ...errors } },
      post: { operationId: "addMember", tags, summary: "Add an existing user to the tenant (bypass roles only)", requestBody: { required: true, content: json({ type: "object", required: ["user", "role"], properties: { user: { type: "string" }, role } }) }, responses: { "201": { description: "the member", content: successRecord(ref("HashapiMember"), 201) }, ...errors, ...bodyErrors } },
    },
    "/api/members/{user}": {
      parameters: [userParameter],
      patch: { operationId: "setMemberRole", tags, summary: "Give a member another role", description: `${manage}; the last ${tenancy.roles[0]} keeps the role (409).`, requestBody: { required: true, content: json({ type: "object", required: ["role"], properties: { role } }) }, responses: { "200": { description: "the member", content: member }, ...errors, ...bodyErrors, "409": responseRef("Conflict") } },
      delete: { operationId: "removeMember", tags, summary: "Remove a member (themselves: leave)", description: `${manage}; anyone may leave, but the last ${tenancy.roles[0]} (409).`, responses: { "200": { description: "removed", content: json(ref("Message"), { type: "success", status: 200, message: "Member removed." }) }, ...errors, "409": responseRef("Conflict") } },
    },
    ...(project.auth.acceptsInvitations ? memberInvitationPaths(project) : {}),
    "/api/auth/tenants": {
      get: { operationId: "myTenants", tags: ["auth"], summary: `The ${tenancy.resource.names.pluralLabel} the caller works in, with their role in each`, responses: { "200": { description: "the caller's tenants", content: json({ type: "object", required: ["type", "status", "data"], properties: { type: { const: "success" }, status: { const: 200 }, data: { type: "array", items: ref("HashapiTenantMembership") } } }) }, "401": responseRef("Unauthenticated"), "500": responseRef("ServerError") } },
    },
  };
}

/** With mail: the tenant's pending invitations, made, listed and revoked by its managing roles. */
function memberInvitationPaths(project: ProjectModel): Record<string, object> {
  const tenancy = project.tenancy!;
  const tags = ["members"];
  const access = { "x-roles": tenancy.manage, description: `Roles of tenancy.manage (${tenancy.manage.join(", ")}) and tenancy.bypass only (403 otherwise).` };
  const list = json({ type: "object", required: ["type", "status", "data"], properties: { type: { const: "success" }, status: { const: 200 }, data: { type: "array", items: ref("HashapiTenantInvitation") } } });
  const errors = { "401": responseRef("Unauthenticated"), "500": responseRef("ServerError") };
  const payload = { type: "object", required: ["email", "role"], additionalProperties: false, properties: { email: { type: "string", format: "email", maxLength: 255 }, role: { type: "string", enum: tenancy.roles, description: "at or below the inviter's own role in the tenant" } } };
  return {
    "/api/members/invitations": {
      get: { operationId: "listMemberInvitations", tags, summary: "The tenant's pending invitations, newest first (at most 100)", ...access, responses: { "200": { description: "the invitations", content: list }, ...errors } },
      post: { operationId: "inviteMember", tags, summary: `Invite an address into the ${tenancy.resource.names.label}: its owner gets a link to make an account, or to join with theirs`, ...access, requestBody: { required: true, content: json(payload) }, responses: { "201": { description: `the invitation (the same whether or not the address has an account); its link works for ${project.auth.tokens.invitationDays} days`, content: successRecord(ref("HashapiTenantInvitation"), 201) }, ...errors, ...bodyErrors, "422": responseRef("ValidationFailed"), "429": responseRef("TooManyRequests") } },
    },
    "/api/members/invitations/{hash}": {
      parameters: [{ name: "hash", in: "path", required: true, schema: { type: "string", examples: ["INV_7KX9MQ2B"] } }],
      delete: { operationId: "revokeMemberInvitation", tags, summary: "Revoke one of the tenant's pending invitations: its link stops working", ...access, responses: { "200": { description: "revoked", content: json(ref("Message"), { type: "success", status: 200, message: "Invitation revoked." }) }, ...errors, "404": responseRef("NotFound") } },
    },
  };
}

/** The schemas of the members' routes. */
export function tenancySchemas(project: ProjectModel): Record<string, object> {
  const tenancy = project.tenancy;
  if (!tenancy) return {};
  const role = { type: "string", enum: tenancy.roles };
  return {
    HashapiMember: { type: "object", required: ["user", "role", "since"], additionalProperties: false, properties: { user: { type: "object", required: ["hash", "name", "email"], properties: { hash: { type: "string" }, name: { type: "string" }, email: { type: "string", format: "email" } } }, role, since: { type: "string", format: "date-time" } } },
    HashapiTenantMembership: { type: "object", required: ["hash", "role"], additionalProperties: false, properties: { hash: { type: "string" }, role } },
    ...(project.auth.acceptsInvitations
      ? { HashapiTenantInvitation: { type: "object", required: ["hash", "email", "role", "invited_by", "created_at", "expires_at"], additionalProperties: false, properties: { hash: { type: "string", examples: ["INV_7KX9MQ2B"] }, email: { type: "string", format: "email" }, role, invited_by: { type: ["string", "null"], description: "the inviter's public id (USR_…), null once their account is gone" }, created_at: { type: "string", format: "date-time" }, expires_at: { type: "string", format: "date-time" } } } }
      : {}),
  };
}
