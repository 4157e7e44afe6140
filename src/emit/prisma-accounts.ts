import { tenantColumn } from "../model/declaration.js";
import type { DatabaseModel } from "../model/types.js";
import { modelBlock, native } from "./prisma-blocks.js";

/*
 * The models of the account flows (runtime accounts/ and auth/): sessions always, the rest when
 * hashapi.yaml declares mail, a second factor or invitations. hashapi's own, so their names are
 * prefixed: a project may have a Session or an Invitation of its own.
 */

/** A login and its refreshes (runtime auth/sessions.ts): listed and ended one by one by its owner. */
export function sessionsModel(database: DatabaseModel): string {
  const timestamp = native(database, "@db.Timestamptz(3)");
  return modelBlock(
    "HashapiSession",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["hash", "String", `@unique${native(database, "@db.VarChar(20)")}`],
      ["user_id", "Int", ""],
      ["user_agent", "String?", native(database, "@db.VarChar(255)").trim()],
      ["ip", "String?", native(database, "@db.VarChar(64)").trim()],
      ["created_at", "DateTime", timestamp.trim()],
      ["last_used_at", "DateTime", timestamp.trim()],
      ["expires_at", "DateTime", timestamp.trim()],
      ["ended_at", "DateTime?", timestamp.trim()],
    ],
    ["@@index([user_id])", "@@index([expires_at])", '@@map("hashapi_sessions")'],
  );
}

/**
 * auth.invitations (runtime accounts/invitations.service.ts): pending until accepted, revoked or
 * expired; the digest of the link its last mail carried. With tenancy, a tenant's invitations
 * carry its id (the platform's none), and go with the tenant.
 */
export function invitationsModel(database: DatabaseModel, tenants: string | undefined): string {
  const timestamp = native(database, "@db.Timestamptz(3)").trim();
  const tenant = tenants === undefined ? [] : [[tenantColumn, "Int?", ""], ["tenant", `${tenants}?`, `@relation(fields: [${tenantColumn}], references: [id], onDelete: Cascade)`]];
  return modelBlock(
    "HashapiInvitation",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["hash", "String", `@unique${native(database, "@db.VarChar(20)")}`],
      ["email", "String", native(database, "@db.VarChar(255)").trim()],
      ["role", "String", native(database, "@db.VarChar(40)").trim()],
      ["invited_by", "Int?", ""],
      ["digest", "String?", `@unique${native(database, "@db.VarChar(64)")}`],
      ["created_at", "DateTime", timestamp],
      ["expires_at", "DateTime", timestamp],
      ["accepted_at", "DateTime?", timestamp],
      ["revoked_at", "DateTime?", timestamp],
      ...tenant,
    ],
    ["@@index([expires_at])", ...(tenants === undefined ? [] : [`@@index([${tenantColumn}])`]), '@@map("hashapi_invitations")'],
  );
}

/** auth.mfa's recovery codes: a keyed digest each, spent by the DELETE that finds it (runtime auth/second-factor.ts). */
export function recoveryCodesModel(): string {
  return modelBlock(
    "HashapiRecoveryCode",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["user_id", "Int", ""],
      ["digest", "String", ""],
    ],
    ["@@index([user_id, digest])", '@@map("hashapi_recovery_codes")'],
  );
}

/**
 * The account flows' single-use tokens (runtime accounts/account-tokens.ts): a digest, never the
 * token; a sign-up's name and password hash until its address is confirmed. No foreign key: a
 * reset's link names its user by id and e-mail, and is void once either changed.
 */
export function accountTokensModel(database: DatabaseModel): string {
  const timestamp = native(database, "@db.Timestamptz(3)").trim();
  return modelBlock(
    "HashapiAccountToken",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["digest", "String", `@unique${native(database, "@db.VarChar(64)")}`],
      ["purpose", "String", native(database, "@db.VarChar(20)").trim()],
      ["user_id", "Int?", ""],
      ["email", "String", native(database, "@db.VarChar(255)").trim()],
      ["name", "String?", native(database, "@db.VarChar(255)").trim()],
      ["password", "String?", native(database, "@db.VarChar(255)").trim()],
      ["expires_at", "DateTime", timestamp],
      ["created_at", "DateTime", timestamp],
    ],
    ["@@index([email, purpose])", "@@index([expires_at])", '@@map("hashapi_account_tokens")'],
  );
}
