import { derivePrefix } from "../model/naming.js";
import { didYouMean } from "./problem.js";
import type { CheckedResource } from "./resource-checks.js";
import type { SpecSource } from "./source.js";
import type { Problem, ProjectSpec, ResourceSpec } from "./types.js";

/** The actions that write: on a global resource, bypass roles only. */
const writeActions = ["store", "update", "destroy", "restore"] as const;

/**
 * The roles a resource's `auth.roles`, `visibleTo`, `writableBy` and bypass lists name: a tenanted
 * resource's are the tenant roles (tenancy.roles), every other's are hashapi.yaml's auth.roles.
 */
export function rolesViewOf(spec: ResourceSpec, project: ProjectSpec): ProjectSpec {
  const tenancy = project.tenancy;
  if (!tenancy || !isTenanted(spec, project)) return project;
  return { ...project, auth: { ...project.auth, roles: tenancy.roles, declaresRoles: true, rolesAt: "tenancy.roles" } };
}

/** Whether a resource's records belong to one tenant each (the tenant resource's own are tenants). */
export function isTenanted(spec: ResourceSpec, project: ProjectSpec): boolean {
  if (!project.tenancy) return false;
  return spec.name === project.tenancy.resource || (spec.tenant !== undefined && spec.tenant !== "global");
}

/**
 * hashapi.yaml's `tenancy`: its resource exists, its role lists name known roles, and what needs
 * tenancy (a webhook's `tenants`) has it.
 */
export function checkTenancy(project: ProjectSpec, source: SpecSource, resources: readonly CheckedResource[]): Problem[] {
  const problems: Problem[] = [];
  const tenancy = project.tenancy;
  if (!tenancy) {
    project.webhooks.forEach((webhook, index) => {
      if (webhook.tenants) problems.push(source.problem(["webhooks", index, "tenants"], "tenants needs tenancy: declare `tenancy:` with its resource and roles", "key"));
    });
    return problems;
  }
  const names = resources.map(({ spec }) => spec.name);
  if (!names.includes(tenancy.resource)) problems.push(source.problem(["tenancy", "resource"], `unknown resource "${tenancy.resource}"${didYouMean(tenancy.resource, names)}: name the resource whose records are the tenants`));
  tenancy.manage.forEach((role, index) => {
    if (!tenancy.roles.includes(role)) problems.push(source.problem(["tenancy", "manage", index], `"${role}" is not one of tenancy.roles (${tenancy.roles.join(", ")})${didYouMean(role, tenancy.roles)}`));
  });
  for (const list of ["bypass", "create"] as const) {
    (tenancy[list] ?? []).forEach((role, index) => {
      if (!project.auth.roles.includes(role))
        problems.push(source.problem(["tenancy", list, index], `"${role}" is not one of auth.roles (${project.auth.roles.join(", ")}): ${list} names platform roles${didYouMean(role, project.auth.roles)}`));
    });
  }
  if (tenancy.bypass.length > 0 && !project.auth.declaresRoles) problems.push(source.problem(["tenancy", "bypass"], "bypass names platform roles: list them in auth.roles first"));
  const tenants = resources.find(({ spec }) => spec.name === tenancy.resource)?.spec;
  const prefix = tenants && (tenants.prefix ?? derivePrefix(tenants.name));
  if (tenancy.adopt !== undefined && prefix !== undefined && !tenancy.adopt.startsWith(`${prefix}_`))
    problems.push(source.problem(["tenancy", "adopt"], `"${tenancy.adopt}" is not a public id of ${tenancy.resource} (they start with ${prefix}_): name the ${tenancy.resource} the stored records go to`));
  return problems;
}

/**
 * A resource's `tenant:` in a tenanted project: declared (fails closed: nothing is shared by
 * accident), a `via` chain of belongsTo relations that cannot be null unless it says so and ends at
 * a tenanted resource, a global resource that points at no tenant's record and is written by bypass
 * roles only, and no public action where records belong to a tenant.
 */
export function checkTenant(resource: CheckedResource, resources: readonly CheckedResource[], project: ProjectSpec): Problem[] {
  const { spec, source } = resource;
  const tenancy = project.tenancy;
  if (!tenancy) {
    const problems = spec.tenant === undefined ? [] : [source.problem(["tenant"], "tenant: needs tenancy in hashapi.yaml (tenancy: { resource, roles })", "key")];
    return [...problems, ...spec.fields.filter((field) => field.unique === "global").map((field) => source.problem(["fields", field.name, "unique"], "unique: global needs tenancy in hashapi.yaml: without tenants, unique: true is already unique everywhere"))];
  }
  const byName = new Map(resources.map((other) => [other.spec.name, other.spec]));
  if (spec.name === tenancy.resource) return [...checkTenantResource(resource), ...reservedNames(resource)];
  if (spec.tenant === undefined)
    return [source.problem([], `${spec.name} must say whose records these are in a tenanted project: tenant: true (the caller's ${tenancy.resource}), tenant: { via: <belongsTo> } (its parent's), or tenant: global (shared by every tenant)`)];
  if (spec.tenant === "global") return checkGlobal(resource, byName, project);
  const problems: Problem[] = [];
  if ((spec.auth?.public ?? []).length > 0)
    problems.push(source.problem(["auth", "public"], `${spec.name} belongs to a tenant, and a caller without a token is in none: remove auth.public, or make it tenant: global`));
  if (typeof spec.tenant === "object") problems.push(...checkVia(resource, byName, project));
  return [...problems, ...reservedNames(resource)];
}

/** The tenant resource: its records are the tenants, so it declares no tenant, owner or public action. */
function checkTenantResource({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  if (spec.tenant !== undefined) problems.push(source.problem(["tenant"], `${spec.name} is tenancy.resource: its records are the tenants; remove tenant:`, "key"));
  if (spec.owner !== undefined) problems.push(source.problem(["owner"], `${spec.name} is tenancy.resource: its members (tenancy.roles) decide who reaches it; remove owner:`, "key"));
  if ((spec.auth?.public ?? []).length > 0) problems.push(source.problem(["auth", "public"], `${spec.name} is tenancy.resource: only its members reach it; remove auth.public`));
  if (spec.auth?.roles?.store) problems.push(source.problem(["auth", "roles", "store"], `${spec.name} is tenancy.resource: a new one is made by a platform role of tenancy.create (default: every role), who becomes its first member; remove store here`, "key"));
  return problems;
}

/** A tenanted table holds its tenant in `tenant_id`: no field or belongsTo (whose key it would be) may take the name. */
function reservedNames({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  for (const field of spec.fields)
    if (field.name === "tenant_id") problems.push(source.problem(["fields", field.name], `tenant_id holds each ${spec.name}'s tenant (tenancy): choose another name`, "key"));
  for (const relation of spec.relations ?? [])
    if (relation.name === "tenant" && relation.type === "belongsTo") problems.push(source.problem(["relations", relation.name], `a belongsTo named tenant would be stored in tenant_id, which holds each ${spec.name}'s tenant (tenancy): choose another name`, "key"));
  return problems;
}

/** A global resource: points at no tenant's record, and only bypass roles write it. */
function checkGlobal({ spec, source }: CheckedResource, byName: ReadonlyMap<string, ResourceSpec>, project: ProjectSpec): Problem[] {
  const problems: Problem[] = [];
  for (const relation of spec.relations ?? []) {
    if (relation.type !== "belongsTo" && relation.type !== "belongsToMany") continue;
    const target = byName.get(relation.resource);
    if (target && isTenanted(target, project))
      problems.push(source.problem(["relations", relation.name], `${spec.name} is global, and ${relation.resource} records belong to one tenant each: a shared record cannot point at one; make ${spec.name} tenanted, or drop the relation`, "key"));
  }
  const bypass = project.tenancy!.bypass;
  for (const action of writeActions) {
    (spec.auth?.roles?.[action] ?? []).forEach((role, index) => {
      if (!bypass.includes(role))
        problems.push(source.problem(["auth", "roles", action, index], `${spec.name} is global (shared by every tenant): only tenancy.bypass roles (${bypass.join(", ") || "none"}) write it`));
    });
  }
  return problems;
}

/** `tenant: { via }`: each hop a belongsTo, none optional unless declared, ending at a tenanted resource. */
function checkVia({ spec, source }: CheckedResource, byName: ReadonlyMap<string, ResourceSpec>, project: ProjectSpec): Problem[] {
  const via = spec.tenant as { via: string; nullable?: boolean };
  const at = ["tenant", "via"];
  let current: ResourceSpec = spec;
  for (const hop of via.via.split(".")) {
    const belongsTo = (current.relations ?? []).filter((relation) => relation.type === "belongsTo");
    const relation = belongsTo.find((candidate) => candidate.name === hop);
    if (!relation) return [source.problem(at, `"${hop}" is not a belongsTo of ${current.name}${didYouMean(hop, belongsTo.map((candidate) => candidate.name))}`)];
    if (relation.required !== true && via.nullable !== true)
      return [source.problem(at, `${current.name}.${hop} may be null (it is not required: true), and a record with none would have no tenant through it: make it required, or say tenant: { via: ${via.via}, nullable: true } (such a record belongs to the caller's tenant)`)];
    const next = byName.get(relation.resource);
    // A target whose own file has errors (or that does not exist) is reported there.
    if (!next) return [];
    current = next;
  }
  if (!isTenanted(current, project))
    return [source.problem(at, `${via.via} ends at ${current.name}, which belongs to no tenant: end the chain at ${project.tenancy!.resource} or at a tenanted resource`)];
  return [];
}
