// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { sql, type Database } from "../lib/database.js";
import { TooManyAttempts } from "../lib/errors.js";
import { decodeValue } from "../lib/table.js";

/**
 * Login attempts allowed per minute, per counter. Laravel's 5 per e-mail and client address, plus
 * two wider counters: one per address (a client trying many e-mails) and one per e-mail (many
 * addresses trying one account).
 */
export const loginLimits = { accountAtAddress: 5, address: 20, account: 20 } as const;
const windowSeconds = 60;

type Counter = keyof typeof loginLimits;

interface Attempt {
  keys: Record<Counter, string>;
}

/**
 * Counters live in the database so that every instance of a scaled-out service sees the same ones.
 * An attempt is counted before the password is checked, in one atomic statement: parallel requests
 * cannot all pass a check that runs before any of them has been counted.
 */
export class LoginThrottle {
  constructor(private readonly db: Database) {}

  /** Counts one attempt on every counter; TooManyAttempts when any counter is over its limit. */
  async attempt(email: string, ip: string): Promise<Attempt> {
    const account = email.toLowerCase();
    const keys: Record<Counter, string> = {
      accountAtAddress: `${account}|${ip}`,
      address: `address|${ip}`,
      account: `account|${account}`,
    };
    const now = new Date();
    const resetAt = new Date(now.getTime() + windowSeconds * 1000);
    const counters = Object.keys(keys) as Counter[];
    // A counter whose window has ended starts again at 1 with a new window.
    const rows = await this.db.all(
      sql`INSERT INTO "login_throttles" AS "l" ("key", "attempts", "reset_at")
        VALUES (${keys.accountAtAddress}, 1, ${resetAt}), (${keys.address}, 1, ${resetAt}), (${keys.account}, 1, ${resetAt})
        ON CONFLICT ("key") DO UPDATE SET
          "attempts" = CASE WHEN "l"."reset_at" <= ${now} THEN 1 ELSE "l"."attempts" + 1 END,
          "reset_at" = CASE WHEN "l"."reset_at" <= ${now} THEN "excluded"."reset_at" ELSE "l"."reset_at" END
        RETURNING "key", "attempts", "reset_at"`,
    );
    let waitMs = 0;
    for (const row of rows) {
      const counter = counters.find((candidate) => keys[candidate] === row.key)!;
      if (Number(row.attempts) > loginLimits[counter]) {
        waitMs = Math.max(
          waitMs,
          (decodeValue("datetime", row.reset_at) as Date).getTime() - now.getTime(),
        );
      }
    }
    if (waitMs > 0) throw new TooManyAttempts(Math.ceil(waitMs / 1000));
    return { keys };
  }

  /** A successful login clears its e-mail-and-address counter (as Laravel does) and is not held against the wider ones. */
  async succeeded(attempt: Attempt): Promise<void> {
    const { accountAtAddress, address, account } = attempt.keys;
    await this.db.run(sql`DELETE FROM "login_throttles" WHERE "key" = ${accountAtAddress}`);
    await this.db.run(
      sql`UPDATE "login_throttles" SET "attempts" = "attempts" - 1 WHERE "key" IN (${address}, ${account}) AND "attempts" > 0`,
    );
  }
}
