import { describe, expect, it } from "vitest";
import { defaultCollection, derivePrefix, pluralize, splitWords, toCamel, toKebab, toSnake } from "../../src/model/naming.js";

describe("prefix derivation (api-contract.md §2)", () => {
  it.each([
    ["Patient", "PAT"],
    ["Doctor", "DOC"],
    ["MedicalRecord", "MRE"],
    ["EmergencyAttendance", "EAM"],
    ["LabTestResultItem", "LTR"],
    ["LabTest", "LTA"],
    ["Ox", undefined],
    ["Box", "BOX"],
    ["HTTPLog", "HLT"],
  ])("%s → %s", (name, prefix) => expect(derivePrefix(name)).toBe(prefix));
});

describe("names", () => {
  it.each([
    ["MedicalRecord", ["Medical", "Record"], "medicalRecord", "medical_record", "medical-record", "medical-records"],
    ["Patient", ["Patient"], "patient", "patient", "patient", "patients"],
    ["Category", ["Category"], "category", "category", "category", "categories"],
    ["Address", ["Address"], "address", "address", "address", "addresses"],
    ["HTTPLog", ["HTTP", "Log"], "httpLog", "http_log", "http-log", "http-logs"],
    ["Person", ["Person"], "person", "person", "person", "people"],
    ["Day", ["Day"], "day", "day", "day", "days"],
  ])("%s", (name, words, camel, snake, kebab, collection) => {
    expect(splitWords(name)).toEqual(words);
    expect(toCamel(name)).toBe(camel);
    expect(toSnake(name)).toBe(snake);
    expect(toKebab(name)).toBe(kebab);
    expect(defaultCollection(name)).toBe(collection);
  });

  it("pluralizes only the last word", () => expect(pluralize("LabTestResultItem")).toBe("LabTestResultItems"));
});
