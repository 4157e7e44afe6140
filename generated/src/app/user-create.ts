// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { parseArgs } from "node:util";
import { connectDatabase, explainOpenFailure, isUniqueViolation, sql } from "../db/database.js";
import { newHash } from "../base/hash-id.js";
import { appendEvents, recordEventsAs } from "../data/outbox.js";
import { hashPassword } from "../base/passwords.js";
import { passwordProblem, type PasswordPolicy } from "../auth/password-policy.js";
import { storedEmail } from "../base/emails.js";
import { isSchemaBehind } from "../db/database-errors.js";
import { messageOf } from "../base/records.js";

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
  access: { roles: readonly string[]; defaultRole: string; passwords: PasswordPolicy },
): Promise<number> {
  // A script's write: receivers skip its event unless they ask for seeds.
  recordEventsAs("script");
  const user = newUserArguments(argv, access);
  if (typeof user === "string") {
    process.stderr.write(`${user}\n`);
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
    const { name, email, password, role } = user;
    const passwordHash = await hashPassword(password);
    // With its event, as every write the service makes (no actor: a script).
    await db.transaction(async (tx) => {
      await tx.run(
        sql`INSERT INTO "users" ("hash", "name", "email", "password", "role", "created_at", "updated_at")
          VALUES (${hash}, ${name}, ${email}, ${passwordHash}, ${role}, ${now}, ${now})`,
      );
      const changes = { name: [null, name], email: [null, email], role: [null, role] } as const;
      await appendEvents(tx, null, [{ type: "user.created", hash, changes }]);
    });
    process.stdout.write(`${hash}\n`);
    return 0;
  } catch (error) {
    const problem = isUniqueViolation(error)
      ? `a user with e-mail ${user.email} already exists`
      : isSchemaBehind(error)
        ? "The database has no users table yet: run `npm run db:migrate` first."
        : undefined;
    if (problem === undefined) throw error;
    process.stderr.write(`${problem}\n`);
    return 1;
  } finally {
    await db.close();
  }
}

/** The user the arguments describe, or what is wrong with them (a usage error). */
function newUserArguments(
  argv: string[],
  access: { roles: readonly string[]; defaultRole: string; passwords: PasswordPolicy },
): { name: string; email: string; password: string; role: string } | string {
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
    return `${messageOf(error)}\n${usage}`;
  }
  const name = values.name?.trim().normalize("NFC");
  const email = values.email === undefined ? undefined : storedEmail(values.email);
  const { password, role = access.defaultRole } = values;
  if (!name || !email || !password) return usage;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return `"${email}" is not an e-mail address`;
  const problem = passwordProblem(access.passwords, password, { email, name });
  if (problem) return problem.replace("The password field", "The password");
  if (!access.roles.includes(role))
    return `unknown role "${role}": one of ${access.roles.join(", ")}`;
  return { name, email, password, role };
}
