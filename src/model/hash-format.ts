import { hashAlphabet, hashCodeLength } from "./public-names.js";

export { hashPattern } from "./public-names.js";

/** A deterministic, realistic-looking example hash for documentation, derived from the prefix. */
export function exampleHash(prefix: string, seed = 0): string {
  let state = [...prefix].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7 + seed) >>> 0;
  let code = "";
  for (let index = 0; index < hashCodeLength; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    code += hashAlphabet[(state >>> 16) % hashAlphabet.length];
  }
  return `${prefix}_${code}`;
}
