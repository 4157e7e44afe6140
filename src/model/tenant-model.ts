import type { FieldSpec, ResourceSpec, TenancySpec } from "../spec/types.js";
import type { TenancyModel, TenantModel } from "./access-types.js";
import type { ResourceRef } from "./refs.js";

/** hashapi.yaml's `tenancy`, with the tenant resource's table the runtime reads tenants from. */
export function tenancyModel(tenancy: TenancySpec, resource: ResourceRef, spec: ResourceSpec, platformRoles: string[]): TenancyModel {
  const { roles, manage, bypass } = tenancy;
  const label = tenantLabel(spec)?.name ?? null;
  const create = tenancy.create ?? platformRoles;
  // The generated tests' members sign in with a platform role that may make a tenant and is no bypass.
  const testerRole = [...create].reverse().find((role) => !bypass.includes(role)) ?? platformRoles.at(-1)!;
  return { resource, roles, manage, bypass, create, testerRole, settings: { table: resource.table, softDelete: resource.softDelete, label, roles, manage, bypass, create } };
}

/**
 * The field that names a tenant in an invitation's mail: the first required text field every
 * member may read (no `visibleTo`, not hidden, shown to every role). None: the mail names the
 * tenant by its public id, so a mail never carries what its reader could not see.
 */
function tenantLabel(spec: ResourceSpec): FieldSpec | undefined {
  if (spec.auth?.roles?.show || spec.auth?.roles?.index) return undefined;
  const shown = (name: string) => !spec.serializer?.hidden?.includes(name) && (spec.serializer?.fields?.includes(name) ?? true);
  return spec.fields.find((field) => field.type === "string" && !field.nullable && !field.visibleTo && shown(field.name));
}

/**
 * With tenancy: whose tenant a resource's records are (the checks made sure each says). The
 * built-in users (`builtInUser`) are the platform's: a user works in tenants through memberships.
 */
export function tenantOf(spec: ResourceSpec, tenancy: TenancySpec | undefined, refs: ReadonlyMap<string, ResourceRef>, builtInUser: string): TenantModel | undefined {
  if (!tenancy || spec.name === builtInUser) return undefined;
  const tenants = refs.get(tenancy.resource)!;
  if (spec.name === tenancy.resource) return { kind: "self", tenants };
  if (spec.tenant === "global") return { kind: "global", tenants };
  return { kind: "member", tenants, ...(typeof spec.tenant === "object" ? { via: spec.tenant.via } : {}) };
}

/**
 * An action's roles with tenancy: a global resource is shared by every tenant, so only bypass roles
 * write it; a new tenant is made by the platform roles of tenancy.create (every one by default: no
 * limit then, store is open to every signed-in user). Otherwise the roles the spec declared.
 */
export function tenantActionRoles(spec: ResourceSpec, tenancy: TenancySpec | undefined, action: string, declared: string[] | undefined): string[] | undefined {
  if (!tenancy) return declared;
  if (spec.name === tenancy.resource && action === "store") return tenancy.create;
  const writes = action !== "index" && action !== "show";
  return declared ?? (spec.tenant === "global" && writes ? tenancy.bypass : undefined);
}
