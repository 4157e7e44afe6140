// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomBytes } from "node:crypto";
import { fieldError } from "../base/errors.js";
import { base32Encode, matchingStep, newTotpSecret, otpauthUrl } from "../base/totp.js";
import { issueAccountToken, pendingToken, spendToken } from "./account-tokens.js";
import { sql, type Database } from "../db/database.js";
import type { Sql } from "../db/sql.js";
import { confirmPassword, countTry } from "./password-confirmation.js";
import { Sessions } from "./sessions.js";
import type { SecretBox } from "./secret-box.js";

/*
 * Two-factor authentication (hashapi.yaml `auth.mfa`): a TOTP secret per user (sealed, see
 * secret-box.ts) and ten single-use recovery codes (stored as keyed digests). A code is used at
 * most once: the step it matched is written with a condition that it is newer than the last one
 * used (`mfa_last_step`), so of two requests with one code exactly one passes, decided by that
 * write; a recovery code is spent by the DELETE that finds it.
 */

/** hashapi.yaml's `auth.mfa`. */
export interface MfaSettings {
  /** Roles that must have a second factor: until they set one up, only the enrolment routes answer them. */
  readonly required: readonly string[];
  /** Whether every other role may set one up too. */
  readonly optional: boolean;
}

const recoveryCodeCount = 10;
const wrongCode = "The provided two factor authentication code was invalid.";
const expiredChallenge = "This sign-in has expired: sign in again.";

/** Whose second factor, as the routes know them. */
interface Holder {
  readonly id: number;
  readonly email: string;
  readonly role: string;
}

export class SecondFactor {
  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    readonly settings: MfaSettings,
    private readonly issuer: string,
  ) {}

  /** A role that must set a second factor up before anything but the enrolment routes. */
  requires(role: string): boolean {
    return this.settings.required.includes(role);
  }

  mayEnrol(role: string): boolean {
    return this.settings.optional || this.requires(role);
  }

  /** Starts a setup: a new secret, kept pending until a code of it is confirmed. */
  async setup(user: Holder, password: string): Promise<{ secret: string; otpauth_url: string }> {
    await this.checkPassword(user, password);
    const secret = newTotpSecret();
    await this.db.run(
      sql`UPDATE "users" SET "mfa_pending" = ${this.box.seal(secret)} WHERE "id" = ${user.id}`,
    );
    return { secret, otpauth_url: otpauthUrl(secret, this.issuer, user.email) };
  }

  /**
   * Confirms a pending setup with a code of its secret: the second factor is on, the user's other
   * sessions end (they were signed in without it), and the ten recovery codes are returned, once.
   */
  async confirm(user: Holder, code: string, currentSession: string): Promise<string[]> {
    await this.countTries(user.id);
    const row = await this.db.get(sql`SELECT "mfa_pending" FROM "users" WHERE "id" = ${user.id}`);
    const secret =
      typeof row?.mfa_pending === "string" ? this.box.open(row.mfa_pending) : undefined;
    if (secret === undefined)
      throw fieldError("code", "Start the setup of two-factor authentication first.");
    const step = matchingStep(secret, code);
    if (step === undefined) throw fieldError("code", wrongCode);
    const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
    const now = new Date();
    await this.db.transaction(async (tx) => {
      await tx.run(
        sql`UPDATE "users" SET "mfa_secret" = ${this.box.seal(secret)}, "mfa_pending" = NULL, "mfa_enabled_at" = ${now}, "mfa_last_step" = ${step}, "updated_at" = ${now} WHERE "id" = ${user.id}`,
      );
      await this.replaceRecoveryCodes(tx, user.id, codes);
      await Sessions.endAll(tx, user.id, currentSession);
    });
    return codes;
  }

  /** Turns the second factor off, with the password and a code (or a recovery code). */
  async disable(user: Holder, password: string, code: string): Promise<void> {
    await this.checkPassword(user, password);
    if (!(await this.check(this.db, user.id, code))) throw fieldError("code", wrongCode);
    await this.db.transaction(async (tx) => {
      await tx.run(
        sql`UPDATE "users" SET "mfa_secret" = NULL, "mfa_pending" = NULL, "mfa_enabled_at" = NULL, "mfa_last_step" = NULL WHERE "id" = ${user.id}`,
      );
      await tx.run(sql`DELETE FROM "hashapi_recovery_codes" WHERE "user_id" = ${user.id}`);
    });
  }

  /**
   * Whether `code` passes as the user's second factor now, and is used up by it: a TOTP code of a
   * step newer than the last one used, or one of their recovery codes (then spent).
   */
  async check(sql_: Sql, userId: number, code: string): Promise<boolean> {
    const typed = code.replace(/\s/g, "");
    if (/^\d{6}$/.test(typed)) {
      const row = await sql_.get(sql`SELECT "mfa_secret" FROM "users" WHERE "id" = ${userId}`);
      const secret =
        typeof row?.mfa_secret === "string" ? this.box.open(row.mfa_secret) : undefined;
      const step = secret === undefined ? undefined : matchingStep(secret, typed);
      if (step === undefined) return false;
      const used = await sql_.run(
        sql`UPDATE "users" SET "mfa_last_step" = ${step} WHERE "id" = ${userId} AND ("mfa_last_step" IS NULL OR "mfa_last_step" < ${step})`,
      );
      return used === 1;
    }
    const digest = this.box.digest(normalizedRecoveryCode(typed));
    const spent = await sql_.get(
      sql`DELETE FROM "hashapi_recovery_codes" WHERE "user_id" = ${userId} AND "digest" = ${digest} RETURNING "id"`,
    );
    return spent !== undefined;
  }

  /**
   * Trades a login's challenge and a code for the user it was issued to: the code is used up and
   * the challenge spent in one transaction (a wrong code spends neither: try again, 5 a minute).
   */
  async verifyLogin(mfaToken: string, code: string): Promise<{ id: number; hash: string }> {
    const pending = await pendingToken(this.db, "mfa", mfaToken);
    if (!pending) throw fieldError("mfa_token", expiredChallenge);
    await this.countTries(pending.userId);
    const outcome = await this.db.transaction(async (tx) => {
      if (!(await this.check(tx, pending.userId, code))) return "wrong code" as const;
      if (!(await spendToken(tx, "mfa", mfaToken))) return "spent" as const;
      const row = await tx.get(sql`SELECT "hash" FROM "users" WHERE "id" = ${pending.userId}`);
      return row ? { id: pending.userId, hash: String(row.hash) } : ("spent" as const);
    });
    if (outcome === "wrong code") throw fieldError("code", wrongCode);
    if (outcome === "spent") throw fieldError("mfa_token", expiredChallenge);
    return outcome;
  }

  /** Counts a try at a code or the password (5 a minute per user, whatever route): past it, 429. */
  countTries(userId: number): Promise<void> {
    return countTry(this.db, `mfa|${userId}`);
  }

  private checkPassword(user: Holder, password: string): Promise<void> {
    return confirmPassword(this.db, user.id, password, `mfa|${user.id}`);
  }

  private async replaceRecoveryCodes(
    tx: Sql,
    userId: number,
    codes: readonly string[],
  ): Promise<void> {
    await tx.run(sql`DELETE FROM "hashapi_recovery_codes" WHERE "user_id" = ${userId}`);
    for (const code of codes)
      await tx.run(
        sql`INSERT INTO "hashapi_recovery_codes" ("user_id", "digest") VALUES (${userId}, ${this.box.digest(normalizedRecoveryCode(code))})`,
      );
  }
}

/** XXXXX-XXXXX: 50 random bits in base32, easy to read out and type. */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, 10);
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

function normalizedRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z2-7]/g, "");
}

/** A login whose password was right, waiting for the second factor: trade `mfa_token` at /api/auth/mfa/verify. */
export interface MfaChallenge {
  readonly mfa_required: true;
  readonly mfa_token: string;
  readonly expires_in: number;
}

const challengeMinutes = 5;

/** The challenge of a login whose user has a second factor. */
export async function mfaChallenge(
  db: Sql,
  user: { id: number; email: string },
): Promise<MfaChallenge> {
  const token = await issueAccountToken(
    db,
    "mfa",
    { userId: user.id, email: user.email },
    challengeMinutes,
  );
  return { mfa_required: true, mfa_token: token, expires_in: challengeMinutes * 60 };
}
