// Login and bearer authentication of the reference server: the service's rules (src/auth/*.ts)
// on prepared statements and node:crypto.
import { randomUUID } from "node:crypto";
import { bearerToken, loginThrottle, tokenClaims } from "../shared/auth-rules.mjs";
import { verifyPassword } from "../shared/passwords.mjs";
import { loginRules } from "../shared/rules.mjs";
import { toStoredDate } from "../shared/stored-dates.mjs";
import { validateBody } from "../shared/validation.mjs";
import { invalidData, sendData, sendError } from "./http.mjs";

// Token replies must never be cached by a browser or a proxy.
const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" };
const challenge = { "WWW-Authenticate": "Bearer" };

export function createAuth(database, jwt, jwtConfig) {
  /** The user behind a valid, unrevoked token of an existing user, else undefined. */
  async function authenticate(req) {
    const token = bearerToken(req.headers.authorization);
    const claims = token === undefined ? undefined : jwt.verify(token);
    if (claims === undefined || (await database.revokedToken.get(claims.jti)) !== undefined) return undefined;
    return database.userByHash.get(claims.sub);
  }

  function unauthenticated(res, headers) {
    sendError(res, 401, "Unauthenticated.", undefined, { ...headers, ...challenge });
  }

  async function recordFailure(key) {
    const now = new Date();
    const resetAt = toStoredDate(new Date(now.getTime() + loginThrottle.windowSeconds * 1000));
    const row = await database.recordFailure.get(key, resetAt);
    if (new Date(row.reset_at) < now) await database.restartThrottle.run(resetAt, key);
  }

  async function login(req, res, body) {
    const errors = validateBody(body, loginRules);
    if (errors) return invalidData(res, errors, noStore);
    const key = loginThrottle.key(body.email, req.socket.remoteAddress ?? "unknown");
    const throttle = await database.throttle.get(key);
    if (throttle && throttle.attempts >= loginThrottle.maxAttempts) {
      const waitMs = new Date(throttle.reset_at).getTime() - Date.now();
      if (waitMs > 0)
        return sendError(res, 429, "Too many attempts.", undefined, { ...noStore, "Retry-After": String(Math.ceil(waitMs / 1000)) });
    }
    const user = await database.userByEmail.get(body.email.toLowerCase());
    const valid = await verifyPassword(body.password, user?.password ?? null);
    if (!user || !valid) {
      await recordFailure(key);
      return sendError(res, 401, "Invalid credentials.", undefined, noStore);
    }
    await database.clearThrottle.run(key);
    const token = jwt.sign(tokenClaims(user.hash, randomUUID(), jwtConfig.ttlSeconds));
    sendData(res, { access_token: token, token_type: "Bearer", expires_in: jwtConfig.ttlSeconds }, 200, noStore);
  }

  return { authenticate, unauthenticated, login };
}
