// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { fieldError, TooManyRequests } from "../base/errors.js";
import { hashPassword } from "../base/passwords.js";
import { decodedInstant } from "../data/column-codec.js";
import { isUniqueViolation, sql, type Database } from "../db/database.js";
import { appendEvents } from "../data/outbox.js";
import { enqueueMail } from "../jobs/mail-job.js";
import { countAttempts } from "../auth/attempt-counters.js";
import { Sessions } from "../auth/sessions.js";
import { confirmPassword } from "../auth/password-confirmation.js";
import { passwordProblem, type PasswordPolicy } from "../auth/password-policy.js";
import type { AccountMailJob } from "./account-mails.js";
import { insertUser } from "./new-user.js";
import type { InvitationSettings } from "./invitations.service.js";
import { dropTokens, spendToken, type SpentToken } from "../auth/account-tokens.js";
import type { Sql } from "../db/sql.js";

/*
 * The account flows a person runs without a manager: sign-up and its confirmation, and the
 * password reset. Whether an address has an account never shows in an answer: the routes that
 * take an address answer the same status and body either way, and do the same work (a password
 * hash where one is sent, one lookup, one job): what differs happens in the mail job, after.
 */

/** hashapi.yaml's `auth.signup`, `auth.passwords` and `mail.limits`, as the flows apply them. */
export interface AccountSettings {
  /** `auth.signup`: the role a new account gets, and whether its address must be confirmed first. */
  readonly signup: { readonly role: string; readonly verify: boolean } | undefined;
  readonly passwords: PasswordPolicy;
  /** Mails a route may cause per window: per address asked about, and per client address. */
  readonly limits: {
    readonly perEmail: number;
    readonly perClient: number;
    readonly windowSeconds: number;
  };
  /** `auth.invitations`: who may invite, and how long an invitation lasts; undefined: none. */
  readonly invitations?: InvitationSettings;
}

export interface Registration {
  readonly name: string;
  readonly email: string;
  readonly password: string;
}

export class InvalidToken extends Error {}

export class AccountsService {
  constructor(
    private readonly db: Database,
    readonly settings: AccountSettings,
  ) {}

  /**
   * A sign-up. With `verify`, nothing is stored but the mail's job: the account is made when its
   * link is followed (so an address nobody confirmed never holds an account someone else chose
   * the password of); without, the account is made now. An address that has an account gets a
   * mail saying so instead.
   */
  async register(registration: Registration, client: string): Promise<void> {
    const signup = this.settings.signup!;
    const email = registration.email;
    const problem = passwordProblem(this.settings.passwords, registration.password, registration);
    if (problem) throw fieldError("password", problem);
    await this.countMail(email, client);
    const password = await hashPassword(registration.password);
    const name = registration.name;
    await this.db.transaction(async (tx) => {
      if (signup.verify) {
        const taken = await tx.get(
          sql`SELECT 1 AS "taken" FROM "users" WHERE "email" = ${email} LIMIT 1`,
        );
        await enqueueMail<AccountMailJob>(
          tx,
          taken ? { kind: "account-exists", email } : { kind: "signup", email, name, password },
        );
        return;
      }
      const created = await insertUser(tx, this.settings.signup!.role, { name, email, password });
      await enqueueMail<AccountMailJob>(tx, {
        kind: created ? "welcome" : "account-exists",
        email,
      });
    });
  }

  /** Follows a sign-up's link: the account is made, with the name and password it was asked for. */
  async verify(token: string): Promise<void> {
    const made = await this.db.transaction(async (tx) => {
      const spent = await spendToken(tx, "signup", token);
      if (!spent) return false;
      // Made meanwhile (another sign-up of the address followed first): this link is spent for nothing.
      if (
        !(await insertUser(tx, this.settings.signup!.role, {
          name: spent.name!,
          email: spent.email,
          password: spent.password!,
        }))
      )
        return false;
      await dropTokens(tx, "signup", spent.email);
      await enqueueMail<AccountMailJob>(tx, { kind: "welcome", email: spent.email });
      return true;
    });
    if (!made) throw new InvalidToken();
  }

  /** Another confirmation link, if the address has a sign-up waiting. */
  async resend(email: string, client: string): Promise<void> {
    await this.mailAbout({ kind: "resend", email }, client);
  }

  /** A reset a manager starts for a user (/api/users): counted against the address as any other. */
  async startReset(email: string, client: string): Promise<void> {
    await this.mailAbout({ kind: "reset", email }, client);
  }

  /** A reset link, if the address has an account. */
  async forgot(email: string, client: string): Promise<void> {
    await this.mailAbout({ kind: "reset", email }, client);
  }

  /**
   * Follows a reset's link: the new password replaces the old one, every session issued before
   * now ends, every other reset link of the account is void, and its owner is told.
   */
  async reset(token: string, password: string): Promise<void> {
    const problem = passwordProblem(this.settings.passwords, password);
    if (problem) throw fieldError("password", problem);
    const hashed = await hashPassword(password);
    const done = await this.db.transaction(async (tx) => {
      const spent = await spendToken(tx, "reset", token);
      if (!spent?.userId) return false;
      // A reset's link is for the address it was sent to: one changed since voids it too.
      const user = await accountOfLink(tx, spent);
      if (!user || user.email !== spent.email) return false;
      const now = new Date();
      await tx.run(
        sql`UPDATE "users" SET "password" = ${hashed}, "sessions_from" = ${now}, "updated_at" = ${now} WHERE "id" = ${spent.userId}`,
      );
      await Sessions.endAll(tx, spent.userId);
      await dropTokens(tx, "reset", spent.email);
      await enqueueMail<AccountMailJob>(tx, { kind: "password-changed", email: spent.email });
      return true;
    });
    if (!done) throw new InvalidToken();
  }

  /** Counts the mail, then enqueues its job: the same two statements whatever the address. */
  private async mailAbout(job: AccountMailJob, client: string): Promise<void> {
    await this.countMail(job.email, client);
    await enqueueMail(this.db, job);
  }

  /** Counts one mail against the address asked about and the client asking (429 past either). */
  async countMail(email: string, client: string): Promise<void> {
    const { perEmail, perClient, windowSeconds } = this.settings.limits;
    const wait = await countAttempts(
      this.db,
      [
        { key: `mail-to|${email}`, limit: perEmail },
        { key: `mail-from|${client}`, limit: perClient },
      ],
      windowSeconds,
    );
    if (wait > 0) throw new TooManyRequests(wait);
  }

  /**
   * Asks to move the account to `email`: the link goes to the new address (after the password is
   * checked again); nothing changes until it is followed. The same answer whether or not the new
   * address has an account (then nothing is sent).
   */
  async changeEmail(
    user: { id: number; hash: string },
    email: string,
    password: string,
    client: string,
  ): Promise<void> {
    await confirmPassword(this.db, user.id, password, `password|${user.id}`);
    await this.countMail(email, client);
    await enqueueMail<AccountMailJob>(this.db, { kind: "email-change", email, user: user.hash });
  }

  /**
   * Follows a change of address's link: the account takes the new address, every session ends
   * (sign in again with it), and the old address is told.
   */
  async confirmEmail(token: string): Promise<void> {
    const done = await this.db
      .transaction(async (tx) => {
        const spent = await spendToken(tx, "email", token);
        if (!spent?.userId) return false;
        const before = await accountOfLink(tx, spent);
        if (!before) return false;
        if (await tx.get(sql`SELECT 1 AS "taken" FROM "users" WHERE "email" = ${spent.email}`))
          return false;
        const now = new Date();
        await tx.run(
          sql`UPDATE "users" SET "email" = ${spent.email}, "sessions_from" = ${now}, "updated_at" = ${now} WHERE "id" = ${spent.userId}`,
        );
        const { hash, name, email } = before;
        await appendEvents(tx, { hash, name }, [
          { type: "user.updated", hash, changes: { email: [email, spent.email] } },
        ]);
        await Sessions.endAll(tx, spent.userId);
        await dropTokens(tx, "reset", email);
        await enqueueMail<AccountMailJob>(tx, {
          kind: "email-changed",
          email,
          newEmail: spent.email,
          name,
        });
        return true;
      })
      // The address taken in the meantime (its own unique index decides): the link is void.
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return false;
        throw error;
      });
    if (!done) throw new InvalidToken();
  }
}

/**
 * The account a spent link of a user was sent for (a reset, a change of address), unless the
 * account is gone or its password changed after the link was sent (another reset, a manager):
 * such a link is void.
 */
async function accountOfLink(
  tx: Sql,
  spent: SpentToken,
): Promise<{ hash: string; email: string; name: string } | undefined> {
  const row = await tx.get(
    sql`SELECT "hash", "email", "name", "sessions_from" FROM "users" WHERE "id" = ${spent.userId} LIMIT 1`,
  );
  if (!row) return undefined;
  const changedAt = decodedInstant(row.sessions_from, tx.dialect);
  if (changedAt !== null && changedAt > spent.createdAt) return undefined;
  return { hash: String(row.hash), email: String(row.email), name: String(row.name) };
}
