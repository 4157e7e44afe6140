// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Database } from "../db/database.js";
import { isUniqueViolation, sql } from "../db/database.js";

/**
 * Revoked token ids live in the database until the token could no longer be used (the end of its
 * refresh window), so a logout holds on every instance and across restarts. The per-request check
 * is part of AuthService's one user lookup.
 */
export class Revocations {
  constructor(private readonly db: Database) {}

  /** False when the token was already revoked: two concurrent refreshes cannot both succeed. */
  async revoke(jti: string, usableUntil: Date): Promise<boolean> {
    try {
      await this.db.run(
        sql`INSERT INTO "revoked_tokens" ("jti", "expires_at") VALUES (${jti}, ${usableUntil})`,
      );
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
    await this.db.run(sql`DELETE FROM "revoked_tokens" WHERE "expires_at" < ${new Date()}`);
    return true;
  }
}
