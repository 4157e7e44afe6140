// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import type { Memberships } from "../auth/memberships.js";
import type { ResourceDescriptor } from "./descriptor.js";
import { tenantColumnOf, workingTenant } from "./tenancy.js";
import type { WriteRules } from "./write-rules.js";

/** What a resource's writes in tenants need: its declaration, and who works where. */
export interface TenantWrites {
  readonly resource: Pick<
    ResourceDescriptor,
    "tenant" | "roles" | "owner" | "setByServer" | "table"
  >;
  readonly memberships: Memberships | undefined;
}

/**
 * With tenancy, what a write in the caller's tenant decides in its transaction (tenancy.ts): the
 * caller still works there with a role the action allows, and every record it names is of it.
 * None for a resource of no tenant, or outside a tenant's routes (a new tenant: store on the
 * tenant resource).
 */
export function tenantWriteRule(
  { resource, memberships }: TenantWrites,
  req: Request,
  action: "store" | "update" | "destroy" | "restore",
): Pick<WriteRules, "tenant"> {
  const column = tenantColumnOf(resource.tenant);
  const user = req.user;
  const tenant = workingTenant(user);
  if (column === undefined || !memberships || !user || !tenant) return {};
  const allowed = resource.roles?.[action];
  return {
    tenant: {
      id: tenant.id,
      ...(column === "id" ? {} : { column }),
      member: (tx) => memberships.hold(tx, tenant, user, allowed),
    },
  };
}

/**
 * A new tenant (store on the tenant resource) has its creator as its first member, in the first
 * role, written in the create's own transaction: no tenant is ever left without an owner.
 */
export function newTenantRule(
  { resource, memberships }: TenantWrites,
  req: Request,
  committing: WriteRules["committing"],
): Pick<WriteRules, "committing"> {
  const user = req.user;
  if (tenantColumnOf(resource.tenant) !== "id" || !memberships || !user) return {};
  return {
    committing: async (tx, record) => {
      await memberships.add(tx, record.id, user.id, memberships.ownerRole);
      await committing?.(tx, record);
    },
  };
}
