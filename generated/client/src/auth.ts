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

/** `/api/auth`: a successful login or refresh stores its token in the client; logout forgets it. */
export function authClient<Me>(transport: Transport) {
  const keep = (result: Result<Session, ApiFailure<"email" | "password">>) => {
    if (result.data !== undefined) transport.setToken(result.data.access_token);
    return result;
  };
  return {
    async login(
      credentials: Credentials,
    ): Promise<Result<Session, ApiFailure<"email" | "password">>> {
      return keep(await transport.call<Session>("POST", "/api/auth/login", "data", credentials));
    },
    me: (): Promise<Result<Me>> => transport.call<Me>("GET", "/api/auth/me", "bare"),
    async refresh(): Promise<Result<Session>> {
      return keep(await transport.call<Session>("POST", "/api/auth/refresh", "data"));
    },
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

/** The `/api/auth` routes, `me` typed by `Me`. */
export type AuthRoutes<Me> = ReturnType<typeof authClient<Me>>;
