// What the service's auth does the same for every server: token claims, the accepted header, the
// login throttle's limits (src/base/tokens.ts, src/auth/login-throttle.ts).

/** The service's token claims, in its order (jsonwebtoken appends aud and iss after them). */
export function tokenClaims(userHash, jti, ttlSeconds) {
  const now = Math.floor(Date.now() / 1000);
  return { sub: userHash, jti, auth_time: now, iat: now, exp: now + ttlSeconds };
}

// The service accepts only this shape of Authorization header.
const bearerPattern = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/;

export function bearerToken(header) {
  return bearerPattern.exec(header ?? "")?.[1];
}

/** The login throttle of the service: 5 failures per minute per e-mail and client address. */
export const loginThrottle = { maxAttempts: 5, windowSeconds: 60, key: (email, ip) => `${email.toLowerCase()}|${ip}` };
