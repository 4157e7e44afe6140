// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHash, randomBytes } from "node:crypto";
import { decodedInstant } from "../data/column-codec.js";
import { sql, type Sql } from "../db/sql.js";

/*
 * The single-use tokens of the account flows (hashapi_account_tokens): a sign-up waiting for its address to
 * be confirmed, a password reset, a login waiting for its second factor. A token is 32 random bytes (256 bits, base64url) that only its
 * mail ever holds: the table keeps its SHA-256 digest (a token this random needs no slow hash), so
 * a copy of the database cannot use one. It is spent by the statement that checks it: one DELETE
 * whose WHERE holds its purpose and expiry, so of two requests with one token exactly one gets the
 * row (the other's DELETE finds it gone, on both databases).
 */

export type TokenPurpose = "signup" | "reset" | "mfa" | "email";

/** What a token carries besides its purpose: whose it is, and what it stands for. */
export interface TokenData {
  readonly userId?: number | null;
  readonly email: string;
  /** A sign-up's name and password hash, stored when its address is confirmed. */
  readonly name?: string | null;
  readonly password?: string | null;
}

export interface SpentToken extends Required<TokenData> {
  readonly createdAt: Date;
}

export function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new link token: 32 random bytes (256 bits), base64url, for a mail's link only. */
export function newLinkToken(): string {
  return randomBytes(32).toString("base64url");
}

/** A new token for `data`, valid for `ttlMinutes`: its text, for the mail that carries it. */
export async function issueAccountToken(
  db: Sql,
  purpose: TokenPurpose,
  data: TokenData,
  ttlMinutes: number,
): Promise<string> {
  const token = newLinkToken();
  const now = new Date();
  const expires = new Date(now.getTime() + ttlMinutes * 60_000);
  await db.run(
    sql`INSERT INTO "hashapi_account_tokens" ("digest", "purpose", "user_id", "email", "name", "password", "expires_at", "created_at")
      VALUES (${tokenDigest(token)}, ${purpose}, ${data.userId ?? null}, ${data.email}, ${data.name ?? null}, ${data.password ?? null}, ${expires}, ${now})`,
  );
  // Spent and expired tokens leave no rows behind: each issue clears what has expired.
  await db.run(sql`DELETE FROM "hashapi_account_tokens" WHERE "expires_at" <= ${now}`);
  return token;
}

/**
 * Spends a token: its row if `token` is one of `purpose` and has not expired, and nothing ever
 * again for it. Decided in the one statement that deletes it.
 */
export async function spendToken(
  db: Sql,
  purpose: TokenPurpose,
  token: string,
): Promise<SpentToken | undefined> {
  const row = await db.get(
    sql`DELETE FROM "hashapi_account_tokens" WHERE "digest" = ${tokenDigest(token)} AND "purpose" = ${purpose} AND "expires_at" > ${new Date()}
      RETURNING "user_id", "email", "name", "password", "created_at"`,
  );
  if (!row) return undefined;
  return {
    userId: row.user_id === null ? null : Number(row.user_id),
    email: String(row.email),
    name: row.name === null ? null : String(row.name),
    password: row.password === null ? null : String(row.password),
    createdAt: decodedInstant(row.created_at, db.dialect)!,
  };
}

/** The sign-up waiting for `email` that was asked for last, if one has not expired. */
export async function pendingSignup(db: Sql, email: string): Promise<TokenData | undefined> {
  const row = await db.get(
    sql`SELECT "email", "name", "password" FROM "hashapi_account_tokens" WHERE "purpose" = 'signup' AND "email" = ${email} AND "expires_at" > ${new Date()} ORDER BY "id" DESC LIMIT 1`,
  );
  return row
    ? { email: String(row.email), name: String(row.name), password: String(row.password) }
    : undefined;
}

/** Ends every token of `purpose` for this user or address: a new password makes earlier links void. */
export async function dropTokens(db: Sql, purpose: TokenPurpose, email: string): Promise<void> {
  await db.run(
    sql`DELETE FROM "hashapi_account_tokens" WHERE "purpose" = ${purpose} AND "email" = ${email}`,
  );
}

/** The token's row without spending it (a login's second factor is asked for, then spent with it). */
export async function pendingToken(
  db: Sql,
  purpose: TokenPurpose,
  token: string,
): Promise<{ userId: number; email: string } | undefined> {
  const row = await db.get(
    sql`SELECT "user_id", "email" FROM "hashapi_account_tokens" WHERE "digest" = ${tokenDigest(token)} AND "purpose" = ${purpose} AND "expires_at" > ${new Date()}`,
  );
  return row && row.user_id !== null
    ? { userId: Number(row.user_id), email: String(row.email) }
    : undefined;
}
