// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ApiFailure, Result } from "./result.js";
import type { Transport } from "./transport.js";

/** What login and refresh answer: the token the client keeps from then on. */
export interface Session {
  readonly access_token: string;
  readonly token_type: "Bearer";
  /** Seconds. */
  readonly expires_in: number;
}

export interface Credentials {
  readonly email: string;
  readonly password: string;
}

/** One of the caller's sessions (a login and its refreshes). */
export interface SessionInfo {
  readonly hash: string;
  readonly created_at: string;
  readonly last_used_at: string;
  readonly user_agent: string | null;
  readonly ip: string | null;
  /** The session of the client's own token. */
  readonly current: boolean;
}

/** A login whose user has a second factor (hashapi.yaml `auth.mfa`): trade it with `verifyMfa`. */
export interface MfaChallenge {
  readonly mfa_required: true;
  readonly mfa_token: string;
  /** Seconds. */
  readonly expires_in: number;
}

/** Keeps the token of an answer that carries one. */
export function keepingToken<Answer, Failure>(transport: Transport) {
  return (result: Result<Answer, Failure>) => {
    const data = result.data as { access_token?: unknown } | undefined;
    if (typeof data?.access_token === "string") transport.setToken(data.access_token);
    return result;
  };
}

/**
 * `/api/auth`: a successful login or refresh stores its token in the client; logout forgets it.
 * `Login` is what a login answers: a Session, or with `auth.mfa` also an MfaChallenge.
 */
export function authClient<Me, Login = Session>(transport: Transport) {
  const keep = keepingToken<Session, ApiFailure>(transport);
  return {
    async login(
      credentials: Credentials,
    ): Promise<Result<Login, ApiFailure<"email" | "password">>> {
      const answer = await transport.call<Login>("POST", "/api/auth/login", "data", credentials);
      return keepingToken<Login, ApiFailure<"email" | "password">>(transport)(answer);
    },
    me: (): Promise<Result<Me>> => transport.call<Me>("GET", "/api/auth/me", "bare"),
    async refresh(): Promise<Result<Session>> {
      return keep(await transport.call<Session>("POST", "/api/auth/refresh", "data"));
    },
    /** The caller's sessions still going, newest first. */
    sessions: (): Promise<Result<SessionInfo[]>> =>
      transport.call<SessionInfo[]>("GET", "/api/auth/sessions", "data"),
    /** Ends one of the caller's sessions (404 for one that is not theirs, or already ended). */
    endSession: (hash: string): Promise<Result<{ message: string }>> =>
      transport.call<{ message: string }>(
        "DELETE",
        `/api/auth/sessions/${encodeURIComponent(hash)}`,
        "message",
      ),
    async logout(): Promise<Result<{ message: string }>> {
      const result = await transport.call<{ message: string }>(
        "POST",
        "/api/auth/logout",
        "message",
      );
      if (result.error === undefined || result.error.status === 401) transport.setToken(undefined);
      return result;
    },
  };
}

/** The `/api/auth` routes, `me` typed by `Me`, a login's answer by `Login`. */
export type AuthRoutes<Me, Login = Session> = ReturnType<typeof authClient<Me, Login>>;
