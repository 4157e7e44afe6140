// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomUUID, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";

/** How tokens are signed and for how long they serve (config.ts reads them from the environment). */
export interface JwtSettings {
  /** Built once (a KeyObject verifies in ≈ 9 µs, a string secret in ≈ 0.4 ms). */
  key: KeyObject;
  issuer: string;
  audience: string;
  ttlSeconds: number;
  refreshTtlSeconds: number;
}

export interface TokenClaims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
  /** When the first login of this chain of refreshes happened: the refresh window counts from it. */
  auth_time: number;
}

export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
}

// One algorithm, pinned: jsonwebtoken would otherwise accept HS384/HS512 signed with the same secret.
const algorithm = "HS256";

export function issueToken(config: JwtSettings, userHash: string, authTime?: number): IssuedToken {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: userHash,
    jti: randomUUID(),
    auth_time: authTime ?? now,
    iat: now,
    exp: now + config.ttlSeconds,
  };
  const token = jwt.sign(claims, config.key, {
    algorithm,
    issuer: config.issuer,
    audience: config.audience,
  });
  return { access_token: token, token_type: "Bearer", expires_in: config.ttlSeconds };
}

/**
 * The claims of a token that is well-formed, signed with our key and algorithm, for our issuer and
 * audience, with an `exp`; undefined otherwise. `allowExpired` is for refresh only.
 */
export function readToken(
  config: JwtSettings,
  token: string,
  allowExpired = false,
): TokenClaims | undefined {
  try {
    const payload = jwt.verify(token, config.key, {
      algorithms: [algorithm],
      issuer: config.issuer,
      audience: config.audience,
      ignoreExpiration: allowExpired,
    });
    if (typeof payload !== "object" || payload === null) return undefined;
    const { sub, jti, iat, exp, auth_time: authTime } = payload as Partial<TokenClaims>;
    if (
      typeof sub !== "string" ||
      typeof jti !== "string" ||
      typeof exp !== "number" ||
      typeof iat !== "number"
    )
      return undefined;
    return { sub, jti, iat, exp, auth_time: typeof authTime === "number" ? authTime : iat };
  } catch {
    return undefined;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/.exec(header ?? "");
  return match?.[1];
}
