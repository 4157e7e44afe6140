import { describe, expect, it } from "vitest";
import { passwordProblem } from "../../runtime/common/src/auth/password-policy.js";

const policy = { min: 12 };
const leaked = "The given password has appeared in a data leak. Please choose a different password.";

describe("password policy (auth.passwords)", () => {
  it("counts characters as code points after NFKC, emoji and spaces included", () => {
    expect(passwordProblem(policy, "short words")).toBe("The password field must be at least 12 characters.");
    expect(passwordProblem(policy, "🐢🐢🐢🐢🐢🐢 slow turtles")).toBeUndefined();
    // Eleven characters however the bytes add up: ﬁ (one ligature) becomes "fi" (two) under NFKC.
    expect(passwordProblem(policy, "ﬁsh and ﬁsh")).toBeUndefined();
    expect(passwordProblem({ min: 8 }, "x".repeat(1025))).toBe("The password field must not be greater than 1024 characters.");
  });

  it("refuses listed passwords in any case, with digits or symbols around them, runs and repeats", () => {
    for (const password of ["qwertyuiop123", "Password1234", "password12345", "!!iloveyou2024", "abcdefghijkl", "1234567890123", "987654321098", "zzzzzzzzzzzzzz", "lmnopqrstuvw"])
      expect(passwordProblem(policy, password), password).toBe(leaked);
  });

  it("accepts long passphrases, and refuses the account's own name or e-mail", () => {
    for (const password of ["correct horse battery", "a long password", "tr0ub4dor&3 staple", "sunflower seeds in may"])
      expect(passwordProblem(policy, password), password).toBeUndefined();
    const own = "The password field must not be your name or email address.";
    expect(passwordProblem({ min: 8 }, "Ann.Example@Mail.com", { email: "ann.example@mail.com" })).toBe(own);
    expect(passwordProblem({ min: 8 }, "ann.example", { email: "ann.example@mail.com" })).toBe(own);
    expect(passwordProblem({ min: 8 }, "Annabelle Lee", { name: "annabelle lee" })).toBe(own);
  });
});
