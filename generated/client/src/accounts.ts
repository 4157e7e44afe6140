// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

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

export type PasswordResetRoutes = ReturnType<typeof passwordResetClient>;
export type SignupRoutes = ReturnType<typeof signupClient>;
export type VerificationRoutes = ReturnType<typeof verificationClient>;
