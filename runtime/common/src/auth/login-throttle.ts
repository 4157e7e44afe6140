// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { sql, type Database } from "../db/database.js";
import { TooManyAttempts } from "../base/errors.js";
import { countAttempts } from "./attempt-counters.js";

/**
 * Login attempts allowed per minute, per counter. Laravel's 5 per e-mail and client address, plus
 * two wider counters: one per address (a client trying many e-mails) and one per e-mail (many
 * addresses trying one account).
 */
export const loginLimits = { accountAtAddress: 5, address: 20, account: 20 } as const;
const windowSeconds = 60;
/** How long a successful login keeps its e-mail and address a known-good pair. */
const knownGoodDays = 30;

type Counter = keyof typeof loginLimits;
const counterNames: readonly Counter[] = ["accountAtAddress", "address", "account"];

interface Attempt {
  keys: Partial<Record<Counter, string>> & { accountAtAddress: string };
  knownKey: string;
}

/**
 * Counted before the password is checked, in one atomic statement (auth/attempt-counters.ts).
 *
 * The wide counters must not lock an account's owner out: behind a NAT or a proxy many people share
 * one address, and anyone can spend an account's per-e-mail budget from elsewhere. So an e-mail and
 * address that logged in successfully before (in the last 30 days) are a known-good pair: they count
 * only against their own 5 a minute. Everyone else counts against all three.
 */
export class LoginThrottle {
  constructor(private readonly db: Database) {}

  /** Counts one attempt on every counter that applies; TooManyAttempts when any is over its limit. */
  async attempt(email: string, ip: string): Promise<Attempt> {
    const account = email.toLowerCase();
    // Each key starts with its kind, so no e-mail can spell another kind's key ("known|a@b.c" is an address).
    const knownKey = `known|${account}|${ip}`;
    const now = new Date();
    const known = await this.db.get(
      sql`SELECT 1 AS "known" FROM "login_throttles" WHERE "key" = ${knownKey} AND "reset_at" > ${now}`,
    );
    const keys: Attempt["keys"] = known
      ? { accountAtAddress: `pair|${account}|${ip}` }
      : {
          accountAtAddress: `pair|${account}|${ip}`,
          address: `address|${ip}`,
          account: `account|${account}`,
        };
    const counters = counterNames.flatMap((counter) => {
      const key = keys[counter];
      return key === undefined ? [] : [{ key, limit: loginLimits[counter] }];
    });
    const waitSeconds = await countAttempts(this.db, counters, windowSeconds);
    if (waitSeconds > 0) throw new TooManyAttempts(waitSeconds);
    return { keys, knownKey };
  }

  /**
   * A successful login clears its e-mail-and-address counter (as Laravel does), is not held against
   * the wider ones, and makes the pair known-good (see the class).
   */
  async succeeded(attempt: Attempt): Promise<void> {
    const { accountAtAddress, address, account } = attempt.keys;
    const now = new Date();
    await this.db.run(sql`DELETE FROM "login_throttles" WHERE "key" = ${accountAtAddress}`);
    if (address !== undefined && account !== undefined)
      await this.db.run(
        sql`UPDATE "login_throttles" SET "attempts" = "attempts" - 1 WHERE "key" IN (${address}, ${account}) AND "attempts" > 0`,
      );
    const until = new Date(now.getTime() + knownGoodDays * 86_400_000);
    await this.db.run(
      sql`INSERT INTO "login_throttles" ("key", "attempts", "reset_at") VALUES (${attempt.knownKey}, 0, ${until})
        ON CONFLICT ("key") DO UPDATE SET "reset_at" = "excluded"."reset_at"`,
    );
  }
}
