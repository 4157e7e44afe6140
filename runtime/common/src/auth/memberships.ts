// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { Conflict, NotFound } from "../base/errors.js";
import { sql, type Database } from "../db/database.js";
import { Binder, quote, type Sql } from "../db/sql.js";
import { decodedInstant } from "../data/column-codec.js";

/*
 * Who works in which tenant, with which role (hashapi_memberships: one row per user and tenant).
 * Every write in a tenant reads its writer's row again under a lock (`hold`), and every change of a
 * membership locks the rows it decides on first, so a member removed or demoted a moment before a
 * write either is seen by it (nothing written) or waits for it; and the tenant's first role is
 * never left without a holder.
 */

/** The tenant a request works in, and the caller's role there. */
export interface ActiveTenant {
  readonly id: number;
  readonly hash: string;
  readonly role: string;
  /** A platform role of tenancy.bypass, acting as the tenant's first role without being a member. */
  readonly bypass: boolean;
}

/** hashapi.yaml's `tenancy`, as the runtime applies it. */
export interface TenancySettings {
  /** The tenant resource's table (its records are the tenants). */
  readonly table: string;
  /** Whether that table keeps deleted rows (a deleted tenant is no tenant to work in). */
  readonly softDelete: boolean;
  /** The column that names a tenant in an invitation's mail; null: its public id does. */
  readonly label: string | null;
  /** Roles within a tenant, most privileged first. */
  readonly roles: readonly string[];
  /** Tenant roles that invite, re-role and remove members. */
  readonly manage: readonly string[];
  /** Platform roles that act in any tenant as its first role. */
  readonly bypass: readonly string[];
  /** Platform roles that may create a tenant. */
  readonly create: readonly string[];
}

/** A member as the members' routes show them. */
export interface Member {
  readonly user: { hash: string; name: string; email: string };
  readonly role: string;
  readonly since: Date;
}

export class Memberships {
  private readonly holdText: string;

  constructor(
    private readonly db: Database,
    readonly settings: TenancySettings,
  ) {
    const held = new Binder(db.dialect);
    const [tenant, user] = [held.add("tenant"), held.add("user")];
    this.holdText = `SELECT "role" FROM "hashapi_memberships" WHERE "tenant_id" = ${tenant} AND "user_id" = ${user}${db.dialect.lockClause("share")}`;
  }

  /** The tenant's first role: the one it always keeps a holder of. */
  get ownerRole(): string {
    return this.settings.roles[0]!;
  }

  /**
   * In a write's transaction: the caller still works in `tenant`, with one of `allowed` (any role
   * when undefined); its membership row stays locked until the write ends. A bypass role holds no
   * row and needs none. Otherwise the 404 of a missing record, and the write writes nothing.
   */
  async hold(
    tx: Sql,
    tenant: ActiveTenant,
    user: { readonly id: number },
    allowed: readonly string[] | undefined,
  ): Promise<void> {
    // Set only for a platform role of tenancy.bypass, read with the user (auth.service.ts).
    if (tenant.bypass) return;
    const row = await tx.get(this.holdText, [tenant.id, user.id]);
    if (!row || (allowed !== undefined && !allowed.includes(String(row.role))))
      throw new NotFound();
  }

  /**
   * Makes `userId` a member of `tenantId` with `role` (in the caller's transaction): false when
   * they are one already (their role unchanged).
   */
  async add(tx: Sql, tenantId: number, userId: number, role: string): Promise<boolean> {
    const now = new Date();
    const added = await tx.run(
      sql`INSERT INTO "hashapi_memberships" ("tenant_id", "user_id", "role", "created_at", "updated_at") VALUES (${tenantId}, ${userId}, ${role}, ${now}, ${now}) ON CONFLICT ("tenant_id", "user_id") DO NOTHING`,
    );
    return added > 0;
  }

  /** The members of a tenant, oldest first. */
  async list(tenantId: number): Promise<Member[]> {
    const rows = await this.db.all(
      sql`SELECT "u"."hash", "u"."name", "u"."email", "m"."role", "m"."created_at" FROM "hashapi_memberships" AS "m" JOIN "users" AS "u" ON "u"."id" = "m"."user_id" WHERE "m"."tenant_id" = ${tenantId} ORDER BY "m"."id"`,
    );
    return rows.map((row) => ({
      user: { hash: String(row.hash), name: String(row.name), email: String(row.email) },
      role: String(row.role),
      since: decodedInstant(row.created_at, this.db.dialect)!,
    }));
  }

  /**
   * 409 when `userId` is the last holder of the first role of any tenant (a user deleted would leave
   * it without an owner). Every first-role holder of those tenants is locked until the delete ends,
   * in one order, so two owners deleted at once cannot both go.
   */
  async keepsOwnersOf(tx: Sql, userId: number): Promise<void> {
    const p = (n: number) => tx.dialect.placeholder(n);
    const text = `SELECT "tenant_id", "user_id" FROM "hashapi_memberships" WHERE "role" = ${p(1)} AND "tenant_id" IN (SELECT "tenant_id" FROM "hashapi_memberships" WHERE "user_id" = ${p(2)} AND "role" = ${p(3)}) ORDER BY "tenant_id", "user_id"${tx.dialect.lockClause("update")}`;
    const rows = await tx.all(text, [this.ownerRole, userId, this.ownerRole]);
    const others = new Map<number, number>();
    for (const row of rows)
      if (Number(row.user_id) !== userId)
        others.set(Number(row.tenant_id), (others.get(Number(row.tenant_id)) ?? 0) + 1);
    const alone = rows.some((row) => !others.has(Number(row.tenant_id)));
    if (alone)
      throw new Conflict(
        `This user is the last ${this.ownerRole} of a tenant: give the role to another member first.`,
      );
  }

  async setRole(tx: Sql, tenantId: number, userId: number, role: string): Promise<void> {
    await tx.run(
      sql`UPDATE "hashapi_memberships" SET "role" = ${role}, "updated_at" = ${new Date()} WHERE "tenant_id" = ${tenantId} AND "user_id" = ${userId}`,
    );
  }

  async remove(tx: Sql, tenantId: number, userId: number): Promise<void> {
    await tx.run(
      sql`DELETE FROM "hashapi_memberships" WHERE "tenant_id" = ${tenantId} AND "user_id" = ${userId}`,
    );
  }

  /** The tenants a user works in, with their role in each, for the tenant switcher. */
  async tenantsOf(userId: number): Promise<{ hash: string; role: string }[]> {
    const table = quote(this.settings.table);
    const live = this.settings.softDelete ? ` AND "t"."deleted_at" IS NULL` : "";
    const rows = await this.db.all(
      `SELECT "t"."hash", "m"."role" FROM "hashapi_memberships" AS "m" JOIN ${table} AS "t" ON "t"."id" = "m"."tenant_id"${live} WHERE "m"."user_id" = ${this.db.dialect.placeholder(1)} ORDER BY "m"."id"`,
      [userId],
    );
    return rows.map((row) => ({ hash: String(row.hash), role: String(row.role) }));
  }
}
