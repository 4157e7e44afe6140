// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { decodeValue } from "../data/table.js";
import type { Database } from "../db/database.js";
import { Binder } from "../db/sql.js";

/*
 * Counters of attempts per window (the table login_throttles): in the database, so every instance
 * of a scaled-out service sees the same ones, and counted in one statement before the work they
 * limit, so parallel requests cannot all pass a check that runs before any of them was counted.
 */

/** One counter to count: its key (which starts with its kind, so no value can spell another kind's) and limit. */
export interface Counted {
  readonly key: string;
  readonly limit: number;
}

/**
 * Counts one attempt on every counter in `counters` (all, or none), each in its own window of
 * `windowSeconds` (a counter whose window ended starts again at 1); resolves to the seconds to
 * wait when any is over its limit, 0 otherwise.
 */
export async function countAttempts(
  db: Database,
  counters: readonly Counted[],
  windowSeconds: number,
): Promise<number> {
  const now = new Date();
  const resetAt = new Date(now.getTime() + windowSeconds * 1000);
  const values = new Binder(db.dialect);
  const rows = await db.all(
    `INSERT INTO "login_throttles" AS "l" ("key", "attempts", "reset_at")
      VALUES ${counters.map(({ key }) => `(${values.add(key)}, 1, ${values.add(resetAt)})`).join(", ")}
      ON CONFLICT ("key") DO UPDATE SET
        "attempts" = CASE WHEN "l"."reset_at" <= ${values.add(now)} THEN 1 ELSE "l"."attempts" + 1 END,
        "reset_at" = CASE WHEN "l"."reset_at" <= ${values.add(now)} THEN "excluded"."reset_at" ELSE "l"."reset_at" END
      RETURNING "key", "attempts", "reset_at"`,
    values.list,
  );
  let waitMs = 0;
  for (const row of rows) {
    const limit = counters.find((counter) => counter.key === row.key)!.limit;
    const until = decodeValue("datetime", row.reset_at, db.dialect);
    if (Number(row.attempts) > limit && until instanceof Date)
      waitMs = Math.max(waitMs, until.getTime() - now.getTime());
  }
  return Math.ceil(waitMs / 1000);
}
