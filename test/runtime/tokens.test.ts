import { createHmac, createSecretKey } from "node:crypto";
import jwt from "jsonwebtoken";
import { describe, expect, it, vi } from "vitest";
import { bearerToken, issueToken, readToken, type JwtSettings } from "../../runtime/common/src/base/tokens.js";

const secret = "a-test-secret-of-at-least-32-bytes-long";
const settings: JwtSettings = { key: createSecretKey(Buffer.from(secret)), issuer: "clinic", audience: "clinic-clients", ttlSeconds: 900, refreshTtlSeconds: 86_400 };
const now = () => Math.floor(Date.now() / 1000);
const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A token written by hand, so each check can be broken on its own. */
function token(claims: Record<string, unknown>, { alg = "HS256", hmac = "sha256", key = secret }: { alg?: string; hmac?: string; key?: string } = {}) {
  const input = `${segment({ alg, typ: "JWT" })}.${segment(claims)}`;
  return `${input}.${createHmac(hmac, key).update(input).digest("base64url")}`;
}
const good = () => ({ sub: "USR_AAAAAAAA", jti: "j-1", iat: now(), exp: now() + 60, iss: "clinic", aud: "clinic-clients" });

describe("HS256 tokens through jsonwebtoken (runtime/common/src/base/tokens.ts)", () => {
  it("reads back what it issues, with auth_time defaulting to the login time", () => {
    const issued = issueToken(settings, "USR_AAAAAAAA", "SES_AAAAAAAA");
    expect(issued.token_type).toBe("Bearer");
    expect(issued.expires_in).toBe(900);
    const claims = readToken(settings, issued.access_token)!;
    expect(claims.sub).toBe("USR_AAAAAAAA");
    expect(claims.exp - claims.iat).toBe(900);
    expect(claims.auth_time).toBe(claims.iat);
    // The issue instant in milliseconds (iat_ms), within iat's second: a password change in the same second tells tokens apart.
    expect(Math.floor(claims.issuedAtMs / 1000)).toBe(claims.iat);
    expect(readToken(settings, issueToken(settings, "USR_AAAAAAAA", "SES_AAAAAAAA", 1234).access_token)?.auth_time).toBe(1234);
  });

  it("accepts a well-formed token written elsewhere, and an audience list that includes ours", () => {
    expect(readToken(settings, token(good()))?.jti).toBe("j-1");
    expect(readToken(settings, token({ ...good(), aud: ["other", "clinic-clients"] }))?.jti).toBe("j-1");
  });

  it("interoperates with jsonwebtoken both ways (what clients and other services may use)", () => {
    const theirs = jwt.sign({ sub: "USR_AAAAAAAA", jti: "j-2" }, secret, { algorithm: "HS256", issuer: "clinic", audience: "clinic-clients", expiresIn: 60 });
    expect(readToken(settings, theirs)?.jti).toBe("j-2");
    const ours = issueToken(settings, "USR_AAAAAAAA", "SES_AAAAAAAA").access_token;
    expect(jwt.verify(ours, secret, { algorithms: ["HS256"], issuer: "clinic", audience: "clinic-clients" })).toMatchObject({ sub: "USR_AAAAAAAA" });
  });

  it.each([
    ["another algorithm, same secret", token(good(), { alg: "HS384", hmac: "sha384" })],
    ["alg none", `${segment({ alg: "none" })}.${segment(good())}.`],
    ["another secret", token(good(), { key: "another-secret-of-at-least-32-bytes!!" })],
    ["expired", token({ ...good(), exp: now() - 1 })],
    ["no exp", token({ ...good(), exp: undefined })],
    ["exp as text", token({ ...good(), exp: String(now() + 60) })],
    ["not valid yet", token({ ...good(), nbf: now() + 60 })],
    ["another issuer", token({ ...good(), iss: "evil" })],
    ["another audience", token({ ...good(), aud: "evil" })],
    ["no sub", token({ ...good(), sub: undefined })],
    ["a number as sub", token({ ...good(), sub: 7 })],
    ["a payload that is an array", (() => { const input = `${segment({ alg: "HS256" })}.${segment([1])}`; return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`; })()],
    ["four segments", `${token(good())}.x`],
    ["a critical header extension (RFC 7515 §4.1.11)", (() => { const input = `${segment({ alg: "HS256", typ: "JWT", crit: ["exp"] })}.${segment(good())}`; return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`; })()],
    ["a jwk header carrying its own key", (() => { const input = `${segment({ alg: "HS256", jwk: { kty: "oct", k: "c2VjcmV0" } })}.${segment(good())}`; return `${input}.${createHmac("sha256", "secret").update(input).digest("base64url")}`; })()],
    ["garbage", "not.a.token"],
    ["the signature with one more character", `${token(good())}A`],
  ])("refuses %s", (_label, text) => {
    expect(readToken(settings, text)).toBeUndefined();
  });

  it("refuses a tampered payload", () => {
    const [header, , signature] = token(good()).split(".");
    expect(readToken(settings, `${header}.${segment({ ...good(), sub: "USR_BBBBBBBB" })}.${signature}`)).toBeUndefined();
  });

  it("checks the clock on every read, also for a token it verified before", () => {
    vi.useFakeTimers();
    try {
      const issued = issueToken(settings, "USR_AAAAAAAA", "SES_AAAAAAAA").access_token;
      expect(readToken(settings, issued)?.sub).toBe("USR_AAAAAAAA");
      vi.setSystemTime(Date.now() + 901_000);
      expect(readToken(settings, issued)).toBeUndefined();
      expect(readToken(settings, issued, true)?.sub).toBe("USR_AAAAAAAA");
      const later = token({ ...good(), jti: "j-later", nbf: now() + 30 });
      expect(readToken(settings, later)).toBeUndefined();
      vi.setSystemTime(Date.now() + 31_000);
      expect(readToken(settings, later)?.jti).toBe("j-later");
    } finally {
      vi.useRealTimers();
    }
  });

  it("never lets a token verified under one key, issuer or audience stand under another", () => {
    const issued = issueToken(settings, "USR_AAAAAAAA", "SES_AAAAAAAA").access_token;
    expect(readToken(settings, issued)).toBeDefined();
    expect(readToken({ ...settings, key: createSecretKey(Buffer.from("another-secret-of-at-least-32-bytes!!")) }, issued)).toBeUndefined();
    expect(readToken({ ...settings, issuer: "elsewhere" }, issued)).toBeUndefined();
    expect(readToken({ ...settings, audience: "others" }, issued)).toBeUndefined();
  });

  it("reads an expired token only for refresh", () => {
    const expired = token({ ...good(), exp: now() - 10 });
    expect(readToken(settings, expired)).toBeUndefined();
    expect(readToken(settings, expired, true)?.sub).toBe("USR_AAAAAAAA");
  });

  it("takes a bearer token from the Authorization header only in its exact form", () => {
    expect(bearerToken("Bearer a.b.c")).toBe("a.b.c");
    expect(bearerToken("bearer a.b.c")).toBeUndefined();
    expect(bearerToken("Bearer a.b.c extra")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
