// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { tokenDigest } from "../auth/account-tokens.js";
import type { Memberships } from "../auth/memberships.js";
import { passwordProblem } from "../auth/password-policy.js";
import { Conflict, fieldError } from "../base/errors.js";
import { hashPassword } from "../base/passwords.js";
import type { Database } from "../db/database.js";
import { Binder, quote, type Sql, type SqlRow } from "../db/sql.js";
import type { InvitationSettings } from "./invitations.service.js";
import { insertUser } from "./new-user.js";

/*
 * An invitation's link, followed: an address without an account makes one (`accept`: name and
 * password, the invitation's role on the platform, or in its tenant beside the platform's member
 * role); an account signed in with the invited address joins the invitation's tenant (`join`).
 * Each spends the invitation by one UPDATE that requires it still pending, its tenant still there,
 * and for `join` the caller's address; what follows rolls back with it when it cannot be done.
 */
export class InvitationAcceptance {
  constructor(
    private readonly db: Database,
    private readonly settings: InvitationSettings,
    private readonly memberships?: Memberships,
  ) {}

  /**
   * Makes the account of an invitation's address with the name and password given here. The user,
   * or undefined when the link is spent, revoked, expired or its address has an account by now.
   */
  async accept(
    token: string,
    name: string,
    password: string,
  ): Promise<{ id: number; hash: string } | undefined> {
    const problem = passwordProblem(this.settings.passwords, password, { name });
    if (problem) throw fieldError("password", problem);
    const hashed = await hashPassword(password);
    return this.db
      .transaction(async (tx) => {
        const row = await this.spend(tx, token, undefined);
        if (!row) return undefined;
        const email = String(row.email);
        if (passwordProblem(this.settings.passwords, password, { email, name }))
          throw fieldError(
            "password",
            "The password field must not be your name or email address.",
          );
        const tenant =
          row.tenant_id === null || row.tenant_id === undefined ? null : Number(row.tenant_id);
        const role = tenant === null ? String(row.role) : this.settings.memberRole!;
        const user = await insertUser(tx, role, { name, email, password: hashed });
        // An account made meanwhile: the transaction rolls back, the invitation stays pending.
        if (!user) throw new AddressTaken();
        if (tenant !== null) await this.memberships!.add(tx, tenant, user.id, String(row.role));
        return user;
      })
      .catch((error: unknown) => {
        if (error instanceof AddressTaken) return undefined;
        throw error;
      });
  }

  /**
   * Joins the signed-in user to the tenant of an invitation to their address: the tenant's public
   * id and the role there, or undefined when the link is spent, revoked, expired, another
   * address's or the platform's. 409 (nothing spent) when they are a member already.
   */
  async join(userId: number, token: string): Promise<{ hash: string; role: string } | undefined> {
    const memberships = this.memberships!;
    return this.db.transaction(async (tx) => {
      const row = await this.spend(tx, token, userId);
      if (!row) return undefined;
      const role = String(row.role);
      if (!(await memberships.add(tx, Number(row.tenant_id), userId, role)))
        throw new Conflict("You are a member of this tenant already.");
      const tenant = await tx.get(
        `SELECT "hash" FROM ${quote(memberships.settings.table)} WHERE "id" = ${tx.dialect.placeholder(1)}`,
        [row.tenant_id],
      );
      return { hash: String(tenant!.hash), role };
    });
  }

  /**
   * Marks the invitation of `token` accepted when it is pending and its tenant (if any) is not
   * deleted; for a join, when it is a tenant's and names `joiner`'s address. Its row, or undefined.
   */
  private async spend(
    tx: Sql,
    token: string,
    joiner: number | undefined,
  ): Promise<SqlRow | undefined> {
    const b = new Binder(tx.dialect);
    const now = b.add(new Date());
    const conditions = [
      `"digest" = ${b.add(tokenDigest(token))}`,
      `"accepted_at" IS NULL AND "revoked_at" IS NULL AND "expires_at" > ${b.add(new Date())}`,
    ];
    const tenancy = this.memberships?.settings;
    if (tenancy?.softDelete)
      conditions.push(
        `("tenant_id" IS NULL OR "tenant_id" IN (SELECT "id" FROM ${quote(tenancy.table)} WHERE "deleted_at" IS NULL))`,
      );
    if (joiner !== undefined)
      conditions.push(
        `"tenant_id" IS NOT NULL AND "email" = (SELECT "email" FROM "users" WHERE "id" = ${b.add(joiner)})`,
      );
    return tx.get(
      `UPDATE "hashapi_invitations" SET "accepted_at" = ${now}, "digest" = NULL WHERE ${conditions.join(" AND ")} RETURNING "email", "role"${tenancy ? `, "tenant_id"` : ""}`,
      b.list,
    );
  }
}

class AddressTaken extends Error {}
