// The stored password format and cost of the generated service (base/passwords.ts), so that every
// server verifies the same seeded hash with the same work: scrypt N=2^17, r=8, p=1, 32-byte key.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const cost = { N: 2 ** 17, r: 8, p: 1 };
const keyLength = 32;
const maxmem = 256 * 1024 * 1024;

function derive(password, salt, options) {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` */
export async function hashPassword(password) {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ["scrypt", Math.log2(cost.N), cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

// Unknown e-mails are checked against this, so that they cost one scrypt like known ones.
const unknownUserHash = `scrypt$17$8$1$${Buffer.alloc(16).toString("base64")}$${Buffer.alloc(keyLength).toString("base64")}`;

export async function verifyPassword(password, stored) {
  const [scheme, logN, r, p, salt, key] = (stored ?? unknownUserHash).split("$");
  if (scheme !== "scrypt" || !logN || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), { N: 2 ** Number(logN), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected) && stored !== null;
}
