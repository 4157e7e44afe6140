// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { sql, type Sql } from "../db/sql.js";
import type { RenderedMail } from "../mail/message.js";
import { issueAccountToken, pendingSignup, type TokenPurpose } from "../auth/account-tokens.js";
import type { TenancySettings } from "../auth/memberships.js";
import { invitationLink, invitationTenant } from "./invitation-links.js";

/*
 * The mails of the account flows, composed when the mail job runs, not when the request is
 * answered: the request only enqueues `{ kind, email }`, the same work whether or not the address
 * has an account, and the job looks the account up, issues the token (so no token ever sits in the
 * queue) and renders the project's template (src/custom/mail/, yours).
 */

export type AccountMailJob =
  /** A sign-up to confirm: its name and password hash wait in the token until the link is followed. */
  | { kind: "signup"; email: string; name: string; password: string }
  /** Another confirmation link for the address's pending sign-up, if it has one. */
  | { kind: "resend"; email: string }
  /** A sign-up that needed no confirmation, or one that was just confirmed. */
  | { kind: "welcome"; email: string }
  /** Someone signed up with an address that has an account: its owner is told, nothing else. */
  | { kind: "account-exists"; email: string }
  /** A password reset link, if the address has an account. */
  | { kind: "reset"; email: string }
  /** The password was changed by a reset: the owner is told. */
  | { kind: "password-changed"; email: string }
  /** A change of address asked for: the link goes to the new one (unless it has an account). */
  | { kind: "email-change"; email: string; user: string }
  /** The address was changed: the old one is told. */
  | { kind: "email-changed"; email: string; newEmail: string; name: string }
  /** An invitation's link (or, to an address that has an account, a notice). */
  | { kind: "invitation"; email: string; invitation: string };

export const accountMailKinds: readonly AccountMailJob["kind"][] = [
  "signup",
  "resend",
  "welcome",
  "account-exists",
  "reset",
  "password-changed",
  "invitation",
  "email-change",
  "email-changed",
];

/** What a template with a link is given. */
export interface LinkMailInput {
  readonly appName: string;
  readonly name: string;
  readonly email: string;
  /** The page of your front end that takes the token (hashapi.yaml `mail.links`), with `?token=`. */
  readonly link: string;
  readonly expiresAt: Date;
}

/** What a notice is given. */
export interface NoticeMailInput {
  readonly appName: string;
  readonly name: string;
  readonly email: string;
}

/** What an invitation's mail is given. */
export interface InvitationMailInput extends LinkMailInput {
  /** The role the account will have. */
  readonly role: string;
  /** The name of the user who invited, if they still have an account. */
  readonly invitedBy: string | null;
}

/** What the mail of an invitation into a tenant is given. */
export interface TenantInvitationMailInput extends InvitationMailInput {
  /** The tenant's name (or public id), as hashapi.yaml's tenant resource lets every member read it. */
  readonly tenant: string;
  /** The address has an account: the link joins the tenant once its owner is signed in. */
  readonly hasAccount: boolean;
}

/** The account mails' templates, one per file of src/custom/mail/ (yours). */
export interface AccountMailTemplates {
  invitation?(input: InvitationMailInput): RenderedMail;
  tenantInvitation?(input: TenantInvitationMailInput): RenderedMail;
  confirmEmail(input: LinkMailInput): RenderedMail;
  emailChanged(input: NoticeMailInput & { newEmail: string }): RenderedMail;
  invitationToMember?(input: NoticeMailInput & { invitedBy: string | null }): RenderedMail;
  verifyEmail(input: LinkMailInput): RenderedMail;
  resetPassword(input: LinkMailInput): RenderedMail;
  welcome(input: NoticeMailInput): RenderedMail;
  accountExists(input: NoticeMailInput): RenderedMail;
  passwordChanged(input: NoticeMailInput): RenderedMail;
}

/** The tokens a mail carries (a login's second-factor challenge is answered, never mailed). */
type MailedPurpose = Exclude<TokenPurpose, "mfa">;

export interface AccountMailSettings {
  readonly appName: string;
  /** Where links start when a link's path is not a whole URL: APP_URL (or the local address). */
  readonly appUrl: string;
  readonly links: {
    readonly verifyEmail: string;
    readonly resetPassword: string;
    readonly acceptInvitation?: string;
    readonly confirmEmail: string;
  };
  /** How long each token lasts, in minutes. */
  readonly tokenMinutes: Readonly<Record<MailedPurpose, number>>;
}

/** A link to `page` carrying `token`: the page joined to APP_URL unless it is a whole URL. */
export function tokenLink(appUrl: string, page: string, token: string): string {
  const base = /^https?:\/\//.test(page)
    ? page
    : `${appUrl}${page.startsWith("/") ? "" : "/"}${page}`;
  return `${base}${base.includes("?") ? "&" : "?"}token=${token}`;
}

export class AccountMails {
  constructor(
    private readonly db: Sql,
    private readonly templates: AccountMailTemplates,
    private readonly settings: AccountMailSettings,
    private readonly tenancy?: TenancySettings,
  ) {}

  /** The mail a job asks for, or undefined when there is none to send (an address without an account). */
  async compose(job: AccountMailJob): Promise<(RenderedMail & { to: string }) | undefined> {
    const { appName } = this.settings;
    const email = job.email;
    switch (job.kind) {
      case "signup": {
        const link = await this.link("signup", { email, name: job.name, password: job.password });
        return {
          to: email,
          ...this.templates.verifyEmail({ appName, name: job.name, email, ...link }),
        };
      }
      case "resend": {
        if (await this.account(email)) return undefined;
        const pending = await pendingSignup(this.db, email);
        if (!pending) return undefined;
        const link = await this.link("signup", pending);
        return {
          to: email,
          ...this.templates.verifyEmail({ appName, name: pending.name!, email, ...link }),
        };
      }
      case "reset": {
        const account = await this.account(email);
        if (!account) return undefined;
        const link = await this.link("reset", { email, userId: account.id });
        return {
          to: email,
          ...this.templates.resetPassword({ appName, name: account.name, email, ...link }),
        };
      }
      case "invitation":
        return this.invitation(job.invitation, email);
      case "email-change":
        return this.emailChange(job.user, email);
      case "email-changed":
        return {
          to: email,
          ...this.templates.emailChanged({
            appName,
            name: job.name,
            email,
            newEmail: job.newEmail,
          }),
        };
      default: {
        const account = await this.account(email);
        if (!account) return undefined;
        const notice = { appName, name: account.name, email };
        const template =
          job.kind === "welcome"
            ? this.templates.welcome
            : job.kind === "account-exists"
              ? this.templates.accountExists
              : this.templates.passwordChanged;
        return { to: email, ...template(notice) };
      }
    }
  }

  /** The link to a new address; nothing when the address has an account (never moved onto). */
  private async emailChange(
    userHash: string,
    email: string,
  ): Promise<(RenderedMail & { to: string }) | undefined> {
    if (await this.account(email)) return undefined;
    const user = await this.db.get(
      sql`SELECT "id", "name" FROM "users" WHERE "hash" = ${userHash}`,
    );
    if (!user) return undefined;
    const link = await this.link("email", { email, userId: Number(user.id) });
    const { appName } = this.settings;
    return {
      to: email,
      ...this.templates.confirmEmail({ appName, name: String(user.name), email, ...link }),
    };
  }

  /**
   * An invitation's link, or the notice to an address that has an account by now. An invitation
   * into a tenant always carries its link: an account joins with it once signed in.
   */
  private async invitation(
    hash: string,
    email: string,
  ): Promise<(RenderedMail & { to: string }) | undefined> {
    const { appName } = this.settings;
    const account = await this.account(email);
    const tenant = this.tenancy ? await invitationTenant(this.db, hash, this.tenancy) : null;
    if (account && tenant === null) {
      const row = await this.db.get(
        sql`SELECT "u"."name" FROM "hashapi_invitations" AS "i" JOIN "users" AS "u" ON "u"."id" = "i"."invited_by" WHERE "i"."hash" = ${hash}`,
      );
      const invitedBy = row ? String(row.name) : null;
      return {
        to: email,
        ...this.templates.invitationToMember!({ appName, name: account.name, email, invitedBy }),
      };
    }
    const pending = await invitationLink(this.db, hash);
    if (!pending) return undefined;
    const link = tokenLink(
      this.settings.appUrl,
      this.settings.links.acceptInvitation ?? "/invitation",
      pending.token,
    );
    const input = {
      appName,
      name: account?.name ?? "",
      email,
      link,
      expiresAt: pending.expiresAt,
      role: pending.role,
      invitedBy: pending.inviter,
    };
    const mail =
      tenant === null
        ? this.templates.invitation!(input)
        : this.templates.tenantInvitation!({ ...input, tenant, hasAccount: account !== undefined });
    return { to: email, ...mail };
  }

  private async account(email: string): Promise<{ id: number; name: string } | undefined> {
    const row = await this.db.get(
      sql`SELECT "id", "name" FROM "users" WHERE "email" = ${email} LIMIT 1`,
    );
    return row ? { id: Number(row.id), name: String(row.name) } : undefined;
  }

  private async link(
    purpose: MailedPurpose,
    data: Parameters<typeof issueAccountToken>[2],
  ): Promise<{ link: string; expiresAt: Date }> {
    const minutes = this.settings.tokenMinutes[purpose];
    const expiresAt = new Date(Date.now() + minutes * 60_000);
    const token = await issueAccountToken(this.db, purpose, data, minutes);
    const page =
      purpose === "signup" ? this.settings.links.verifyEmail : this.settings.links.resetPassword;
    return { link: tokenLink(this.settings.appUrl, page, token), expiresAt };
  }
}
