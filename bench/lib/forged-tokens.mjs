// Tokens for the verification, made with jsonwebtoken: ones every server must refuse with the same
// 401 (api-contract.md §3), and a valid one to revoke.
import { randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";

export function forgedTokens({ secret, issuer, audience }, userHash) {
  const now = Math.floor(Date.now() / 1000);
  const claims = (extra = {}) => ({ sub: userHash, jti: randomUUID(), auth_time: now, iat: now, exp: now + 3600, ...extra });
  const sign = (payload, options = {}) => jwt.sign(payload, secret, { algorithm: "HS256", issuer, audience, ...options });
  const valid = sign(claims());
  return {
    "another algorithm (HS512, same secret)": sign(claims(), { algorithm: "HS512" }),
    "a wrong signature": `${valid.slice(0, -4)}${valid.endsWith("AAAA") ? "BBBB" : "AAAA"}`,
    "another secret": jwt.sign(claims(), `${secret}-other`, { algorithm: "HS256", issuer, audience }),
    "an expired token": sign(claims({ iat: now - 7200, exp: now - 3600 })),
    "no exp": sign((({ exp, ...rest }) => rest)(claims())),
    "a future nbf": sign(claims({ nbf: now + 600 })),
    "a wrong issuer": sign(claims(), { issuer: `${issuer}-other` }),
    "a wrong audience": sign(claims(), { audience: `${audience}-other` }),
    "an unknown user": sign(claims({ sub: "USR_ZZZZZZZZ" })),
  };
}

/** A token every server accepts, and its id (to mark it revoked in their databases). */
export function validToken({ secret, issuer, audience }, userHash) {
  const now = Math.floor(Date.now() / 1000);
  const jti = randomUUID();
  const token = jwt.sign({ sub: userHash, jti, auth_time: now, iat: now, exp: now + 3600 }, secret, { algorithm: "HS256", issuer, audience });
  return { jti, token };
}
