// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { parseArgs } from "node:util";
import { connectDatabase, explainOpenFailure, isUniqueViolation, sql } from "./database.js";
import { newHash } from "./hash-id.js";
import { hashPassword } from "./passwords.js";
import { isSchemaBehind } from "./sql.js";

const usage =
  "usage: npm run user:create -- --name <name> --email <email> --password <password> [--role <role>]";

/**
 * `npm run user:create`: the first account (or any other) without the API, printing its public
 * id; resolves to the exit code. Name and e-mail are stored as the API would store them (trimmed,
 * NFC; the e-mail lower-cased), the password verbatim.
 */
export async function runUserCreateCommand(
  argv: string[],
  databaseUrl: string,
  /** Where DATABASE_URL came from (settingSource), for the message when it cannot be opened. */
  source: string,
  /** The project's roles (src/auth/roles.ts) and the one a user gets without --role. */
  access: { roles: readonly string[]; defaultRole: string },
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        name: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        role: { type: "string" },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  const name = values.name?.trim().normalize("NFC");
  const email = values.email?.trim().normalize("NFC").toLowerCase();
  const { password, role = access.defaultRole } = values;
  if (!name || !email || !password) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    process.stderr.write(`"${email}" is not an e-mail address\n`);
    return 2;
  }
  if (password.length < 8) {
    process.stderr.write("the password must have at least 8 characters\n");
    return 2;
  }
  if (!access.roles.includes(role)) {
    process.stderr.write(`unknown role "${role}": one of ${access.roles.join(", ")}\n`);
    return 2;
  }
  let db;
  try {
    db = await connectDatabase(databaseUrl, 1);
  } catch (error) {
    process.stderr.write(`${explainOpenFailure(databaseUrl, source, error)}\n`);
    return 1;
  }
  try {
    const hash = newHash("USR");
    const now = new Date();
    await db.run(
      sql`INSERT INTO "users" ("hash", "name", "email", "password", "role", "created_at", "updated_at")
        VALUES (${hash}, ${name}, ${email}, ${await hashPassword(password)}, ${role}, ${now}, ${now})`,
    );
    process.stdout.write(`${hash}\n`);
    return 0;
  } catch (error) {
    if (isUniqueViolation(error)) {
      process.stderr.write(`a user with e-mail ${email} already exists\n`);
      return 1;
    }
    if (isSchemaBehind(error)) {
      process.stderr.write(
        "The database has no users table yet: run `npm run db:migrate` first.\n",
      );
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}
