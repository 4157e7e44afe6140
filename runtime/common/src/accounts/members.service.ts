// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ActiveTenant, CurrentUser } from "../auth/auth.service.js";
import type { Member, Memberships } from "../auth/memberships.js";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../base/errors.js";
import type { Database } from "../db/database.js";
import { quote, type Sql } from "../db/sql.js";

/**
 * A tenant's members (hashapi.yaml `tenancy`): listed by every member; re-roled and removed by the
 * roles of `tenancy.manage`, each only for members below its own role (the first role also for its
 * peers) and never to a role above its own; any member may leave. Each change locks, in one
 * statement and in one order, the rows it decides on — the acting member's, the changed one's and
 * every holder of the first role — so two changes at once cannot leave a tenant without an owner,
 * and a member removed a moment before changes nothing.
 */
export class MembersService {
  constructor(
    private readonly db: Database,
    private readonly memberships: Memberships,
  ) {}

  list(tenant: ActiveTenant): Promise<Member[]> {
    return this.memberships.list(tenant.id);
  }

  /**
   * Adds an existing user to the tenant with `role`: for bypass roles (the service's own staff),
   * who know the platform's users; a tenant's own members add people by invitation.
   */
  async add(tenant: ActiveTenant, userHash: string, role: string): Promise<Member> {
    if (!tenant.bypass) throw new Forbidden();
    if (!this.memberships.settings.roles.includes(role))
      throw new ValidationFailed({ role: ["The selected role is invalid."] });
    await this.db.transaction(async (tx) => {
      const user = await tx.get(
        `SELECT "id" FROM ${quote("users")} WHERE "hash" = ${tx.dialect.placeholder(1)}`,
        [userHash],
      );
      if (!user) throw new ValidationFailed({ user: ["The selected user is invalid."] });
      await this.memberships.add(tx, tenant.id, Number(user.id), role);
    });
    return this.member(tenant, userHash);
  }

  /** Gives `userHash` the role `role` in the tenant; their membership as it now is. */
  async setRole(
    actor: CurrentUser,
    tenant: ActiveTenant,
    userHash: string,
    role: string,
  ): Promise<Member> {
    const roles = this.memberships.settings.roles;
    if (!roles.includes(role))
      throw new ValidationFailed({ role: [`The selected role is invalid.`] });
    await this.db.transaction(async (tx) => {
      const locked = await this.lockedMembers(tx, actor, tenant, userHash);
      const { target } = locked;
      this.mayManage(tenant, target.role, "change the role of");
      if (rank(roles, role) < rank(roles, tenant.role))
        throw new Forbidden(`You cannot give a role above your own.`);
      if (role !== target.role) this.keepsAnOwner(locked, "given another role");
      await this.memberships.setRole(tx, tenant.id, target.userId, role);
    });
    return this.member(tenant, userHash);
  }

  /** Removes `userHash` from the tenant (themselves: they leave). */
  async remove(actor: CurrentUser, tenant: ActiveTenant, userHash: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const locked = await this.lockedMembers(tx, actor, tenant, userHash);
      const { target } = locked;
      if (userHash !== actor.hash) this.mayManage(tenant, target.role, "remove");
      this.keepsAnOwner(locked, "removed");
      await this.memberships.remove(tx, tenant.id, target.userId);
    });
  }

  /**
   * Locks the acting member's row, the target's and every owner's, in user order (one statement:
   * concurrent changes take their locks in the same order). The actor must still be a member (a
   * bypass role need not), the target one: else the 404 of a missing record. What the change
   * decides on is read here, under those locks: the target, and who holds the first role.
   */
  private async lockedMembers(
    tx: Sql,
    actor: CurrentUser,
    tenant: ActiveTenant,
    userHash: string,
  ): Promise<LockedMembers> {
    const users = quote("users");
    const p = (n: number) => tx.dialect.placeholder(n);
    const text = `SELECT "m"."user_id", "m"."role", "u"."hash" FROM "hashapi_memberships" AS "m" JOIN ${users} AS "u" ON "u"."id" = "m"."user_id" WHERE "m"."tenant_id" = ${p(1)} AND ("m"."user_id" = ${p(2)} OR "u"."hash" = ${p(3)} OR "m"."role" = ${p(4)}) ORDER BY "m"."user_id"${tx.dialect.lockClause("update")}`;
    const rows = await tx.all(text, [tenant.id, actor.id, userHash, this.memberships.ownerRole]);
    if (!tenant.bypass && !rows.some((row) => Number(row.user_id) === actor.id))
      throw new NotFound();
    const target = rows.find((row) => row.hash === userHash);
    if (!target) throw new NotFound();
    const owners = rows.filter((row) => row.role === this.memberships.ownerRole);
    return {
      target: { userId: Number(target.user_id), role: String(target.role) },
      owners: owners.map((row) => Number(row.user_id)),
    };
  }

  /**
   * 409 when the target is the last holder of the tenant's first role: its holders were locked by
   * lockedMembers, so two owners leaving at once cannot both succeed (the second sees the first).
   */
  private keepsAnOwner({ target, owners }: LockedMembers, change: string): void {
    if (owners.length === 1 && owners[0] === target.userId)
      throw new Conflict(
        `The last ${this.memberships.ownerRole} of this tenant cannot be ${change}.`,
      );
  }

  /** The acting member may manage a member of `targetRole`: a managing role, above it or the first role. */
  private mayManage(tenant: ActiveTenant, targetRole: string, what: string): void {
    const { roles, manage } = this.memberships.settings;
    if (tenant.bypass) return;
    const own = rank(roles, tenant.role);
    const theirs = rank(roles, targetRole);
    if (!manage.includes(tenant.role) || !(own < theirs || own === 0))
      throw new Forbidden(`You cannot ${what} this member.`);
  }

  private async member(tenant: ActiveTenant, userHash: string): Promise<Member> {
    const found = (await this.memberships.list(tenant.id)).find(
      (member) => member.user.hash === userHash,
    );
    if (!found) throw new NotFound();
    return found;
  }
}

/** The rows a membership change decides on, locked: its target, and every first-role holder's user id. */
interface LockedMembers {
  readonly target: { readonly userId: number; readonly role: string };
  readonly owners: readonly number[];
}

/** A role's place in the ranking (0: the first, most privileged); past the end for an unknown one. */
function rank(roles: readonly string[], role: string): number {
  const index = roles.indexOf(role);
  return index === -1 ? roles.length : index;
}
