// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListQuery } from "../../http/list-query.js";
import { Conflict, fieldError } from "../../base/errors.js";
import { passwordProblem, type PasswordPolicy } from "../../auth/password-policy.js";
import { mapColumnConditions } from "../../data/list-conditions.js";
import { hashPassword } from "../../base/passwords.js";
import { propertyOf } from "../../base/records.js";
import type { Memberships } from "../../auth/memberships.js";
import { Binder, type Sql } from "../../db/sql.js";
import type { AnyTable, Table, TableSpec } from "../../data/table.js";
import type { ResourceDescriptor } from "../descriptor.js";
import { ResourceService, type RecordRules, type StoredRow, type WriteRules } from "../service.js";

/** A user as /api/users reads it (never with the password). */
export interface ManagedUser extends StoredRow {
  name: string;
  email: string;
  role: string;
}

/** What a user payload may hold once valid: the built-in fields and the project's user fields. */
export interface UserPayload {
  name?: string;
  email?: string;
  password?: string;
  role?: string;
  [field: string]: unknown;
}

/** The project's roles, most privileged first (src/auth/roles.ts), and the role of a user created without one. */
export interface UserRoles {
  /** With tenancy: who works in which tenant (a user's delete keeps every tenant an owner). */
  readonly memberships?: Memberships;
  readonly roles: readonly string[];
  readonly defaultRole: string;
  /** What a new password must be (hashapi.yaml `auth.passwords`). */
  readonly passwords: PasswordPolicy;
  /**
   * With hashapi.yaml's `mail:`, mails a user a reset link (the mail job): managers start resets
   * and never set another user's password.
   */
  readonly startReset?: (email: string, client: string) => Promise<void>;
}

/**
 * The users as a resource (hashapi.yaml `auth.users.manage`, /api/users): stored as sign-in reads
 * them (the e-mail lower-cased, the password hashed), and never without a user of the first role:
 * deleting or demoting the last one is a 409, decided with every user of that role locked.
 */
export class UsersService extends ResourceService<object, ManagedUser, UserPayload, UserPayload> {
  private firstRoleText?: string;

  constructor(
    resource: ResourceDescriptor<object, ManagedUser, UserPayload, UserPayload>,
    table: Table<object, ManagedUser>,
    tableOf: (spec: TableSpec) => AnyTable,
    readonly access: UserRoles,
  ) {
    super(resource, table, tableOf);
  }

  private get firstRole(): string {
    return this.access.roles[0]!;
  }

  /** E-mail filters find the address however it is written, as sign-in does: they are stored lower-cased. */
  protected override listed(query: ListQuery): ListQuery {
    const lower = (value: unknown): unknown =>
      typeof value === "string"
        ? value.toLowerCase()
        : Array.isArray(value)
          ? value.map(lower)
          : value;
    return {
      ...query,
      where: mapColumnConditions(query.where, (condition) =>
        condition.column === "email" ? { ...condition, value: lower(condition.value) } : condition,
      ),
    };
  }

  override async create(payload: UserPayload, relations: readonly string[] = []) {
    return super.create(await this.stored(payload), relations);
  }

  /** A new password ends the user's earlier sessions: tokens issued before it are refused (AuthService). */
  override async update(
    row: ManagedUser,
    payload: UserPayload,
    relations: readonly string[] = [],
    rules: WriteRules = {},
  ) {
    const stored = await this.stored(payload);
    if (stored.password !== undefined) stored.sessions_from = new Date().toISOString();
    const demotes = stored.role !== undefined && stored.role !== this.firstRole;
    const check = demotes
      ? (sql: Sql) => this.keepsAnother(sql, row, "given another role")
      : undefined;
    return super.update(row, stored, relations, check ? { ...rules, check } : rules);
  }

  override destroy(row: ManagedUser, rules: RecordRules = {}) {
    return super.destroy(row, {
      ...rules,
      check: async (sql) => {
        await this.keepsAnother(sql, row, "deleted");
        // With tenancy: no tenant is left without an owner by a user's delete.
        await this.access.memberships?.keepsOwnersOf(sql, row.id);
      },
    });
  }

  /** Unique e-mails are looked up as stored: lower-cased. */
  override withUniqueErrors(error: unknown, body: unknown, exceptId?: number) {
    return super.withUniqueErrors(error, lowerCasedEmail(body), exceptId);
  }

  /**
   * The payload as stored: e-mail lower-cased (as login looks it up), password hashed once it
   * meets the project's rules (a common one, or the user's own name or e-mail, is refused).
   */
  private async stored(payload: UserPayload): Promise<UserPayload> {
    const stored = lowerCasedEmail(payload) as UserPayload;
    if (typeof stored.password !== "string") return stored;
    const problem = passwordProblem(this.access.passwords, stored.password, stored);
    if (problem) throw fieldError("password", problem);
    return { ...stored, password: await hashPassword(stored.password) };
  }

  /**
   * 409 when `row` is the only user of the first role left. Every such user is locked until the
   * write ends (PostgreSQL; SQLite runs one write transaction at a time), so two managers removing
   * the last two at once cannot both succeed: the second sees the first's change.
   */
  private async keepsAnother(sql: Sql, row: ManagedUser, change: string): Promise<void> {
    this.firstRoleText ??= `SELECT "id" FROM "users" WHERE "role" = ${new Binder(sql.dialect).add(this.firstRole)} ORDER BY "id"${sql.dialect.lockClause("update")}`;
    const holders = (await sql.all(this.firstRoleText, [this.firstRole])).map((holder) =>
      Number(holder.id),
    );
    if (holders.length === 1 && holders[0] === row.id)
      throw new Conflict(`The last ${this.firstRole} cannot be ${change}.`);
  }
}

function lowerCasedEmail(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return body;
  const email = propertyOf(body, "email");
  if (typeof email !== "string" || email === email.toLowerCase()) return body;
  return { ...body, email: email.toLowerCase() };
}
