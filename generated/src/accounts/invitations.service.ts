// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ActiveTenant, Memberships } from "../auth/memberships.js";
import { fieldError, NotFound } from "../base/errors.js";
import { newHash } from "../base/hash-id.js";
import { decodedInstant } from "../data/column-codec.js";
import type { Database } from "../db/database.js";
import { Binder } from "../db/sql.js";
import { enqueueMail } from "../jobs/mail-job.js";
import type { PasswordPolicy } from "../auth/password-policy.js";
import type { AccountMailJob } from "./account-mails.js";

/*
 * Invitations: to the platform (hashapi.yaml `auth.invitations`), where a user of an inviting role
 * invites an address with a platform role at or below their own; and, with `tenancy`, into a
 * tenant, where a member of a `tenancy.manage` role invites with a tenant role at or below theirs.
 * The mail's link lets its owner choose a name and a password (invitation-acceptance.ts), or, for
 * a tenant's invitation to an address that has an account, join once signed in. The invitation is
 * made whether or not the address has an account (the answer and the list are the same either
 * way). Its token's digest lives on the invitation, written when the mail is sent; a tenant's
 * invitation is made and revoked under its inviter's locked membership, and acceptance and
 * revocation each decide by one UPDATE that requires the invitation still pending.
 */

export interface InvitationSettings {
  /** Platform roles that may invite to the platform; none: only tenants' managers invite. */
  readonly inviters: readonly string[];
  /** The project's roles, most privileged first: an inviter gives only a role at or below its own. */
  readonly roles: readonly string[];
  readonly days: number;
  readonly passwords: PasswordPolicy;
  /** With tenancy: the platform role of an account made by accepting a tenant's invitation. */
  readonly memberRole?: string;
}

export interface InvitationView {
  hash: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface Inviter {
  readonly id: number;
  readonly hash: string;
  readonly role: string;
}

/** Whose invitations: the platform's (null), or the tenant a request works in. */
export type InvitationScope = ActiveTenant | null;

export class InvitationsService {
  constructor(
    private readonly db: Database,
    readonly settings: InvitationSettings,
    private readonly countMail: (email: string, client: string) => Promise<void>,
    /** With tenancy: the members, whose managers invite into their tenant. */
    readonly memberships?: Memberships,
  ) {}

  /** Whether the caller may invite in `scope`: a platform inviter, or a tenant's managing role. */
  mayInvite(role: string, scope: InvitationScope): boolean {
    if (scope === null) return this.settings.inviters.includes(role);
    return scope.bypass || (this.memberships?.settings.manage.includes(scope.role) ?? false);
  }

  /** Invites `email` with `role`: the invitation, the same whether or not the address has an account. */
  async invite(
    inviter: Inviter,
    invitation: { email: string; role: string },
    client: string,
    scope: InvitationScope,
  ): Promise<InvitationView> {
    const { email, role } = invitation;
    const roles = scope === null ? this.settings.roles : this.memberships!.settings.roles;
    const own = scope === null ? inviter.role : scope.role;
    if (!roles.includes(role)) throw fieldError("role", "The selected role is invalid.");
    if (roles.indexOf(role) < roles.indexOf(own))
      throw fieldError("role", "The role field must not be above your own role.");
    await this.countMail(email, client);
    const hash = newHash("INV");
    const now = new Date();
    const expires = new Date(now.getTime() + this.settings.days * 86_400_000);
    await this.db.transaction(async (tx) => {
      // A member demoted or removed a moment before invites no one.
      if (scope !== null)
        await this.memberships!.hold(tx, scope, inviter, this.memberships!.settings.manage);
      const b = new Binder(tx.dialect);
      const values = [hash, email, role, inviter.id, now, expires].map((value) => b.add(value));
      const [column, value] = this.memberships
        ? [`, "tenant_id"`, `, ${b.add(scope?.id ?? null)}`]
        : ["", ""];
      await tx.run(
        `INSERT INTO "hashapi_invitations" ("hash", "email", "role", "invited_by", "created_at", "expires_at"${column}) VALUES (${values.join(", ")}${value})`,
        b.list,
      );
      await enqueueMail<AccountMailJob>(tx, { kind: "invitation", email, invitation: hash });
    });
    return {
      hash,
      email,
      role,
      invited_by: inviter.hash,
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
    };
  }

  /** Pending invitations of `scope` (not accepted, revoked or expired), newest first: at most 100. */
  async list(scope: InvitationScope): Promise<InvitationView[]> {
    const b = new Binder(this.db.dialect);
    const rows = await this.db.all(
      `SELECT "i"."hash", "i"."email", "i"."role", "u"."hash" AS "inviter", "i"."created_at", "i"."expires_at"
        FROM "hashapi_invitations" AS "i" LEFT JOIN "users" AS "u" ON "u"."id" = "i"."invited_by"
        WHERE "i"."accepted_at" IS NULL AND "i"."revoked_at" IS NULL AND "i"."expires_at" > ${b.add(new Date())}${this.within(b, scope)}
        ORDER BY "i"."id" DESC LIMIT 100`,
      b.list,
    );
    const instant = (value: unknown) => decodedInstant(value, this.db.dialect)!.toISOString();
    return rows.map((row) => ({
      hash: String(row.hash),
      email: String(row.email),
      role: String(row.role),
      invited_by: row.inviter === null ? null : String(row.inviter),
      created_at: instant(row.created_at),
      expires_at: instant(row.expires_at),
    }));
  }

  /**
   * Revokes a pending invitation of `scope` (its link stops working); 404 when there is none
   * pending by that id there (another tenant's is as missing as none).
   */
  async revoke(revoker: Inviter, hash: string, scope: InvitationScope): Promise<void> {
    const revoked = await this.db.transaction(async (tx) => {
      if (scope !== null)
        await this.memberships!.hold(tx, scope, revoker, this.memberships!.settings.manage);
      const b = new Binder(tx.dialect);
      return tx.run(
        `UPDATE "hashapi_invitations" AS "i" SET "revoked_at" = ${b.add(new Date())}, "digest" = NULL WHERE "i"."hash" = ${b.add(hash)} AND "i"."accepted_at" IS NULL AND "i"."revoked_at" IS NULL${this.within(b, scope)}`,
        b.list,
      );
    });
    if (revoked === 0) throw new NotFound();
  }

  /** The condition that keeps a statement to `scope`'s invitations (none in a project without tenants). */
  private within(b: Binder, scope: InvitationScope): string {
    if (!this.memberships) return "";
    return scope === null
      ? ` AND "i"."tenant_id" IS NULL`
      : ` AND "i"."tenant_id" = ${b.add(scope.id)}`;
  }
}
