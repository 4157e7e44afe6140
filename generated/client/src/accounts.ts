// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { keepingToken, type Session } from "./auth.js";
import type { ApiFailure, Result } from "./result.js";
import type { Transport } from "./transport.js";

/** What the account routes answer: a message, the same whether or not the address has an account. */
export interface Accepted {
  readonly message: string;
}

export interface Registration {
  readonly name: string;
  readonly email: string;
  readonly password: string;
}

/** `POST /api/auth/forgot-password` and `/reset-password` (a project with `mail:`). */
export function passwordResetClient(transport: Transport) {
  return {
    /** Mails a reset link if the address has an account (202 either way). */
    forgotPassword: (email: string): Promise<Result<Accepted, ApiFailure<"email">>> =>
      transport.call<Accepted>("POST", "/api/auth/forgot-password", "message", { email }),
    /** Sets a new password with a reset link's token; every earlier session ends. */
    resetPassword: (reset: {
      readonly token: string;
      readonly password: string;
    }): Promise<Result<Accepted, ApiFailure<"token" | "password">>> =>
      transport.call<Accepted>("POST", "/api/auth/reset-password", "message", reset),
    /** Asks to move the account to `email` (the password again): a link goes there. */
    changeEmail: (change: {
      readonly email: string;
      readonly password: string;
    }): Promise<Result<Accepted, ApiFailure<"email" | "password">>> =>
      transport.call<Accepted>("POST", "/api/auth/email", "message", change),
    /** Follows a change of address's link: every session ends; sign in with the new address. */
    confirmEmail: (token: string): Promise<Result<Accepted, ApiFailure<"token">>> =>
      transport.call<Accepted>("POST", "/api/auth/email/confirm", "message", { token }),
  };
}

/** `POST /api/auth/register` (a project with `auth.signup`). */
export function signupClient(transport: Transport) {
  return {
    /** Signs up: the account exists once its link is followed (`verify`), or at once (202 either way). */
    register: (
      registration: Registration,
    ): Promise<Result<Accepted, ApiFailure<"name" | "email" | "password">>> =>
      transport.call<Accepted>("POST", "/api/auth/register", "message", registration),
  };
}

/** `POST /api/auth/verify-email` and `/verify-email/resend` (`auth.signup.verify`). */
export function verificationClient(transport: Transport) {
  return {
    /** Follows a sign-up's link: its token makes the account. */
    verifyEmail: (token: string): Promise<Result<Accepted, ApiFailure<"token">>> =>
      transport.call<Accepted>("POST", "/api/auth/verify-email", "message", { token }),
    /** Mails another link for the address's waiting sign-up (202 either way). */
    resendVerification: (email: string): Promise<Result<Accepted, ApiFailure<"email">>> =>
      transport.call<Accepted>("POST", "/api/auth/verify-email/resend", "message", { email }),
  };
}

/** `/api/auth/mfa/*` (hashapi.yaml `auth.mfa`): a second factor set up, turned off, and a login's second step. */
export function secondFactorClient(transport: Transport) {
  return {
    /** Starts a setup (the password again): a secret and its otpauth:// URL for the app. */
    setupMfa: (
      password: string,
    ): Promise<Result<{ secret: string; otpauth_url: string }, ApiFailure<"password">>> =>
      transport.call("POST", "/api/auth/mfa/setup", "data", { password }),
    /** Confirms it with a code: the ten recovery codes, shown once. */
    confirmMfa: (code: string): Promise<Result<{ recovery_codes: string[] }, ApiFailure<"code">>> =>
      transport.call("POST", "/api/auth/mfa/confirm", "data", { code }),
    disableMfa: (
      password: string,
      code: string,
    ): Promise<Result<Accepted, ApiFailure<"password" | "code">>> =>
      transport.call<Accepted>("POST", "/api/auth/mfa/disable", "message", { password, code }),
    /** A login's second step: its challenge and a code (or a recovery code); the session is kept. */
    async verifyMfa(
      mfaToken: string,
      code: string,
    ): Promise<Result<Session, ApiFailure<"mfa_token" | "code">>> {
      const answer = await transport.call<Session>("POST", "/api/auth/mfa/verify", "data", {
        mfa_token: mfaToken,
        code,
      });
      return keepingToken<Session, ApiFailure<"mfa_token" | "code">>(transport)(answer);
    },
  };
}

/** A pending invitation. */
export interface Invitation {
  readonly hash: string;
  readonly email: string;
  readonly role: string;
  readonly invited_by: string | null;
  readonly created_at: string;
  readonly expires_at: string;
}

/** `/api/auth/invitations` (hashapi.yaml `auth.invitations`): `Role` is the project's roles. */
export function invitationsClient<Role extends string>(transport: Transport) {
  return {
    invitations: (): Promise<Result<Invitation[]>> =>
      transport.call<Invitation[]>("GET", "/api/auth/invitations", "data"),
    invite: (invitation: {
      readonly email: string;
      readonly role: Role;
    }): Promise<Result<Invitation, ApiFailure<"email" | "role">>> =>
      transport.call<Invitation>("POST", "/api/auth/invitations", "data", invitation),
    revokeInvitation: (hash: string): Promise<Result<Accepted>> =>
      transport.call<Accepted>(
        "DELETE",
        `/api/auth/invitations/${encodeURIComponent(hash)}`,
        "message",
      ),
    ...acceptanceClient(transport),
  };
}

/** `POST /api/auth/invitations/accept`: an invitation's link, followed by an address without an account. */
export function acceptanceClient(transport: Transport) {
  return {
    /** Accepts an invitation with its link's token: the account is made, and its session kept. */
    async acceptInvitation(acceptance: {
      readonly token: string;
      readonly name: string;
      readonly password: string;
    }): Promise<Result<Session, ApiFailure<"token" | "name" | "password">>> {
      const answer = await transport.call<Session>(
        "POST",
        "/api/auth/invitations/accept",
        "data",
        acceptance,
      );
      return keepingToken<Session, ApiFailure<"token" | "name" | "password">>(transport)(answer);
    },
  };
}

export type InvitationRoutes<Role extends string> = ReturnType<typeof invitationsClient<Role>>;
export type AcceptanceRoutes = ReturnType<typeof acceptanceClient>;
export type SecondFactorRoutes = ReturnType<typeof secondFactorClient>;
export type PasswordResetRoutes = ReturnType<typeof passwordResetClient>;
export type SignupRoutes = ReturnType<typeof signupClient>;
export type VerificationRoutes = ReturnType<typeof verificationClient>;
