// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Database } from "../db/database.js";
import { outputOf } from "../data/serialize.js";
import type { Request } from "express";
import { decodedInstant } from "../data/column-codec.js";
import { Binder, quote, type ReadRouting } from "../db/sql.js";
import { Memberships, type ActiveTenant, type TenancySettings } from "./memberships.js";
import { decodeValue, type ColumnKind } from "../data/table.js";
import { Unauthenticated } from "../base/errors.js";
import { verifyPassword } from "../base/passwords.js";
import {
  issueToken,
  readToken,
  type IssuedToken,
  type JwtSettings,
  type TokenClaims,
} from "../base/tokens.js";
import type { LoginThrottle } from "./login-throttle.js";
import type { Revocations } from "./revocations.js";
import type { Sessions } from "./sessions.js";
import { mfaChallenge, type MfaChallenge, type SecondFactor } from "./second-factor.js";

/**
 * The fields hashapi.yaml adds to every user (`auth.user.fields`), and how each is stored: read
 * with the user on every request, in `req.user` and `/api/auth/me`.
 */
export type UserFields = Readonly<Record<string, { kind: ColumnKind; scale?: number }>>;

/** The project's user fields of a user's row, each output as a record's field is. */
export function userFieldValues(fields: UserFields, user: object): Record<string, unknown> {
  const values = user as Record<string, unknown>;
  const output: Record<string, unknown> = {};
  // A decimal's scale is omitted when it is 0, as in records' declarations (src/auth/user-fields.ts).
  for (const [field, { kind, scale = 0 }] of Object.entries(fields)) {
    const value = values[field] ?? null;
    const convert = outputOf(kind, scale);
    output[field] = value === null || !convert ? value : convert(value);
  }
  return output;
}

export interface CurrentUser {
  id: number;
  hash: string;
  name: string;
  email: string;
  /**
   * One of hashapi.yaml's `auth.roles` (`user` when it lists none), read with every request, so a
   * change takes effect on the next one. A role since removed from the specs is no role at all:
   * every action limited to roles refuses it.
   */
  role: string;
  /** With hashapi.yaml's `auth.mfa`: whether the user has a second factor set up. */
  secondFactor?: boolean;
  /**
   * With tenancy: the tenant the request works in (its X-Tenant header), when the user is a member
   * of it or a bypass role; read in the same statement as the user (auth/memberships.ts).
   */
  tenant?: ActiveTenant;
  /** With tenancy: the request named a tenant the user may not work in (403 on a tenant's routes). */
  foreignTenant?: true;
  /**
   * Set inside a tenant's routes only: `role` is then the user's role in the tenant (tenancy.roles)
   * and this the platform role (auth.roles) it replaced (http/tenant-routes.ts).
   */
  platformRole?: string;
}

export type { ActiveTenant };

/**
 * What hashapi.yaml's and the resources' `rateLimit` do for the routes a caller signs in to: the
 * HTTP layer's RequestLimits (http/request-limits.ts), declared here so that identity, below HTTP,
 * imports nothing of it.
 */
export interface CallerLimits {
  /** Counts a request against its caller's limit (throws TooManyRequests past it). */
  caller(req: Request): Promise<void>;
  /** Whether the route `name` (`<collection>.<action>`) has a limit of its own. */
  limitsRoute(name: string): boolean;
  /** Counts a request against the route's own limit. */
  route(name: string, req: Request): Promise<void>;
  /** The bytes the caller may still upload (`uploadMegabytes`; undefined: no limit); 429 at none. */
  uploadAllowance(req: Request): Promise<number | undefined>;
  /** Counts what the caller uploaded. */
  uploaded(req: Request, bytes: number): Promise<void>;
}

export class AuthService {
  /** The per-request read of the user and the token's revocation, built once (its columns come from the specs). */
  private readonly liveUserText: string;
  /** Login's read of the user: with `auth.mfa`, whether they have a second factor too (one read). */
  private readonly loginText: string;
  /**
   * hashapi.yaml's `rateLimit` (http/request-limits.ts), checked for every caller a route signs in
   * (http/authenticate.ts): what the HTTP layer above hands in, so identity imports nothing of it.
   */
  requestLimits: CallerLimits | undefined;
  /** With tenancy: who works in which tenant (auth/memberships.ts). */
  readonly memberships: Memberships | undefined;

  /** DATABASE_REPLICA_URLS: where the reads of a GET may go (http/authenticate.ts). */
  get replicas(): ReadRouting | undefined {
    return this.db.replicas;
  }

  constructor(
    private readonly db: Database,
    private readonly jwt: JwtSettings,
    private readonly revocations: Revocations,
    private readonly throttle: LoginThrottle,
    readonly sessions: Sessions,
    readonly userFields: UserFields = {},
    /** hashapi.yaml's `auth.mfa` (auth/second-factor.ts); undefined: no second factor. */
    readonly secondFactor?: SecondFactor,
    /** hashapi.yaml's `tenancy` (auth/memberships.ts); undefined: no tenants. */
    readonly tenancy?: TenancySettings,
  ) {
    this.memberships = tenancy ? new Memberships(db, tenancy) : undefined;
    const extra = Object.keys(userFields).map(
      (name) => `, "users"."${name.replaceAll('"', '""')}"`,
    );
    // Built once: each verification binds its token's values in this order (see `liveUser`).
    const order = new Binder(db.dialect);
    const [jti, sid] = [order.add("claims.jti"), order.add("claims.sid")];
    // With tenancy, the tenant the request names and the user's membership there, joined in.
    const tenant = tenancy ? tenantJoin(tenancy, order.add("tenant")) : { columns: "", joins: "" };
    const hash = order.add("claims.sub");
    // With read replicas, the caller's last write too (its event id): what a replica must hold
    // before it answers this caller's reads (db/replicas.ts). One index lookup in the same statement.
    const lastEvent = db.replicas
      ? `, (SELECT "e"."id" FROM "hashapi_events" AS "e" WHERE "e"."actor_hash" = "users"."hash" ORDER BY "e"."id" DESC LIMIT 1) AS "last_event"`
      : "";
    // With `auth.mfa`, whether the user has a second factor: a role that requires one reaches only
    // the enrolment routes until it does (http/authenticate.ts).
    const mfa = secondFactor ? `, "users"."mfa_enabled_at"` : "";
    this.loginText = `SELECT "id", "hash", "password"${mfa} FROM "users" WHERE "email" = ${new Binder(db.dialect).add("email")} LIMIT 1`;
    this.liveUserText = `SELECT "users"."id", "users"."hash", "users"."name", "users"."email", "users"."role", "users"."sessions_from"${mfa}${extra.join("")}, EXISTS (SELECT 1 FROM "revoked_tokens" WHERE "jti" = ${jti}) AS "revoked", EXISTS (SELECT 1 FROM "hashapi_sessions" WHERE "hash" = ${sid} AND "ended_at" IS NOT NULL) AS "ended"${tenant.columns}${lastEvent} FROM "users"${tenant.joins} WHERE "users"."hash" = ${hash} LIMIT 1`;
  }

  async login(
    email: string,
    password: string,
    client: { ip: string; userAgent: string | undefined },
  ): Promise<IssuedToken | MfaChallenge> {
    // Counted before the slow hash, so that parallel attempts cannot all pass the check.
    const attempt = await this.throttle.attempt(email, client.ip);
    const user = (await this.db.get(this.loginText, [email.toLowerCase()])) as
      { id: number; hash: string; password: string; mfa_enabled_at?: unknown } | undefined;
    // Unknown e-mails are verified against a dummy hash: both paths cost one scrypt (bounded per
    // process with every other hash: base/passwords.ts).
    const valid = await verifyPassword(password, user?.password ?? null);
    if (!user || !valid) throw new InvalidCredentials();
    await this.throttle.succeeded(attempt);
    const id = Number(user.id);
    // A user with a second factor gets a challenge, never a session: /api/auth/mfa/verify trades it.
    if (this.secondFactor && user.mfa_enabled_at !== null)
      return mfaChallenge(this.db, { id, email: email.toLowerCase() });
    return this.startSession({ id, hash: user.hash }, client);
  }

  /** A new session for a user who proved who they are: its first token. */
  async startSession(
    user: { id: number; hash: string },
    client: { ip: string | undefined; userAgent: string | undefined },
  ): Promise<IssuedToken> {
    const sid = await this.sessions.start(user.id, client, this.jwt.refreshTtlSeconds);
    return issueToken(this.jwt, user.hash, sid);
  }

  /** The user behind a valid, unrevoked token of an existing user; Unauthenticated otherwise. */
  async authenticate(
    token: string,
    /** With tenancy: the tenant the request names (its X-Tenant header). */
    tenantHash?: string,
  ): Promise<{ user: CurrentUser; claims: TokenClaims; lastEvent: number | undefined }> {
    const claims = readToken(this.jwt, token);
    if (!claims) throw new Unauthenticated();
    const { user, lastEvent } = await this.readUser(claims, tenantHash);
    return { user, claims, lastEvent };
  }

  /** A new token for a token (possibly expired) still inside the refresh window; the old one is revoked. */
  async refresh(token: string): Promise<IssuedToken> {
    const claims = readToken(this.jwt, token, true);
    const now = Math.floor(Date.now() / 1000);
    if (!claims || claims.auth_time + this.jwt.refreshTtlSeconds <= now)
      throw new Unauthenticated();
    const user = await this.liveUser(claims);
    if (!(await this.revocations.revoke(claims.jti, this.usableUntil(claims))))
      throw new Unauthenticated();
    // A token of before sessions were kept starts one: from then on it can be listed and ended.
    const sid =
      claims.sid === ""
        ? await this.sessions.start(
            user.id,
            { ip: undefined, userAgent: undefined },
            this.jwt.refreshTtlSeconds,
          )
        : claims.sid;
    if (claims.sid !== "") await this.sessions.touch(sid);
    return issueToken(this.jwt, user.hash, sid, claims.auth_time);
  }

  /**
   * Revokes the token. Logout and refresh decide through the same one-row insert: whichever comes
   * second finds the token revoked and answers 401, so a logout that answered 200 leaves no token
   * derived from it working (a refresh that won came first, and its new token is not this one's).
   */
  async logout(user: CurrentUser, claims: TokenClaims): Promise<void> {
    if (!(await this.revocations.revoke(claims.jti, this.usableUntil(claims))))
      throw new Unauthenticated();
    if (claims.sid !== "") await this.sessions.end(user.id, claims.sid);
  }

  private async liveUser(claims: TokenClaims): Promise<CurrentUser> {
    return (await this.readUser(claims)).user;
  }

  private async readUser(
    claims: TokenClaims,
    tenantHash?: string,
  ): Promise<{ user: CurrentUser; lastEvent: number | undefined }> {
    // One statement answers every per-request question: does the user still exist, is this token
    // revoked, and (with tenancy) does the user work in the tenant the request names?
    const values = this.tenancy
      ? [claims.jti, claims.sid, tenantHash ?? "", claims.sub]
      : [claims.jti, claims.sid, claims.sub];
    const row = await this.db.get(this.liveUserText, values);
    // EXISTS is 1/0 on SQLite and true/false on PostgreSQL.
    const yes = (value: unknown) => value === 1 || value === true;
    if (!row || yes(row.revoked) || yes(row.ended)) throw new Unauthenticated();
    // Issued before the user's password last changed: that ended the session.
    const sessionsFrom = decodedInstant(row.sessions_from, this.db.dialect);
    if (sessionsFrom !== null && claims.issuedAtMs < sessionsFrom.getTime())
      throw new Unauthenticated();
    const user = {
      id: Number(row.id),
      hash: String(row.hash),
      name: String(row.name),
      email: String(row.email),
      role: String(row.role),
      ...(this.secondFactor ? { secondFactor: row.mfa_enabled_at !== null } : {}),
      ...Object.fromEntries(
        Object.entries(this.userFields).map(([name, { kind }]) => [
          name,
          decodeValue(kind, row[name], this.db.dialect),
        ]),
      ),
    };
    if (this.tenancy && tenantHash !== undefined)
      Object.assign(user, activeTenant(this.tenancy, row, tenantHash, user.role));
    const lastEvent =
      row.last_event === null || row.last_event === undefined ? undefined : Number(row.last_event);
    return { user, lastEvent };
  }

  /** The user as `/api/auth/me` shows it: public id, name, e-mail, role and the project's user fields. */
  publicUser(user: CurrentUser): Record<string, unknown> {
    const { hash, name, email, role } = user;
    return { hash, name, email, role, ...userFieldValues(this.userFields, user) };
  }

  /** A token stays refreshable until its refresh window closes, so its revocation must last as long. */
  private usableUntil(claims: TokenClaims): Date {
    return new Date(Math.max(claims.exp, claims.auth_time + this.jwt.refreshTtlSeconds) * 1000);
  }
}

export class InvalidCredentials extends Unauthenticated {}

/**
 * The per-request statement's part for tenancy: the tenant the request names (live), and the
 * user's membership there. Bound where `placeholder` is, between the token's values and the user's.
 */
function tenantJoin(
  tenancy: TenancySettings,
  placeholder: string,
): { columns: string; joins: string } {
  const live = tenancy.softDelete ? ` AND "t"."deleted_at" IS NULL` : "";
  return {
    columns: `, "t"."id" AS "tenant_id", "m"."role" AS "tenant_role"`,
    joins: ` LEFT JOIN ${quote(tenancy.table)} AS "t" ON "t"."hash" = ${placeholder}${live} LEFT JOIN "hashapi_memberships" AS "m" ON "m"."tenant_id" = "t"."id" AND "m"."user_id" = "users"."id"`,
  };
}

/**
 * The tenant a request works in: the one it names, for a bypass role (as the first role, member or
 * not) or a member (their role there); else `foreignTenant`, which a tenant's routes refuse with
 * the same 403 whether the tenant exists or not.
 */
function activeTenant(
  tenancy: TenancySettings,
  row: Record<string, unknown>,
  hash: string,
  platformRole: string,
): Pick<CurrentUser, "tenant" | "foreignTenant"> {
  if (row.tenant_id === null || row.tenant_id === undefined) return { foreignTenant: true };
  const id = Number(row.tenant_id);
  // A bypass role acts as the first role in every tenant, a membership of its own or not.
  if (tenancy.bypass.includes(platformRole))
    return { tenant: { id, hash, role: tenancy.roles[0]!, bypass: true } };
  if (typeof row.tenant_role === "string" && tenancy.roles.includes(row.tenant_role))
    return { tenant: { id, hash, role: row.tenant_role, bypass: false } };
  return { foreignTenant: true };
}
