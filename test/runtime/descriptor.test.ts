import { describe, expect, it } from "vitest";
import { defineTable } from "../../runtime/common/src/data/table.js";
import { ValidationFailed } from "../../runtime/common/src/base/errors.js";
import { payloadValidators, type PayloadRules } from "../../runtime/common/src/base/validation.js";
import { defineResource, type ResourceDeclaration } from "../../runtime/common/src/resource/descriptor.js";

interface RoomCreate {
  name: string;
  password?: string;
}

const rules: PayloadRules = {
  create: {
    schema: {
      type: "object",
      properties: { name: { type: "string", maxLength: 5, minLength: 1 }, password: { type: "string" }, password_confirmation: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    },
    messages: {
      name: [
        ["The name field must not be greater than 5 characters.", "maxLength"],
        ["The name field is required.", "minLength", "required"],
      ],
    },
    confirmed: ["password"],
  },
  update: { schema: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false }, messages: {} },
};

const declaration: ResourceDeclaration = {
  collection: "rooms",
  prefix: "ROO",
  list: { sortable: ["name"], filters: { name: "string" }, relations: [] },
  output: ["hash", "name"],
  publicActions: ["index"],
  validation: rules,
};

function failure(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors;
    throw error;
  }
  throw new Error("expected a ValidationFailed");
}

describe("defineTable (runtime/common/src/data/table.ts)", () => {
  it("makes what a declaration leaves out explicit: no soft delete, no relations, events named after the table", () => {
    const table = defineTable<{ id: number; hash: string; name: string }>({ name: "rooms", columns: { name: "string" } });
    expect(table).toEqual({ name: "rooms", event: "rooms", columns: { name: "string" }, softDelete: false, relations: {}, restrictedBy: [], cascadeTo: [], nullOnDelete: [] });
    expect(defineTable({ name: "rooms", event: "room", columns: {} }).event).toBe("room");
    expect(defineTable({ name: "notes", columns: {}, softDelete: true }).softDelete).toBe(true);
  });
});

describe("payloadValidators (runtime/common/src/base/validation.ts)", () => {
  const validators = payloadValidators<RoomCreate>({ validation: rules });

  it("answers a failing payload with the messages the declaration holds, per keyword", () => {
    expect(failure(() => validators.create({ name: "too long" }))).toEqual({ name: ["The name field must not be greater than 5 characters."] });
    expect(failure(() => validators.create({}))).toEqual({ name: ["The name field is required."] });
    expect(failure(() => validators.create({ name: "" }))).toEqual({ name: ["The name field is required."] });
  });

  it("checks confirmed fields and returns the payload without the copy", () => {
    expect(failure(() => validators.create({ name: "a", password: "x", password_confirmation: "y" }))).toEqual({
      password: ["The password field confirmation does not match."],
    });
    expect(validators.create({ name: "a", password: "x", password_confirmation: "x" })).toEqual({ name: "a", password: "x" });
  });

  it("keeps the update rules apart from the create rules", () => {
    expect(validators.update({})).toEqual({});
    expect(failure(() => validators.update({ password: "x" }))).toEqual({ password: ["The password field is prohibited."] });
  });

  it("refuses a message entry without a keyword when compiled, naming the field", () => {
    const broken: PayloadRules = { ...rules, update: { schema: {}, messages: { name: [["The name field is odd."]] } } };
    expect(() => payloadValidators({ validation: broken })).toThrow('The messages of name need a message and a keyword each: ["The name field is odd."]');
  });
});

describe("defineResource (runtime/common/src/resource/descriptor.ts)", () => {
  const table = defineTable<{ id: number; hash: string; name: string }>({ name: "rooms", columns: { name: "string" } });
  const validate = payloadValidators<RoomCreate>({ validation: rules });

  it("serves the declaration's settings with the table and the validators, not the raw rules", () => {
    const resource = defineResource(table, declaration, validate);
    expect(resource).toMatchObject({ table, collection: "rooms", prefix: "ROO", output: ["hash", "name"], publicActions: ["index"], validate });
    expect(resource.list.filters).toEqual({ name: "string" });
    expect(resource).not.toHaveProperty("validation");
  });

  it("stops the start-up on a hand-edited filter kind or action, naming the table", () => {
    const oddFilter = { ...declaration, list: { ...declaration.list, filters: { name: "fuzzy" } } };
    expect(() => defineResource(table, oddFilter, validate)).toThrow('The declaration of table rooms cannot be served: filter name has an unknown kind "fuzzy".');
    expect(() => defineResource(table, { ...declaration, publicActions: ["publish"] }, validate)).toThrow(
      'The declaration of table rooms cannot be served: public action "publish" is not an action.',
    );
  });
});
