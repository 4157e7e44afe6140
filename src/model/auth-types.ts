/** hashapi.yaml's `auth` and `mail`, as the generated project applies them (see types.ts). */

export interface AuthModel {
  ttl: number;
  refreshTtl: number;
  /** Most privileged first; `[user]` when hashapi.yaml lists none. */
  roles: string[];
  defaultRole: string;
  /** hashapi.yaml lists the roles (else every user has the one role `user`). */
  declaresRoles: boolean;
  /** `auth.signup`: POST /api/auth/register, the role it gives, and whether the address is confirmed first. */
  signup?: { role: string; verify: boolean };
  /** `auth.mfa`: two-factor authentication (TOTP and recovery codes); undefined: none. */
  mfa?: { required: string[]; optional: boolean };
  /** `auth.passwords`: the fewest characters of a new password. */
  passwords: { min: number };
  /** How long the mailed links work, in minutes. */
  tokens: { signupMinutes: number; resetMinutes: number; invitationDays: number };
  /** `auth.invitations`: roles that may invite; undefined: no invitations. */
  invitations?: string[];
  /**
   * The invitations table, its mails and the accept and join routes: with `auth.invitations`, or
   * with `tenancy` and `mail` (a tenant's managers invite into it).
   */
  acceptsInvitations: boolean;
  /** The platform roles that invite to the platform (`auth.invitations`); none without it. */
  inviters: string[];
}

/** hashapi.yaml's `mail`, as src/config.ts reads it at start-up. */
export interface MailModel {
  from: string;
  /** The environment variable holding the transport's URL, or the literal transport. */
  transport: { env: string } | { literal: string };
  links: { verifyEmail: string; resetPassword: string; acceptInvitation: string; confirmEmail: string };
  limits: { perEmail: number; perClient: number; windowSeconds: number };
}
