import { describe, expect, it } from "vitest";
import {
  buildActionValidation,
  deriveRules,
  type PayloadField,
  type PayloadRelation,
} from "../../src/model/validation.js";
import { compileValidator } from "../../runtime/common/src/base/validation.js";

const field = (overrides: Partial<PayloadField> & Pick<PayloadField, "name" | "type">): PayloadField => ({
  nullable: false,
  hasDefault: false,
  unique: false,
  ...overrides,
});

const name = field({ name: "name", type: "string", max: 120 });
const cpf = field({ name: "cpf", type: "string", length: 11, unique: true });
const phone = field({ name: "phone", type: "string", max: 20, nullable: true });
const status = field({ name: "status", type: "enum", values: ["active", "inactive"], hasDefault: true });
const doctor: PayloadRelation = { name: "doctor", targetResource: "Doctor", targetPrefix: "DOC", required: true };

describe("derived rules", () => {
  it.each([
    ["create", name, ["required", "string", "max:120"]],
    ["create", phone, ["sometimes", "nullable", "string", "max:20"]],
    ["create", status, ["sometimes", "in:active,inactive"]],
    ["create", cpf, ["required", "string", "size:11", "unique"]],
    ["update", name, ["sometimes", "string", "max:120"]],
    ["update", phone, ["sometimes", "nullable", "string", "max:20"]],
  ] as const)("%s %s", (action, input, expected) => {
    const rules = deriveRules(action, [input], []).get(input.name)!;
    expect(rules.map((rule) => (rule.args.length > 0 ? `${rule.name}:${rule.args.join(",")}` : rule.name))).toEqual(expected);
  });

  it("makes a required belongsTo required on create and optional on update", () => {
    expect(deriveRules("create", [], [doctor]).get("doctor")!.map((rule) => rule.name)).toEqual(["required", "exists"]);
    expect(deriveRules("update", [], [doctor]).get("doctor")!.map((rule) => rule.name)).toEqual(["sometimes", "exists"]);
  });
});

describe("action validation", () => {
  const create = buildActionValidation("create", [name, cpf, phone, status], [doctor], deriveRules("create", [name, cpf, phone, status], [doctor]));

  it("builds a closed JSON Schema with the required keys", () => {
    expect(create.schema.additionalProperties).toBe(false);
    expect(create.schema.required).toEqual(["name", "cpf", "doctor"]);
    expect(create.schema.properties!.name).toEqual({ type: "string", maxLength: 120, minLength: 1 });
    expect(create.schema.properties!.phone).toEqual({ type: ["string", "null"], maxLength: 20 });
    expect(create.schema.properties!.status).toEqual({ enum: ["active", "inactive"] });
    expect(create.schema.properties!.doctor).toEqual({ type: "string", pattern: "^DOC_[A-HJ-NP-Z2-9]{8}$" });
  });

  it.each([
    ["name", "required", "The name field is required."],
    ["name", "minLength", "The name field is required."],
    ["name", "maxLength", "The name field must not be greater than 120 characters."],
    ["name", "type", "The name field must be a string."],
    ["name", "null", "The name field is required."],
    ["cpf", "maxLength", "The cpf field must be 11 characters."],
    ["phone", "null", "The phone field must be a string."],
    ["status", "enum", "The selected status is invalid."],
    ["doctor", "pattern", "The selected doctor is invalid."],
  ])("%s fails %s with Laravel's message", (key, keyword, message) => {
    expect(create.messages[key]![keyword]).toBe(message);
  });

  it("lists the accepted keys in declaration order", () => {
    expect(create.keys).toEqual(["name", "cpf", "phone", "status", "doctor"]);
  });

  it("writes each message once, with every keyword it answers", () => {
    expect(create.messageList.doctor).toEqual([
      ["The selected doctor is invalid.", "type", "pattern"],
      ["The doctor field is required.", "null", "required"],
    ]);
  });

  it.each([
    [["required", "digits:11"], { type: "string", pattern: "^[0-9]{11}$", minLength: 1 }, { pattern: "The cpf field must be 11 digits." }],
    [["sometimes", "between:2,5"], { type: "string", minLength: 2, maxLength: 5 }, { minLength: "The cpf field must be at least 2 characters.", maxLength: "The cpf field must not be greater than 5 characters." }],
    [["sometimes", "regex:/^[A-Z]+$/"], { type: "string", pattern: "^[A-Z]+$" }, { pattern: "The cpf field format is invalid." }],
    [["sometimes", "in:a,b"], { enum: ["a", "b"] }, { enum: "The selected cpf is invalid." }],
  ])("explicit rules %j", (ruleTexts, schema, messages) => {
    const rules = new Map([["cpf", ruleTexts.map((text) => {
      const [ruleName = "", args = ""] = text.split(/:(.*)/s);
      return { name: ruleName, args: args === "" ? [] : ruleName === "regex" ? [args] : args.split(",") };
    })]]);
    const plain = field({ name: "cpf", type: "string" });
    const result = buildActionValidation("create", [plain], [], rules);
    expect(result.schema.properties!.cpf).toEqual(schema);
    expect(result.messages.cpf).toMatchObject(messages);
  });

  it("accepts integers with numeric bounds and messages", () => {
    const age = field({ name: "age", type: "integer", min: 0, max: 150 });
    const result = buildActionValidation("create", [age], [], deriveRules("create", [age], []));
    expect(result.schema.properties!.age).toEqual({ type: "integer", minimum: 0, maximum: 150 });
    expect(result.messages.age!.maximum).toBe("The age field must not be greater than 150.");
    expect(result.messages.age!.type).toBe("The age field must be an integer.");
  });

  it("checks decimals as strings or numbers: syntax by pattern, precision, scale and range by x-decimal", () => {
    const weight = field({ name: "weight_kg", type: "decimal", precision: 5, scale: 2, nullable: true, max: 500 });
    const result = buildActionValidation("create", [weight], [], deriveRules("create", [weight], []));
    expect(result.schema.properties!.weight_kg).toEqual({
      type: ["string", "number", "null"],
      pattern: "^-?[0-9]+(\\.[0-9]+)?$",
      maximum: 500,
      "x-decimal": { precision: 5, scale: 2, maximum: 500 },
    });
    expect(result.messages.weight_kg).toMatchObject({
      type: "The weight kg field must be a number.",
      pattern: "The weight kg field must be a number.",
      decimalIntegerDigits: "The weight kg field must have at most 3 digits before the decimal point.",
      decimalPlaces: "The weight kg field must have 0-2 decimal places.",
      maximum: "The weight kg field must not be greater than 500.",
    });
  });

  it("keeps integers within 32 bits unless the rules are narrower", () => {
    const count = field({ name: "count", type: "integer" });
    const result = buildActionValidation("create", [count], [], deriveRules("create", [count], []));
    expect(result.schema.properties!.count).toEqual({ type: "integer", minimum: -2147483648, maximum: 2147483647 });
    expect(result.messages.count!.maximum).toBe("The count field must not be greater than 2147483647.");
  });

  it("accepts <field>_confirmation for a confirmed field and names the message of a mismatch", () => {
    const code = field({ name: "code", type: "string", max: 20 });
    const rules = new Map([["code", [{ name: "required", args: [] }, { name: "confirmed", args: [] }]]]);
    const result = buildActionValidation("create", [code], [], rules);
    expect(result.confirmed).toEqual(["code"]);
    expect(Object.keys(result.schema.properties!)).toEqual(["code", "code_confirmation"]);
    expect(result.messages.code!.confirmed).toBe("The code field confirmation does not match.");
    expect(result.payload.map((key) => key.key)).toEqual(["code"]);
  });
});

/** One action's validator for the given fields, compiled by the runtime as a project does. */
function compiled(action: "create" | "update", fields: PayloadField[]) {
  const built = buildActionValidation(action, fields, [], deriveRules(action, fields, []));
  return compileValidator<Record<string, unknown>>(built.schema, built.messageList);
}

/** The field errors a validator answers a body with; undefined when it accepts it. */
function errorsOf(validate: (body: unknown) => unknown, body: unknown): unknown {
  try {
    validate(body);
    return undefined;
  } catch (error) {
    return (error as { errors?: unknown }).errors;
  }
}

describe("json fields and null (issue 31: a null into a NOT NULL json column answered 500)", () => {
  const compile = (nullable: boolean) => compiled("create", [field({ name: "meta", type: "json", nullable })]);

  it("refuses null where the field is not nullable, as a missing required value, and takes any other JSON", () => {
    const validate = compile(false);
    expect(errorsOf(validate, { meta: null })).toEqual({ meta: ["The meta field is required."] });
    for (const value of [{ a: 1 }, [1, "x"], "text", 0, false]) expect(errorsOf(validate, { meta: value })).toBeUndefined();
  });

  it("takes null where the field is nullable", () => {
    expect(errorsOf(compile(true), { meta: null })).toBeUndefined();
  });
});

describe("an update may leave a required field out, not empty it (issue 31)", () => {
  const compileUpdate = (input: PayloadField) => compiled("update", [input]);

  it("refuses text trimmed to nothing for a field every record has, and takes it where the field may be empty", () => {
    expect(errorsOf(compileUpdate(name), { name: "   " })).toEqual({ name: ["The name field is required."] });
    expect(errorsOf(compileUpdate(name), {})).toBeUndefined();
    expect(errorsOf(compileUpdate(phone), { phone: "" })).toBeUndefined();
    expect(errorsOf(compileUpdate(field({ name: "nick", type: "string", hasDefault: true })), { nick: "" })).toBeUndefined();
  });
});
