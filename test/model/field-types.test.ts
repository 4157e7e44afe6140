import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FilterKind } from "../../runtime/common/src/http/list-query.js";
import type { ColumnKind } from "../../runtime/common/src/data/table.js";
import type { ActionName as RuntimeActionName } from "../../runtime/common/src/resource/descriptor.js";
import type { ActionName } from "../../src/model/types.js";
import { fieldTypeNames, fieldTypes, type FieldTypeDescriptor } from "../../src/model/field-types.js";
import { optionsOf } from "../../src/spec/field-checks.js";
import { parseFieldsFlag } from "../../src/scaffold/fields-flag.js";
import { ruleTable } from "../../src/spec/rules.js";

// Compile-time: the registry speaks the runtime's language (a new kind must reach the runtime too).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const kindsAgree: Same<FieldTypeDescriptor["kind"], ColumnKind> = true;
export const filtersAgree: Same<NonNullable<FieldTypeDescriptor["filter"]>, Exclude<FilterKind, "relation">> = true;
// And the model's actions are the ones the runtime's declarations may name.
export const actionsAgree: Same<ActionName, RuntimeActionName> = true;

describe("the field-type registry (src/model/field-types.ts)", () => {
  it("is the list of types the spec's JSON Schema offers editors", () => {
    const schema = JSON.parse(readFileSync(new URL("../../schema/spec.schema.json", import.meta.url), "utf8")) as {
      definitions: { field: { properties: { type: { enum: string[] } } } };
    };
    expect([...schema.definitions.field.properties.type.enum].sort()).toEqual([...fieldTypeNames].sort());
  });

  it("decides the options a spec may give each type and the types --fields accepts", () => {
    expect(optionsOf("decimal")).toEqual(["type", "nullable", "default", "renamedFrom", "backfill", "example", "visibleTo", "writableBy", "filter", "index", "precision", "scale", "min", "max"]);
    expect(optionsOf("json")).not.toContain("index");
    for (const type of fieldTypeNames) {
      const piece = type === "enum" ? `f:${type}:values=a|b` : `f:${type}`;
      expect(parseFieldsFlag(piece)[0]!.type).toBe(type);
    }
  });

  it("decides the rules each type takes, from which the rule table derives where a rule applies", () => {
    expect(ruleTable.digits!.appliesTo).toEqual(["string", "integer"]);
    expect(ruleTable.uuid!.appliesTo).toEqual(["string", "uuid"]);
    expect(ruleTable.required!.appliesTo).toEqual([...fieldTypeNames, "relation"]);
    expect(ruleTable.exists!.appliesTo).toEqual(["relation"]);
    expect(fieldTypes.json.rules).toEqual([]);
    // No rule is known that no field could take.
    for (const [rule, { appliesTo }] of Object.entries(ruleTable)) expect(appliesTo.length, rule).toBeGreaterThan(0);
  });

  it("gives every type a payload schema, an output schema and an example that schema accepts", () => {
    for (const [name, type] of Object.entries(fieldTypes) as [string, FieldTypeDescriptor][]) {
      const facts = { name: "f", label: "f", nullable: false, values: ["a"], scale: 2 };
      expect(type.payload.schema(facts), name).toBeTypeOf("object");
      const output = type.output.schema(facts);
      const example = type.output.example(facts);
      if (output.enum) expect(output.enum).toContain(example);
      if (output.pattern) expect(String(example)).toMatch(new RegExp(output.pattern));
    }
  });
});
