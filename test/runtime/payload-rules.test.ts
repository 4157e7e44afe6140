import { describe, expect, it } from "vitest";
import { emailRule, nameRule, passwordRule, payloadOf, stringRule, tokenRule } from "../../runtime/common/src/accounts/payload-rules.js";
import { ValidationFailed } from "../../runtime/common/src/base/errors.js";

const errorsOf = (validate: (body: unknown) => unknown, body: unknown) => {
  try {
    validate(body);
    return {};
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
};

describe("the account routes' payload rules", () => {
  const validate = payloadOf<{ name: string; email: string; password: string; token: string; code: string }>({ name: nameRule, email: emailRule, password: passwordRule, token: tokenRule, code: stringRule("code", 20) });

  it("says each missing, wrongly typed or too long field in Laravel's words", () => {
    expect(errorsOf(validate, {})).toEqual({
      name: ["The name field is required."],
      email: ["The email field is required."],
      password: ["The password field is required."],
      token: ["The token field is required."],
      code: ["The code field is required."],
    });
    expect(errorsOf(validate, { name: "   ", email: "x", password: 7, token: "t".repeat(201), code: "" })).toEqual({
      name: ["The name field is required."],
      email: ["The email field must be a valid email address."],
      password: ["The password field must be a string."],
      token: ["The token field must not be greater than 200 characters."],
      code: ["The code field is required."],
    });
  });

  it("accepts exactly its fields, and refuses any other key", () => {
    const good = { name: "Ana", email: "ana@example.com", password: "x", token: "t", code: "123456" };
    expect(errorsOf(validate, good)).toEqual({});
    expect(Object.keys(errorsOf(validate, { ...good, role: "admin" }))).toEqual(["role"]);
  });
});
