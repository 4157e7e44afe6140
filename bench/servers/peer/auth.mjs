// Login and the bearer-token middleware as one would write them with jsonwebtoken and Prisma.
import { randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";
import { bearerToken, loginThrottle, tokenClaims } from "../shared/auth-rules.mjs";
import { verifyPassword } from "../shared/passwords.mjs";
import { loginRules } from "../shared/rules.mjs";
import { validateBody } from "../shared/validation.mjs";
import { sendData, sendError, sendInvalid } from "./responses.mjs";

function unauthenticated(res) {
  res.set("WWW-Authenticate", "Bearer");
  sendError(res, 401, "Unauthenticated.");
}

export function requireAuth(prisma, jwtConfig) {
  const verifyOptions = { algorithms: ["HS256"], issuer: jwtConfig.issuer, audience: jwtConfig.audience };
  return async (req, res, next) => {
    const token = bearerToken(req.get("authorization"));
    if (!token) return unauthenticated(res);
    let claims;
    try {
      claims = jwt.verify(token, jwtConfig.secret, verifyOptions);
    } catch {
      return unauthenticated(res);
    }
    if (typeof claims.sub !== "string" || typeof claims.jti !== "string" || typeof claims.exp !== "number") return unauthenticated(res);
    const [revoked, user] = await Promise.all([
      prisma.revokedToken.findUnique({ where: { jti: claims.jti }, select: { id: true } }),
      prisma.user.findUnique({ where: { hash: claims.sub }, select: { id: true, hash: true, name: true, email: true } }),
    ]);
    if (revoked || !user) return unauthenticated(res);
    req.user = user;
    next();
  };
}

export function loginHandler(prisma, jwtConfig) {
  async function recordFailure(key) {
    const now = new Date();
    const resetAt = new Date(now.getTime() + loginThrottle.windowSeconds * 1000);
    const row = await prisma.loginThrottle.upsert({
      where: { key },
      create: { key, attempts: 1, reset_at: resetAt },
      update: { attempts: { increment: 1 } },
    });
    if (row.reset_at < now) await prisma.loginThrottle.update({ where: { key }, data: { attempts: 1, reset_at: resetAt } });
  }

  return async (req, res) => {
    res.set({ "Cache-Control": "no-store", Pragma: "no-cache" });
    const body = req.body ?? {};
    const errors = validateBody(body, loginRules);
    if (errors) return sendInvalid(res, errors);
    const key = loginThrottle.key(body.email, req.ip ?? "unknown");
    const throttle = await prisma.loginThrottle.findUnique({ where: { key } });
    const waitMs = throttle && throttle.attempts >= loginThrottle.maxAttempts ? throttle.reset_at.getTime() - Date.now() : 0;
    if (waitMs > 0) {
      res.set("Retry-After", String(Math.ceil(waitMs / 1000)));
      return sendError(res, 429, "Too many attempts.");
    }
    const user = await prisma.user.findUnique({ where: { email: body.email.toLowerCase() }, select: { hash: true, password: true } });
    const valid = await verifyPassword(body.password, user?.password ?? null);
    if (!user || !valid) {
      await recordFailure(key);
      return sendError(res, 401, "Invalid credentials.");
    }
    await prisma.loginThrottle.deleteMany({ where: { key } });
    const token = jwt.sign(tokenClaims(user.hash, randomUUID(), jwtConfig.ttlSeconds), jwtConfig.secret, {
      algorithm: "HS256",
      issuer: jwtConfig.issuer,
      audience: jwtConfig.audience,
    });
    sendData(res, { access_token: token, token_type: "Bearer", expires_in: jwtConfig.ttlSeconds });
  };
}
