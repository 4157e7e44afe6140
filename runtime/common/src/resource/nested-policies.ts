// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { NestedPolicy } from "../http/nested-access.js";
import { relationOfKind, type AnyTable, type TableSpec } from "../data/table.js";
import type { ResourceDescriptor } from "./descriptor.js";
import type { Policy } from "./policy.js";
import { bothScopes, bypasses, ownerScope } from "./ownership.js";
import { ownValue } from "../base/records.js";
import type { StoredRow } from "./service.js";
import { tenantColumnOf, tenantScope, workingTenant, type TenantSettings } from "./tenancy.js";

/*
 * What a resource's records nested in other responses obey, beside its policy: its ownership and,
 * with tenancy, its tenant (registry.ts builds each resource's reader from these).
 */

/**
 * A tenanted resource's reader: nested lists hold only the caller's tenant's records, and a nested
 * belongsTo record of another tenant is refused (writes never link one; this holds if one did).
 */
export function tenantPolicy(
  policy: NestedPolicy,
  settings: TenantSettings | undefined,
): NestedPolicy {
  const column = tenantColumnOf(settings);
  if (column === undefined) return policy;
  return {
    show: (user, record) => policy.show(user, record),
    scope: (user) => bothScopes(policy.scope?.(user), tenantScope(settings, user)),
    async owns(user, records) {
      const tenant = workingTenant(user)?.id;
      if (!records.every((record) => ownValue(record, column) === tenant)) return false;
      return policy.owns ? policy.owns(user, records) : true;
    },
  };
}

/**
 * A resource's show verdict and scope for records nested in others' responses: its policy's, with
 * the resource's ownership added to the scope (nested lists hold only the caller's own records)
 * and to nested belongsTo records (one query per page when ownership runs through a parent).
 */
export function ownedPolicy(
  policy: Policy<StoredRow>,
  resource: ResourceDescriptor,
  tableOf: (spec: TableSpec) => AnyTable,
): NestedPolicy {
  if (resource.owner === undefined) return policy;
  const owner = resource.owner;
  const through =
    owner.through === undefined
      ? undefined
      : relationOfKind(resource.table, owner.through, "belongsTo");
  return {
    show: (user, record) => policy.show(user, record),
    scope: (user) => bothScopes(policy.scope?.(user), ownerScope(owner, user)),
    async owns(user, records) {
      if (bypasses(owner, user)) return true;
      const id = user?.id ?? -1;
      if (through === undefined)
        return records.every((record) => ownValue(record, owner.column) === id);
      const parents: number[] = [];
      for (const record of records) {
        const parent = ownValue(record, through.foreignKey);
        if (typeof parent !== "number") return false;
        parents.push(parent);
      }
      const distinct = new Set(parents).size;
      const owned = await tableOf(through.target()).countAmong(parents, { [owner.column]: id });
      return owned === distinct;
    },
  };
}
