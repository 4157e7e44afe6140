// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { isRecord } from "./records.js";
import { randomUUID, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";

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
  /**
   * When the token was issued, in milliseconds (the private claim `iat_ms`; `iat` × 1000 for a token
   * without it): a password change ends the sessions issued before it, even within the same second.
   */
  issuedAtMs: number;
  /** The session (a login and its refreshes, auth/sessions.ts) the token belongs to; "" for a token issued before sessions were kept. */
  sid: string;
}

export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
}

/*
 * JSON Web Tokens (RFC 7519) through jsonwebtoken, with one algorithm pinned (HS256), which keeps
 * `alg: none` or a public key used as an HMAC secret out. The key is a KeyObject built once at
 * start-up: jsonwebtoken then verifies in ≈ 9 µs instead of ≈ 0.4 ms for a string secret.
 */
const algorithm = "HS256";

export function issueToken(
  config: JwtSettings,
  userHash: string,
  sid: string,
  authTime?: number,
): IssuedToken {
  const instant = Date.now();
  const now = Math.floor(instant / 1000);
  const claims = {
    sub: userHash,
    jti: randomUUID(),
    sid,
    auth_time: authTime ?? now,
    iat: now,
    // A token issued just after a password change, in the same second, is told apart from one
    // issued just before it (iat stays whole seconds, as clients expect).
    iat_ms: instant,
    exp: now + config.ttlSeconds,
    aud: config.audience,
    iss: config.issuer,
  };
  return {
    access_token: jwt.sign(claims, config.key, { algorithm }),
    token_type: "Bearer",
    expires_in: config.ttlSeconds,
  };
}

/** A token's claims once jsonwebtoken verified everything about it that does not depend on the time. */
interface Verified extends TokenClaims {
  nbf: number | undefined;
}

/*
 * Successful verifications, by token text, per settings (key, issuer and audience together): a client sends the same token with every
 * request, and verifying it again costs ≈ 7 % of a show's CPU (bench/README.md). Only tokens
 * signed with our key get in (a failure is never kept), so clients cannot fill the cache with
 * garbage; it keeps the newest `maxVerified` and forgets the oldest first. Revocation is not
 * cached: it is read from the database on every request (AuthService), and so is the clock.
 */
const maxVerified = 10_000;
const verifiedBySettings = new WeakMap<JwtSettings, Map<string, Verified>>();

function verifiedClaims(config: JwtSettings, token: string): Verified | undefined {
  let cache = verifiedBySettings.get(config);
  if (!cache) verifiedBySettings.set(config, (cache = new Map()));
  const cached = cache.get(token);
  if (cached) return cached;
  let decoded: jwt.Jwt;
  try {
    decoded = jwt.verify(token, config.key, {
      algorithms: [algorithm],
      issuer: config.issuer,
      audience: config.audience,
      // The time is checked on every read (readToken), not once here.
      ignoreExpiration: true,
      ignoreNotBefore: true,
      complete: true,
    });
  } catch {
    return undefined;
  }
  if (Object.hasOwn(decoded.header, "crit")) return undefined;
  const claims = decoded.payload;
  if (!isRecord(claims)) return undefined;
  const { sub, jti, iat, exp, nbf, auth_time: authTime, iat_ms: issuedAtMs, sid } = claims;
  // jsonwebtoken checks exp only when present: the service requires it.
  if (typeof exp !== "number" || (nbf !== undefined && typeof nbf !== "number")) return undefined;
  const notBefore = typeof nbf === "number" ? nbf : undefined;
  if (typeof sub !== "string" || typeof jti !== "string" || typeof iat !== "number")
    return undefined;
  const verified: Verified = {
    sub,
    jti,
    iat,
    exp,
    nbf: notBefore,
    auth_time: typeof authTime === "number" ? authTime : iat,
    issuedAtMs: typeof issuedAtMs === "number" ? issuedAtMs : iat * 1000,
    sid: typeof sid === "string" ? sid : "",
  };
  if (cache.size >= maxVerified) cache.delete(cache.keys().next().value!);
  cache.set(token, verified);
  return verified;
}

/**
 * The claims of a token that is well-formed, HS256-signed with our key, for our issuer and audience,
 * already valid (`nbf`) and not expired (`exp`, required); undefined otherwise. `allowExpired` is for
 * refresh only. A header naming critical extensions (`crit`) is refused: the service understands
 * none, and RFC 7515 §4.1.11 forbids accepting a token whose critical extensions it does not.
 */
export function readToken(
  config: JwtSettings,
  token: string,
  allowExpired = false,
): TokenClaims | undefined {
  const verified = verifiedClaims(config, token);
  if (!verified) return undefined;
  const now = Math.floor(Date.now() / 1000);
  if (!allowExpired && now >= verified.exp) return undefined;
  if (verified.nbf !== undefined && verified.nbf > now) return undefined;
  const { sub, jti, iat, exp, auth_time, issuedAtMs, sid } = verified;
  return { sub, jti, iat, exp, auth_time, issuedAtMs, sid };
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/.exec(header ?? "");
  return match?.[1];
}
