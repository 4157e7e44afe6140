import type { ResourceRef } from "./refs.js";

/** Who reaches which records: ownership (`owner:`) and tenants (`tenancy`, `tenant:`), as the runtime applies them (see types.ts). */

/**
 * Record ownership as the runtime applies it: `column` holds the owning user's id, on this table
 * (`payloadKey` is then the belongsTo a payload may not set) or on the parent `through` names.
 */
export interface OwnerModel {
  column: string;
  through?: string;
  payloadKey?: string;
  /** Roles that act on every record. */
  bypass: string[];
}

/**
 * A resource's place in a tenanted project: `member` records hold their tenant's id in `tenant_id`
 * (set from the caller's tenant on create, never written after), the tenant resource's records are
 * tenants themselves (`self`), `global` ones are shared by every tenant.
 */
export interface TenantModel {
  kind: "member" | "self" | "global";
  /** The tenant resource (tenancy.resource). */
  tenants: ResourceRef;
  /** `tenant: { via }`: the belongsTo chain the tenant is also reached by (documentation and checks). */
  via?: string;
}

/** hashapi.yaml's `tenancy` as the runtime and the schema apply it. */
export interface TenancyModel {
  resource: ResourceRef;
  roles: string[];
  manage: string[];
  bypass: string[];
  create: string[];
  /** The platform role the generated tests' tenant members sign in with: one that may create a tenant, and no bypass role. */
  testerRole: string;
  /** What the runtime's TenancySettings hold (auth/memberships.ts), as src/app.ts passes them. */
  settings: { table: string; softDelete: boolean; label: string | null; roles: string[]; manage: string[]; bypass: string[]; create: string[] };
}
