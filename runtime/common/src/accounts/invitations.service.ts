// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fieldError, NotFound } from "../base/errors.js";
import { newHash } from "../base/hash-id.js";
import { hashPassword } from "../base/passwords.js";
import { decodedInstant } from "../data/column-codec.js";
import { sql, type Database } from "../db/database.js";
import { enqueueMail } from "../jobs/mail-job.js";
import { tokenDigest } from "../auth/account-tokens.js";
import { passwordProblem, type PasswordPolicy } from "../auth/password-policy.js";
import type { AccountMailJob } from "./account-mails.js";
import { insertUser } from "./new-user.js";

/*
 * Invitations (hashapi.yaml `auth.invitations`): a user of an inviting role invites an address
 * with a role at or below their own; the mail's link lets its owner choose a name and a password
 * and signs them in. The invitation is made whether or not the address has an account (the answer
 * and the list are the same either way); the mail job then sends the link, or tells the owner of
 * an existing account. Its token's digest lives on the invitation, written when the mail is sent;
 * acceptance and revocation each decide by one UPDATE that requires the invitation still pending.
 */

export interface InvitationSettings {
  /** Roles that may invite. */
  readonly inviters: readonly string[];
  /** The project's roles, most privileged first: an inviter gives only a role at or below its own. */
  readonly roles: readonly string[];
  readonly days: number;
  readonly passwords: PasswordPolicy;
}

export interface InvitationView {
  hash: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

interface Inviter {
  readonly id: number;
  readonly hash: string;
  readonly role: string;
}

export class InvitationsService {
  constructor(
    private readonly db: Database,
    readonly settings: InvitationSettings,
    private readonly countMail: (email: string, client: string) => Promise<void>,
  ) {}

  mayInvite(role: string): boolean {
    return this.settings.inviters.includes(role);
  }

  /** Invites `email` with `role`: the invitation, the same whether or not the address has an account. */
  async invite(
    inviter: Inviter,
    email: string,
    role: string,
    client: string,
  ): Promise<InvitationView> {
    const { roles, days } = this.settings;
    if (!roles.includes(role)) throw fieldError("role", "The selected role is invalid.");
    if (roles.indexOf(role) < roles.indexOf(inviter.role))
      throw fieldError("role", "The role field must not be above your own role.");
    await this.countMail(email, client);
    const hash = newHash("INV");
    const now = new Date();
    const expires = new Date(now.getTime() + days * 86_400_000);
    await this.db.transaction(async (tx) => {
      await tx.run(
        sql`INSERT INTO "hashapi_invitations" ("hash", "email", "role", "invited_by", "created_at", "expires_at")
          VALUES (${hash}, ${email}, ${role}, ${inviter.id}, ${now}, ${expires})`,
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

  /** Pending invitations (not accepted, revoked or expired), newest first: at most 100. */
  async list(): Promise<InvitationView[]> {
    const rows = await this.db.all(
      sql`SELECT "i"."hash", "i"."email", "i"."role", "u"."hash" AS "inviter", "i"."created_at", "i"."expires_at"
        FROM "hashapi_invitations" AS "i" LEFT JOIN "users" AS "u" ON "u"."id" = "i"."invited_by"
        WHERE "i"."accepted_at" IS NULL AND "i"."revoked_at" IS NULL AND "i"."expires_at" > ${new Date()}
        ORDER BY "i"."id" DESC LIMIT 100`,
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

  /** Revokes a pending invitation (its link stops working); 404 when there is none pending by that id. */
  async revoke(hash: string): Promise<void> {
    const revoked = await this.db.run(
      sql`UPDATE "hashapi_invitations" SET "revoked_at" = ${new Date()}, "digest" = NULL WHERE "hash" = ${hash} AND "accepted_at" IS NULL AND "revoked_at" IS NULL`,
    );
    if (revoked === 0) throw new NotFound();
  }

  /**
   * Accepts an invitation with its link's token: the account is made with the invitation's role,
   * the name and password given here. The user, or undefined when the link is spent, revoked,
   * expired or its address has an account by now.
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
        const row = await tx.get(
          sql`UPDATE "hashapi_invitations" SET "accepted_at" = ${new Date()}, "digest" = NULL
          WHERE "digest" = ${tokenDigest(token)} AND "accepted_at" IS NULL AND "revoked_at" IS NULL AND "expires_at" > ${new Date()}
          RETURNING "email", "role"`,
        );
        if (!row) return undefined;
        const email = String(row.email);
        if (passwordProblem(this.settings.passwords, password, { email, name }))
          throw fieldError(
            "password",
            "The password field must not be your name or email address.",
          );
        const user = await insertUser(tx, String(row.role), { name, email, password: hashed });
        // An account made meanwhile: the transaction rolls back, the invitation stays pending.
        if (!user) throw new AddressTaken();
        return user;
      })
      .catch((error: unknown) => {
        if (error instanceof AddressTaken) return undefined;
        throw error;
      });
  }
}

class AddressTaken extends Error {}
