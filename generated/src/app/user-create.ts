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
import { quote, type Sql } from "../db/sql.js";

const usage =
  "usage: npm run user:create -- --name <name> --email <email> --password <password> [--role <role>] [--tenant <public id> --tenant-role <role>]";

/** With tenancy: the tenants' table and roles, for `--tenant` and `--tenant-role`. */
interface UserTenancy {
  readonly table: string;
  readonly roles: readonly string[];
}

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
  access: {
    roles: readonly string[];
    defaultRole: string;
    passwords: PasswordPolicy;
    tenancy?: UserTenancy;
  },
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
    const { name, email, password, role, tenant } = user;
    const passwordHash = await hashPassword(password);
    // With its event, as every write the service makes (no actor: a script).
    await db.transaction(async (tx) => {
      const inserted = await tx.get(
        sql`INSERT INTO "users" ("hash", "name", "email", "password", "role", "created_at", "updated_at")
          VALUES (${hash}, ${name}, ${email}, ${passwordHash}, ${role}, ${now}, ${now}) RETURNING "id"`,
      );
      if (tenant) await joinTenant(tx, access.tenancy!, Number(inserted!.id), tenant);
      const changes = { name: [null, name], email: [null, email], role: [null, role] } as const;
      await appendEvents(tx, null, [{ type: "user.created", hash, changes }]);
    });
    process.stdout.write(`${hash}\n`);
    return 0;
  } catch (error) {
    const problem = problemOf(error, user.email);
    if (problem === undefined) throw error;
    process.stderr.write(`${problem}\n`);
    return 1;
  } finally {
    await db.close();
  }
}

/** A creation's failure the person running the command can fix, in a line; undefined for any other. */
function problemOf(error: unknown, email: string): string | undefined {
  if (error instanceof NoSuchTenant) return error.message;
  if (isUniqueViolation(error)) return `a user with e-mail ${email} already exists`;
  if (isSchemaBehind(error))
    return "The database has no users table yet: run `npm run db:migrate` first.";
  return undefined;
}

/** The user the arguments describe, or what is wrong with them (a usage error). */
function newUserArguments(
  argv: string[],
  access: {
    roles: readonly string[];
    defaultRole: string;
    passwords: PasswordPolicy;
    tenancy?: UserTenancy;
  },
):
  | {
      name: string;
      email: string;
      password: string;
      role: string;
      tenant?: { hash: string; role: string };
    }
  | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        name: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        role: { type: "string" },
        tenant: { type: "string" },
        "tenant-role": { type: "string" },
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
  const tenant = tenantArguments(values.tenant, values["tenant-role"], access.tenancy);
  if (typeof tenant === "string") return tenant;
  return { name, email, password, role, ...(tenant ? { tenant } : {}) };
}

/** `--tenant` and `--tenant-role` (with tenancy only, both or neither), or what is wrong with them. */
function tenantArguments(
  hash: string | undefined,
  role: string | undefined,
  tenancy: UserTenancy | undefined,
): { hash: string; role: string } | undefined | string {
  if (hash === undefined && role === undefined) return undefined;
  if (!tenancy) return "--tenant needs tenancy in hashapi.yaml";
  if (hash === undefined || role === undefined) return "--tenant and --tenant-role go together";
  if (!tenancy.roles.includes(role))
    return `unknown tenant role "${role}": one of ${tenancy.roles.join(", ")}`;
  return { hash, role };
}

class NoSuchTenant extends Error {}

/** Makes the new user a member of the tenant `tenant.hash` names, with `tenant.role`. */
async function joinTenant(
  tx: Sql,
  tenancy: UserTenancy,
  userId: number,
  tenant: { hash: string; role: string },
): Promise<void> {
  const found = await tx.get(
    `SELECT "id" FROM ${quote(tenancy.table)} WHERE "hash" = ${tx.dialect.placeholder(1)}`,
    [tenant.hash],
  );
  if (!found) throw new NoSuchTenant(`no ${tenancy.table} record has the public id ${tenant.hash}`);
  const now = new Date();
  await tx.run(
    sql`INSERT INTO "hashapi_memberships" ("tenant_id", "user_id", "role", "created_at", "updated_at") VALUES (${Number(found.id)}, ${userId}, ${tenant.role}, ${now}, ${now})`,
  );
}
