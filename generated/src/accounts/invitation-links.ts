// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { newLinkToken, tokenDigest } from "../auth/account-tokens.js";
import { decodedInstant } from "../data/column-codec.js";
import { sql, type Sql } from "../db/sql.js";

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
