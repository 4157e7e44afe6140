// HS256 JSON Web Tokens with node:crypto alone: what jsonwebtoken does for this one algorithm,
// with the same checks the service asks of it (pinned alg, signature, iss, aud, exp required, nbf).
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";

const encodedHeader = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

function parseJson(segment) {
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

function audienceMatches(audience, expected) {
  return Array.isArray(audience) ? audience.includes(expected) : audience === expected;
}

export function createJwt({ secret, issuer, audience }) {
  const key = createSecretKey(Buffer.from(secret));
  const signature = (input) => createHmac("sha256", key).update(input).digest("base64url");

  /** claims, then aud and iss: the order jsonwebtoken writes them in. */
  function sign(claims) {
    const payload = Buffer.from(JSON.stringify({ ...claims, aud: audience, iss: issuer })).toString("base64url");
    const input = `${encodedHeader}.${payload}`;
    return `${input}.${signature(input)}`;
  }

  /** The claims of a valid token, else undefined. */
  function verify(token) {
    const [header, payload, given] = token.split(".");
    if (parseJson(header)?.alg !== "HS256") return undefined;
    // Compared as text, as jws does: a second spelling of the same signature bytes is refused too.
    const expected = Buffer.from(signature(`${header}.${payload}`));
    const presented = Buffer.from(given);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
    const claims = parseJson(payload);
    if (typeof claims !== "object" || claims === null) return undefined;
    const now = Math.floor(Date.now() / 1000);
    if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || claims.nbf > now)) return undefined;
    if (typeof claims.exp !== "number" || now >= claims.exp) return undefined;
    if (claims.iss !== issuer || !audienceMatches(claims.aud, audience)) return undefined;
    if (typeof claims.sub !== "string" || typeof claims.jti !== "string" || typeof claims.iat !== "number") return undefined;
    return claims;
  }

  return { sign, verify };
}
