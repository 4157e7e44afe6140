import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, matchingStep, otpauthUrl, totpCode, totpStep } from "../../runtime/common/src/base/totp.js";

// RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890", 8-digit codes at these times.
const seed = base32Encode(Buffer.from("12345678901234567890"));
const vectors: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP (RFC 6238)", () => {
  it.each(vectors)("at %i s the code is %s", (seconds, code) => {
    expect(totpCode(seed, Math.floor(seconds / 30), 8)).toBe(code);
  });

  it("round-trips base32 and accepts a code for its step and one either side only", () => {
    expect(base32Decode(seed).toString()).toBe("12345678901234567890");
    expect(seed).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    const at = 1_800_000_000_000;
    const step = totpStep(at);
    for (const offset of [-1, 0, 1]) expect(matchingStep(seed, totpCode(seed, step + offset), at)).toBe(step + offset);
    for (const offset of [-2, 2]) expect(matchingStep(seed, totpCode(seed, step + offset), at)).toBeUndefined();
    for (const bad of ["", "12345", "1234567", "abcdef", " 12345"]) expect(matchingStep(seed, bad, at)).toBeUndefined();
  });

  it("writes the otpauth URL apps read", () => {
    expect(otpauthUrl("ABC", "Clinic API", "ana@example.com")).toBe("otpauth://totp/Clinic%20API:ana%40example.com?secret=ABC&issuer=Clinic+API&algorithm=SHA1&digits=6&period=30");
  });
});
