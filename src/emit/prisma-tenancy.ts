import type { DatabaseModel, ProjectModel, ResourceModel } from "../model/types.js";
import { tenantColumn } from "../model/declaration.js";
import { modelBlock, native } from "./prisma-blocks.js";

/*
 * What tenancy adds to the schema (runtime resource/tenancy.ts): each tenanted table's tenant_id,
 * a foreign key to the tenant resource's table that leads its indexes (every read is within one
 * tenant), and the members of each tenant with their role.
 */

/** The Prisma relation field of a tenanted record's tenant: hashapi's own name, which no spec field may take. */
const tenantRelationField = "hashapi_tenant";

/** A member record's tenant_id and its relation to the tenant resource's model. */
export function tenantLines(resource: ResourceModel): string[][] {
  if (resource.tenant?.kind !== "member") return [];
  const tenants = resource.tenant.tenants;
  return [
    [tenantColumn, "Int", ""],
    [tenantRelationField, tenants.names.pascal, `@relation("${resource.names.pascal}Tenant", fields: [${tenantColumn}], references: [id], onDelete: Restrict)`],
  ];
}

/** On the tenant resource's model: the list side of every tenanted table's relation, and its members. */
export function tenantBackLines(resource: ResourceModel, project: ProjectModel): string[][] {
  if (resource.tenant?.kind !== "self") return [];
  return [
    ...project.resources
      .filter((member) => member.tenant?.kind === "member")
      .map((member) => [`hashapi_${member.table}`, `${member.names.pascal}[]`, `@relation("${member.names.pascal}Tenant")`]),
    ["hashapi_members", "HashapiMembership[]", ""],
    ...(project.auth.acceptsInvitations ? [["hashapi_invitations", "HashapiInvitation[]", ""]] : []),
  ];
}

/** The columns a member record's indexes start with: a tenant's rows are read together. */
export function tenantIndexPrefix(resource: ResourceModel): string {
  return resource.tenant?.kind === "member" ? `${tenantColumn}, ` : "";
}

/** Unique fields that are unique within each tenant: one composite index each, not a column's @unique. */
export function perTenantUnique(resource: ResourceModel): string[] {
  if (resource.tenant?.kind !== "member") return [];
  return resource.fields.filter((field) => field.unique && !field.uniqueAcrossTenants).map((field) => `@@unique([${tenantColumn}, ${field.name}])`);
}

/** Whether a unique field's index is the column's own (@unique): everywhere but per tenant. */
export function uniqueOnColumn(resource: ResourceModel | undefined, field: { unique: boolean; uniqueAcrossTenants?: true }): boolean {
  return field.unique && (resource?.tenant?.kind !== "member" || field.uniqueAcrossTenants === true);
}

/**
 * The members of each tenant (runtime tenancy/memberships.ts): one row per user and tenant with the
 * user's role there. Gone with the user or the tenant.
 */
export function membershipsModel(database: DatabaseModel, project: ProjectModel): string {
  const tenants = project.tenancy!.resource.names.pascal;
  const timestamp = native(database, "@db.Timestamptz(3)").trim();
  return modelBlock(
    "HashapiMembership",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      [tenantColumn, "Int", ""],
      ["user_id", "Int", ""],
      ["role", "String", native(database, "@db.VarChar(40)").trim()],
      ["created_at", "DateTime", timestamp],
      ["updated_at", "DateTime", timestamp],
      ["tenant", tenants, `@relation(fields: [${tenantColumn}], references: [id], onDelete: Cascade)`],
      ["user", "User", "@relation(fields: [user_id], references: [id], onDelete: Cascade)"],
    ],
    [`@@unique([${tenantColumn}, user_id])`, "@@index([user_id])", '@@map("hashapi_memberships")'],
  );
}
