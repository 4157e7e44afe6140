// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { newHash } from "../base/hash-id.js";
import { decodedInstant } from "../data/column-codec.js";
import { sql, type Database } from "../db/database.js";
import type { Sql } from "../db/sql.js";

/*
 * A session is one login and the chain of refreshes that follow it (hashapi_sessions): every token of
 * the chain names it (`sid`), so its owner can list where they are signed in and end one session
 * without ending the others. An ended session's tokens are refused on the next request, by the same
 * statement that reads the user (AuthService). Rows are kept until the session could no longer be
 * refreshed, then cleared.
 */

/** A session as its owner sees it. */
export interface SessionView {
  hash: string;
  created_at: string;
  last_used_at: string;
  user_agent: string | null;
  ip: string | null;
  /** The session of the token this request came with. */
  current: boolean;
}

export class Sessions {
  constructor(private readonly db: Database) {}

  /** A new session for a login: its id, for the tokens' `sid`. */
  async start(
    userId: number,
    client: { userAgent: string | undefined; ip: string | undefined },
    refreshSeconds: number,
    sql_: Sql = this.db,
  ): Promise<string> {
    const hash = newHash("SES");
    const now = new Date();
    const expires = new Date(now.getTime() + refreshSeconds * 1000);
    const agent = client.userAgent?.slice(0, 255) ?? null;
    const ip = client.ip?.slice(0, 64) ?? null;
    await sql_.run(
      sql`INSERT INTO "hashapi_sessions" ("hash", "user_id", "user_agent", "ip", "created_at", "last_used_at", "expires_at")
        VALUES (${hash}, ${userId}, ${agent}, ${ip}, ${now}, ${now}, ${expires})`,
    );
    await sql_.run(sql`DELETE FROM "hashapi_sessions" WHERE "expires_at" <= ${now}`);
    return hash;
  }

  /** A refresh used the session now. */
  async touch(hash: string): Promise<void> {
    await this.db.run(
      sql`UPDATE "hashapi_sessions" SET "last_used_at" = ${new Date()} WHERE "hash" = ${hash}`,
    );
  }

  /** Ends one session of `userId`: false when it has none by that id that is still going. */
  async end(userId: number, hash: string): Promise<boolean> {
    const ended = await this.db.run(
      sql`UPDATE "hashapi_sessions" SET "ended_at" = ${new Date()} WHERE "hash" = ${hash} AND "user_id" = ${userId} AND "ended_at" IS NULL`,
    );
    return ended > 0;
  }

  /**
   * Ends every session of `userId` (a password reset, a change of e-mail), but `except` (the one
   * that set a second factor up).
   */
  static async endAll(sql_: Sql, userId: number, except = ""): Promise<void> {
    await sql_.run(
      sql`UPDATE "hashapi_sessions" SET "ended_at" = ${new Date()} WHERE "user_id" = ${userId} AND "ended_at" IS NULL AND "hash" <> ${except}`,
    );
  }

  /** The sessions of `userId` still going, newest first; `current` marks the caller's. */
  async list(userId: number, current: string): Promise<SessionView[]> {
    const user = await this.db.get(sql`SELECT "sessions_from" FROM "users" WHERE "id" = ${userId}`);
    const sessionsFrom = user ? decodedInstant(user.sessions_from, this.db.dialect) : null;
    const rows = await this.db.all(
      sql`SELECT "hash", "created_at", "last_used_at", "user_agent", "ip" FROM "hashapi_sessions"
        WHERE "user_id" = ${userId} AND "ended_at" IS NULL AND "expires_at" > ${new Date()}
        ORDER BY "id" DESC LIMIT 100`,
    );
    const instant = (value: unknown) => decodedInstant(value, this.db.dialect)!;
    return (
      rows
        // A password changed since the session's last token ended it (its tokens are refused).
        .filter((row) => sessionsFrom === null || instant(row.last_used_at) >= sessionsFrom)
        .map((row) => ({
          hash: String(row.hash),
          created_at: instant(row.created_at).toISOString(),
          last_used_at: instant(row.last_used_at).toISOString(),
          user_agent: row.user_agent === null ? null : String(row.user_agent),
          ip: row.ip === null ? null : String(row.ip),
          current: row.hash === current,
        }))
    );
  }
}
