// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { randomFillSync } from "node:crypto";
import { NotFound } from "./errors.js";
import { hashAlphabet, hashCodeLength, hashPattern } from "./public-names.js";

export { hashAlphabet, hashCodeLength };

// The largest multiple of the alphabet size that fits in a byte: bytes at or above it are drawn
// again, so every symbol is exactly equally likely (with 32 symbols no byte is ever rejected).
const acceptBelow = 256 - (256 % hashAlphabet.length);
const pool = Buffer.alloc(64);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

export function randomHashCode(): string {
  let code = "";
  while (code.length < hashCodeLength) {
    const byte = randomByte();
    if (byte < acceptBelow) code += hashAlphabet[byte % hashAlphabet.length];
  }
  return code;
}

export function newHash(prefix: string): string {
  return `${prefix}_${randomHashCode()}`;
}

export function hashMatcher(prefix: string): RegExp {
  return new RegExp(hashPattern(prefix));
}

/**
 * `value` when it is a public id of `prefix`, else the 404 of a missing record: a route parameter
 * that cannot name such a record is never looked up (PostgreSQL refuses a NUL in text outright).
 */
export function publicIdOrNotFound(value: unknown, prefix: string): string {
  const hash = String(value);
  if (!hashMatcher(prefix).test(hash)) throw new NotFound();
  return hash;
}

/** The prefix of a public id (`PAT` of `PAT_7KX9MQ2B`): which resource it names; "" for a malformed one. */
export function hashPrefix(hash: string): string {
  const end = hash.indexOf("_");
  return end > 0 ? hash.slice(0, end) : "";
}
