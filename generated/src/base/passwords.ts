// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { ConcurrencyGate, GateFull } from "./concurrency-gate.js";
import { ServiceBusy } from "./errors.js";
import {
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from "node:crypto";

/** OWASP's scrypt parameters: N = 2^17, r = 8, p = 1 (128 MiB, ≈ a few hundred ms per hash). */
const cost = { N: 2 ** 17, r: 8, p: 1 };
const keyLength = 32;
const maxmem = 256 * 1024 * 1024;

/** What one hash holds while it runs: 128 · N · r bytes (128 MiB with the cost above). */
const bytesPerHash = 128 * cost.N * cost.r;
/**
 * Memory a process gives password hashing at once: every hash (login, user creation, password
 * change) goes through one gate of that many (2), with a bounded queue behind them; beyond it the
 * request is answered 503 with Retry-After at once instead of piling up memory and libuv threads
 * (16 unbounded user creations took a process from 106 to 620 MB).
 */
const hashingMemory = 256 * 1024 * 1024;
const hashing = new ConcurrencyGate(Math.max(1, Math.floor(hashingMemory / bytesPerHash)), 16);

/** One hash through the gate: ServiceBusy when its queue is full. */
function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return hashing
    .run(() => unboundedScrypt(password, salt, options))
    .catch((error: unknown) => {
      if (error instanceof GateFull)
        throw new ServiceBusy("The service is busy checking passwords: try again in a moment.");
      throw error;
    });
}

function unboundedScrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(
      password.normalize("NFKC"),
      salt,
      keyLength,
      { ...options, maxmem },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>`: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return [
    "scrypt",
    Math.log2(cost.N),
    cost.r,
    cost.p,
    salt.toString("base64"),
    key.toString("base64"),
  ].join("$");
}

// Verified against when the e-mail is unknown, so that such a login costs the same time.
const unknownUserHash = `scrypt$17$8$1$${Buffer.alloc(16).toString("base64")}$${Buffer.alloc(keyLength).toString("base64")}`;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = (stored ?? unknownUserHash).split("$");
  if (scheme !== "scrypt" || !logN || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), {
    N: 2 ** Number(logN),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected) && stored !== null;
}
