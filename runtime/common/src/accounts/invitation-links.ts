// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { newLinkToken, tokenDigest } from "../auth/account-tokens.js";
import type { TenancySettings } from "../auth/memberships.js";
import { decodedInstant } from "../data/column-codec.js";
import { quote, sql, type Sql } from "../db/sql.js";

/**
 * A new link for a pending invitation, written on it when its mail is sent (mail job): the token,
 * and what the mail says; undefined when the invitation is no longer pending.
 */
export async function invitationLink(
  db: Sql,
  hash: string,
): Promise<{ token: string; role: string; inviter: string | null; expiresAt: Date } | undefined> {
  const token = newLinkToken();
  const row = await db.get(
    sql`UPDATE "hashapi_invitations" SET "digest" = ${tokenDigest(token)}
      WHERE "hash" = ${hash} AND "accepted_at" IS NULL AND "revoked_at" IS NULL AND "expires_at" > ${new Date()}
      RETURNING "role", "invited_by", "expires_at"`,
  );
  if (!row) return undefined;
  const inviter = await db.get(sql`SELECT "name" FROM "users" WHERE "id" = ${row.invited_by}`);
  return {
    token,
    role: String(row.role),
    inviter: inviter ? String(inviter.name) : null,
    expiresAt: decodedInstant(row.expires_at, db.dialect)!,
  };
}

/**
 * With tenancy: how an invitation's mail names its tenant — the tenant's label field (chosen by
 * hashapi from the fields every member may read), else its public id; null for the platform's
 * own invitations.
 */
export async function invitationTenant(
  db: Sql,
  hash: string,
  tenancy: TenancySettings,
): Promise<string | null> {
  const label = tenancy.label === null ? `"t"."hash"` : `"t".${quote(tenancy.label)}`;
  const row = await db.get(
    `SELECT ${label} AS "label" FROM "hashapi_invitations" AS "i" JOIN ${quote(tenancy.table)} AS "t" ON "t"."id" = "i"."tenant_id" WHERE "i"."hash" = ${db.dialect.placeholder(1)}`,
    [hash],
  );
  return row ? String(row.label) : null;
}
