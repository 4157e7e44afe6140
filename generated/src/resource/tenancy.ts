// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ActiveTenant, CurrentUser } from "../auth/auth.service.js";
import type { RowScope } from "../data/table.js";
import type { Sql } from "../db/sql.js";

/**
 * A resource's tenant as the specs decided it (hashapi.yaml `tenancy`, the resource's `tenant:`):
 * `column` holds each record's tenant (`tenant_id`, or `id` on the tenant resource, whose records
 * are the tenants), or the records are shared by every tenant (`global`).
 */
export type TenantSettings = { readonly column: string } | { readonly global: boolean };

/** Whether a resource's records belong to one tenant each. */
export function tenantColumnOf(settings: TenantSettings | undefined): string | undefined {
  return settings !== undefined && "column" in settings ? settings.column : undefined;
}

/**
 * The tenant a request works in. Only a request of a tenant's own routes (http/tenant-routes.ts,
 * which sets `platformRole`) works in one: anywhere else, and for a caller with none, undefined.
 */
export function workingTenant(user: CurrentUser | undefined): ActiveTenant | undefined {
  return user?.platformRole !== undefined ? user.tenant : undefined;
}

/**
 * The records of the caller's tenant, as a scope of the statement that reads them; outside a
 * tenant (workingTenant), a tenant's records are out of reach altogether.
 */
export function tenantScope(
  settings: TenantSettings | undefined,
  user: CurrentUser | undefined,
): RowScope | undefined {
  const column = tenantColumnOf(settings);
  if (column === undefined) return undefined;
  return { where: { [column]: workingTenant(user)?.id ?? -1 } };
}

/**
 * What a write in a tenant holds to, decided in its own transaction: the tenant of a created
 * record (`column`, unless the record is a tenant), the tenant every record its payload names must
 * be of, and `member`: the caller still works in the tenant with a role the action allows, read
 * under a lock that a removal or a change of role waits for (auth/memberships.ts).
 */
export interface TenantRule {
  readonly id: number;
  /** The column a created record's tenant is written to; undefined on the tenant resource. */
  readonly column?: string;
  readonly member: (sql: Sql) => Promise<void>;
}

/** The rows of a table (its `tenantColumn`) in the rule's tenant; undefined for a table of no tenant. */
export function withinTenant(
  tenantColumn: string | undefined,
  rule: Pick<TenantRule, "id"> | undefined,
): RowScope | undefined {
  if (tenantColumn === undefined || rule === undefined) return undefined;
  return { where: { [tenantColumn]: rule.id } };
}
