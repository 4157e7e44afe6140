// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fieldError, TooManyRequests } from "../base/errors.js";
import { verifyPassword } from "../base/passwords.js";
import { sql, type Database } from "../db/database.js";
import { countAttempts } from "./attempt-counters.js";

/** Tries at something a user proves (their password again, a code): per user, per minute. */
export const triesPerMinute = 5;

/** Counts one try on `key` (5 a minute): past it, 429 with Retry-After. */
export async function countTry(db: Database, key: string): Promise<void> {
  const wait = await countAttempts(db, [{ key, limit: triesPerMinute }], 60);
  if (wait > 0) throw new TooManyRequests(wait);
}

/**
 * The signed-in user's password asked again before a change that matters (a second factor set up
 * or turned off, a change of address): counted on `key` first, then checked against the stored
 * hash; a 422 on `password` when it is wrong.
 */
export async function confirmPassword(
  db: Database,
  userId: number,
  password: string,
  key: string,
): Promise<void> {
  await countTry(db, key);
  const row = await db.get(sql`SELECT "password" FROM "users" WHERE "id" = ${userId}`);
  const stored = typeof row?.password === "string" ? row.password : null;
  if (!(await verifyPassword(password, stored)))
    throw fieldError("password", "The password is incorrect.");
}
