// Public identifiers as api-contract.md §2 defines them: PREFIX_ + 8 symbols drawn with rejection
// sampling from a crypto-random pool, exactly like the generated service's base/hash-id.ts.
import { randomFillSync } from "node:crypto";

export const hashAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const codeLength = 8;
// Bytes at or above the largest multiple of 32 that fits in a byte are drawn again (none, with 32
// symbols: the check stays so that the rule holds if the alphabet ever changes).
const acceptBelow = 256 - (256 % hashAlphabet.length);
const pool = Buffer.alloc(64);
let poolOffset = pool.length;

function randomByte() {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

export function newHash(prefix) {
  let code = "";
  while (code.length < codeLength) {
    const byte = randomByte();
    if (byte < acceptBelow) code += hashAlphabet[byte % hashAlphabet.length];
  }
  return `${prefix}_${code}`;
}

export function hashMatcher(prefix) {
  return new RegExp(`^${prefix}_[A-HJ-NP-Z2-9]{${codeLength}}$`);
}
