import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseFieldsFlag } from "../../src/scaffold/fields-flag.js";
import { resourceClassName } from "../../src/scaffold/resource-name.js";
import { resourceSpecFromFields } from "../../src/scaffold/resource-spec.js";

describe("resource names from the command line", () => {
  it.each([
    ["patients", "Patient"],
    ["Patient", "Patient"],
    ["medical-records", "MedicalRecord"],
    ["medical_records", "MedicalRecord"],
    ["MedicalRecord", "MedicalRecord"],
    ["categories", "Category"],
    ["addresses", "Address"],
    ["statuses", "Status"],
    ["people", "Person"],
    ["lab-test-result-items", "LabTestResultItem"],
  ])("%s → %s", (input, expected) => expect(resourceClassName(input)).toBe(expected));

  it.each(["", "9lives", "bad name!"])("rejects %j", (input) => {
    expect(() => resourceClassName(input)).toThrow(/is not a resource name/);
  });
});

describe("--fields", () => {
  it("parses types and modifiers", () => {
    expect(parseFieldsFlag("answered_at:datetime:set=create,seen_on:date:nullable:set=write")).toEqual([
      { name: "answered_at", type: "datetime", options: { set: "create" } },
      { name: "seen_on", type: "date", options: { nullable: true, set: "write" } },
    ]);
    expect(() => parseFieldsFlag("at:datetime:set=later")).toThrow(/unknown modifier "set=later"/);
    expect(parseFieldsFlag("name:string,cpf:string:unique:length=11,phone:string:nullable,status:enum:values=a|b")).toEqual([
      { name: "name", type: "string", options: {} },
      { name: "cpf", type: "string", options: { unique: true, length: 11 } },
      { name: "phone", type: "string", options: { nullable: true } },
      { name: "status", type: "enum", options: { values: "a|b" } },
    ]);
  });

  it("defaults the type to string", () => {
    expect(parseFieldsFlag("title")).toEqual([{ name: "title", type: "string", options: {} }]);
  });

  it.each([
    ["Name:string", '--fields: "Name" in "Name:string" must be a snake_case name'],
    ["a:strin", '--fields: unknown type "strin" in "a:strin"'],
    ["a:string:uniq", '--fields: unknown modifier "uniq" in "a:string:uniq"'],
    ["a,a", '--fields: "a" appears twice'],
    ["s:enum", "--fields: enum \"s\" needs its values, e.g. s:enum:values=active|inactive"],
  ])("rejects %s", (flag, message) => expect(() => parseFieldsFlag(flag)).toThrow(message));

  it("renders a spec that round-trips through YAML", () => {
    const text = resourceSpecFromFields("Patient", parseFieldsFlag("name:string:max=120,cpf:string:unique"));
    expect(text).toContain("name: { type: string, max: 120 }");
    expect(parse(text)).toEqual({
      name: "Patient",
      fields: { name: { type: "string", max: 120 }, cpf: { type: "string", unique: true } },
    });
  });
});
