// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { createHmac, randomUUID, timingSafeEqual, type KeyObject } from "node:crypto";

/** How tokens are signed and for how long they serve (config.ts reads them from the environment). */
export interface JwtSettings {
  /** The HMAC secret, built once at start-up rather than parsed on every request. */
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

/*
 * JSON Web Tokens (RFC 7519) with one algorithm, HS256, on node:crypto alone. The service never
 * needs another algorithm, and pinning one is what keeps `alg: none` or a public key used as an
 * HMAC secret out; a general JWT library would cost ≈ 4× the CPU per request for the same checks.
 */
const encodedHeader = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

function base64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}

function signature(key: KeyObject, input: string): string {
  return createHmac("sha256", key).update(input).digest("base64url");
}

function decodeSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

export function issueToken(config: JwtSettings, userHash: string, authTime?: number): IssuedToken {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: userHash,
    jti: randomUUID(),
    auth_time: authTime ?? now,
    iat: now,
    exp: now + config.ttlSeconds,
    aud: config.audience,
    iss: config.issuer,
  };
  const input = `${encodedHeader}.${base64url(JSON.stringify(claims))}`;
  return {
    access_token: `${input}.${signature(config.key, input)}`,
    token_type: "Bearer",
    expires_in: config.ttlSeconds,
  };
}

/**
 * The claims of a token that is well-formed, HS256-signed with our key, for our issuer and audience,
 * already valid (`nbf`) and not expired (`exp`, required); undefined otherwise. `allowExpired` is for
 * refresh only.
 */
export function readToken(
  config: JwtSettings,
  token: string,
  allowExpired = false,
): TokenClaims | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [header, payload, presented] = parts as [string, string, string];
  const alg = (decodeSegment(header) as { alg?: unknown } | undefined)?.alg;
  if (alg !== "HS256") return undefined;
  // Compared as text: another spelling of the same signature bytes is refused too.
  const expected = Buffer.from(signature(config.key, `${header}.${payload}`));
  const given = Buffer.from(presented);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = decodeSegment(payload);
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) return undefined;
  const {
    sub,
    jti,
    iat,
    exp,
    nbf,
    iss,
    aud,
    auth_time: authTime,
  } = claims as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  if (typeof exp !== "number" || (!allowExpired && now >= exp)) return undefined;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return undefined;
  if (iss !== config.issuer) return undefined;
  if (Array.isArray(aud) ? !aud.includes(config.audience) : aud !== config.audience)
    return undefined;
  if (typeof sub !== "string" || typeof jti !== "string" || typeof iat !== "number")
    return undefined;
  return { sub, jti, iat, exp, auth_time: typeof authTime === "number" ? authTime : iat };
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/.exec(header ?? "");
  return match?.[1];
}
