// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { newHash } from "../base/hash-id.js";
import { appendEvents } from "../data/outbox.js";
import { sql, type Sql } from "../db/sql.js";

/** An account a person makes themselves: name, e-mail (as stored) and password hash. */
export interface NewUser {
  readonly name: string;
  readonly email: string;
  /** The scrypt hash (base/passwords.ts), never the password. */
  readonly password: string;
}

/**
 * Inserts the account with `role` unless its address has one, with its `user.created` event (the
 * new user its actor): the account, or undefined when the address was taken. Decided by the
 * insert itself (ON CONFLICT), so two requests for one address make one account.
 */
export async function insertUser(
  tx: Sql,
  role: string,
  user: NewUser,
): Promise<{ id: number; hash: string } | undefined> {
  const now = new Date();
  for (;;) {
    const hash = newHash("USR");
    const row = await tx.get(
      sql`INSERT INTO "users" ("hash", "name", "email", "password", "role", "created_at", "updated_at")
        VALUES (${hash}, ${user.name}, ${user.email}, ${user.password}, ${role}, ${now}, ${now})
        ON CONFLICT DO NOTHING RETURNING "id"`,
    );
    if (row) {
      const changes = {
        name: [null, user.name],
        email: [null, user.email],
        role: [null, role],
      } as const;
      await appendEvents(tx, { hash, name: user.name }, [{ type: "user.created", hash, changes }]);
      return { id: Number(row.id), hash };
    }
    // Nothing inserted: the address is taken, or (once in a trillion) the new public id was.
    if (await tx.get(sql`SELECT 1 AS "taken" FROM "users" WHERE "email" = ${user.email} LIMIT 1`))
      return undefined;
  }
}
