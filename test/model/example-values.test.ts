import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { examplePayload, exampleValue, uniqueRoom, type PropertySchema } from "../../runtime/common/src/base/examples.js";
import { payloadValidators, type PayloadRules } from "../../runtime/common/src/base/validation.js";
import { buildResourceDeclaration } from "../../src/emit/resource-declaration.js";
import { HashapiError } from "../../src/errors.js";
import { unfillableFieldWarnings } from "../../src/model/unfillable.js";
import { loadModel } from "../../src/pipeline/generate.js";

/**
 * The values the generated tests and seed data make (runtime/common/src/base/examples.ts) pass the
 * resource's own validator, for specs drawn at random from the registry: every field type with the
 * options it takes, and explicit rules (size, digits, between, in, regex with an example, email, url,
 * uuid, confirmed, nullable, unique). Unique fields get a different value for each number.
 */

const word = fc.stringMatching(/^[a-z]{3,8}$/);
const lengthRange = fc.integer({ min: 1, max: 60 }).chain((max) => fc.record({ max: fc.constant(max), min: fc.integer({ min: 0, max }) }));
// Patterns with an example that matches them (the spec requires it to).
const patterns = fc.constantFrom(
  { pattern: "^[A-Z]{3}-[0-9]{4}$", example: "ABC-1234" },
  { pattern: "^97[89]-[0-9]{10}$", example: "978-0306406157" },
  { pattern: "^[a-z]+$", example: "abc" },
  { pattern: "^[0-9]{2}[A-Z]$", example: "12B" },
);

type FieldSpec = Record<string, unknown>;

const fieldSpec: fc.Arbitrary<FieldSpec> = fc.oneof(
  fc.record({ type: fc.constant("string"), range: fc.option(lengthRange, { nil: undefined }), length: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }), unique: fc.boolean(), nullable: fc.boolean() }).map(({ range, length, ...rest }) =>
    length !== undefined ? { ...rest, length } : { ...rest, ...(range ?? {}) },
  ),
  fc.record({ type: fc.constant("string"), pat: patterns, unique: fc.boolean() }).map(({ pat, ...rest }) => ({ ...rest, pattern: pat.pattern, example: pat.example })),
  fc.record({ type: fc.constant("text"), max: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }), nullable: fc.boolean() }),
  fc.record({ type: fc.constant("email"), max: fc.option(fc.integer({ min: 20, max: 255 }), { nil: undefined }), unique: fc.boolean(), nullable: fc.boolean() }),
  fc.record({ type: fc.constant("uuid"), unique: fc.boolean(), nullable: fc.boolean() }),
  fc.record({ type: fc.constant("enum"), values: fc.uniqueArray(word, { minLength: 1, maxLength: 5 }), nullable: fc.boolean() }),
  fc.record({ type: fc.constant("integer"), low: fc.integer({ min: -1_000_000, max: 1_000_000 }), span: fc.nat(2_000_000), bounded: fc.boolean(), unique: fc.boolean() }).map(({ low, span, bounded, ...rest }) =>
    bounded ? { ...rest, min: low, max: low + span } : rest,
  ),
  fc.record({ type: fc.constant("decimal"), precision: fc.integer({ min: 1, max: 12 }), scaleShare: fc.nat(100), bounds: fc.boolean() }).map(({ precision, scaleShare, bounds, ...rest }) => {
    const scale = Math.min(precision, scaleShare % 7);
    const largest = 10 ** (precision - scale) - 10 ** -scale;
    return { ...rest, precision, scale, ...(bounds && largest >= 1 ? { min: 0, max: Math.floor(largest) } : {}) };
  }),
  fc.record({ type: fc.constantFrom("boolean", "date", "datetime", "json"), nullable: fc.boolean() }),
);

/** Explicit create rules for a string field, beyond its type: the rules only `rules:` can give. */
const stringRules = fc.constantFrom<string[][]>(["size:8"], ["digits:6"], ["between:3,12"], ["in:red,green,blue"], ["url"], ["email"], ["confirmed"], ["min:2", "max:30"], ["uuid"], ["email", "max:10"], ["email", "max:8"]);

const typeRule: Record<string, string[]> = { string: ["string"], text: ["string"], email: ["email"], uuid: ["uuid"], enum: [], integer: ["integer"], decimal: ["numeric"], boolean: ["boolean"], date: ["date"], datetime: ["date"], json: [] };

const resourceSpec = fc
  .record({
    fields: fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{2,10}$/), fieldSpec), { minLength: 1, maxLength: 6, selector: ([name]) => name }),
    explicit: fc.option(fc.tuple(fc.nat(5), stringRules), { nil: undefined }),
  })
  .map(({ fields, explicit }) => {
    const spec: Record<string, unknown> = { name: "Thing", fields: Object.fromEntries(fields.map(([name, field]) => [`f_${name}`, field])) };
    // Explicit rules: every field listed (rules.create is the whole payload), one plain string field given extra rules.
    if (explicit !== undefined) {
      const [pick, extra] = explicit;
      const plain = fields.filter(([, field]) => field.type === "string" && field.pattern === undefined && field.length === undefined && field.max === undefined && field.min === undefined);
      if (plain.length > 0) {
        const chosen = plain[pick % plain.length]![0];
        spec.rules = {
          create: Object.fromEntries(
            fields.map(([name, field]) => {
              const base = [field.nullable ? "nullable" : "required", ...typeRule[String(field.type)]!];
              return [`f_${name}`, name === chosen ? ["required", "string", ...extra] : base];
            }),
          ),
        };
      }
    }
    return spec;
  });

/** Whether a field's values leave room for 41 different ones (a unique field's must then differ). */
function roomy(property: PropertySchema): boolean {
  const types = property.type === undefined ? [] : typeof property.type === "string" ? [property.type] : property.type;
  if (property.enum || types.includes("boolean")) return false;
  if (property["x-decimal"]) return property["x-decimal"].precision >= 3 && (property.maximum ?? Infinity) - (property.minimum ?? -Infinity) >= 1;
  if (property.minimum !== undefined && property.maximum !== undefined) return property.maximum - property.minimum >= 41;
  if (property.maxLength !== undefined) return property.maxLength >= 2;
  return true;
}

describe("example values (runtime/common/src/base/examples.ts) against random specs of the registry", () => {
  it("make payloads every resource's own create validator accepts, with unique fields distinct", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hashapi-examples-"));
    let valid = 0;
    try {
      await fc.assert(
        fc.asyncProperty(resourceSpec, async (spec) => {
          writeFileSync(join(dir, "thing.yaml"), stringify(spec));
          let model;
          try {
            model = await loadModel(dir);
          } catch (error) {
            if (error instanceof HashapiError) return; // a combination the spec format refuses: not this test's business
            throw error;
          }
          valid += 1;
          expect(unfillableFieldWarnings(model)).toEqual([]);
          const resource = model.resources[0]!;
          const declaration = buildResourceDeclaration(resource) as { validation: PayloadRules };
          const validate = payloadValidators<Record<string, unknown>>(declaration).create;
          const seen = new Map<string, Set<string>>();
          for (const n of [1, 2, 7, 35, 36, 999, 1_000_017, 31_400_002, 2_147_483_647, ...Array.from({ length: 32 }, (_, index) => 500_000 + index)]) {
            const payload = examplePayload(declaration.validation.create as never, n, (declaration as { unique?: Record<string, string> }).unique ?? {});
            expect(() => validate(structuredClone(payload)), `${JSON.stringify(spec)} n=${n} ${JSON.stringify(payload)}`).not.toThrow();
            for (const [key, value] of Object.entries(payload)) (seen.get(key) ?? seen.set(key, new Set()).get(key)!).add(JSON.stringify(value));
          }
          const properties = (declaration.validation.create.schema as { properties: Record<string, PropertySchema> }).properties;
          for (const field of resource.fields.filter((candidate) => candidate.unique && roomy(properties[candidate.name]!)))
            expect(seen.get(field.name)?.size, `${field.name} of ${JSON.stringify(spec)}`).toBe(41);
        }),
        { numRuns: 150, seed: process.env.CI ? 20261124 : undefined },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(valid).toBeGreaterThan(100);
  }, 120_000);

  it("falls back on the spec's example where a regex refuses the derived value, varied by n where the pattern allows", () => {
    const isbn: PropertySchema = { type: "string", pattern: "^97[89]-[0-9]{10}$", examples: ["978-0306406157"] };
    const values = [1, 2, 3, 12_345_678].map((n) => exampleValue(isbn, "isbn", n));
    expect(values).toEqual(["978-0306406151", "978-0306406152", "978-0306406153", "978-0312345678"]);
    expect(exampleValue({ type: "string", pattern: "^[A-Z]{3}$" }, "code", 1)).toBeUndefined();
    expect(exampleValue({ type: "string", pattern: "^x$", examples: ["x"] }, "code", 5)).toBe("x");
  });
});

describe("uniqueRoom: how many records a payload's unique fields leave room for", () => {
  const rules = {
    schema: {
      properties: {
        seen_at: { type: "integer", minimum: -4, maximum: 1 },
        level: { type: "string", enum: ["low", "mid", "high"] },
        code: { type: "string", pattern: "^[0-9]{2}$" },
        flag: { type: "boolean" },
        name: { type: "string", maxLength: 40 },
        count: { type: "integer" },
      },
    },
  };

  it("names the unique field of fewest values, and none when every one has plenty", () => {
    expect(uniqueRoom(rules, { seen_at: 1, level: 1, code: 1 })).toEqual({ field: "level", values: 3 });
    expect(uniqueRoom(rules, { seen_at: 1, code: 1 })).toEqual({ field: "seen_at", values: 6 });
    expect(uniqueRoom(rules, { code: 1 })).toEqual({ field: "code", values: 100 });
    expect(uniqueRoom(rules, { flag: 1, name: 1 })).toEqual({ field: "flag", values: 2 });
    expect(uniqueRoom(rules, { name: 1, count: 1 })).toBeUndefined();
    // A field that is not unique leaves room for any number.
    expect(uniqueRoom(rules, {})).toBeUndefined();
  });

  it("counts the values examplePayload reaches: that many consecutive numbers give that many distinct values", () => {
    const values = new Set(Array.from({ length: 6 }, (_, n) => examplePayload(rules, 100 + n, { seen_at: 1 }).seen_at));
    expect(values.size).toBe(6);
  });
});
