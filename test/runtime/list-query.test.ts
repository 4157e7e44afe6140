import type { Request } from "express";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseListQuery, type ListSpec } from "../../runtime/common/src/http/list-query.js";
import { ValidationFailed } from "../../runtime/common/src/base/errors.js";

/** A list of patients: the kinds of filter a spec gives, search, a relation, soft delete. */
const spec: ListSpec = {
  sortable: ["name", "age", "created_at"],
  filters: { name: "string", age: "integer", status: "enum", doctor: "relation", active: "boolean" },
  values: { status: ["new", "seen"] },
  operators: { age: ["eq", "gt", "lt"] },
  search: ["name", "notes"],
  relations: ["doctor"],
  softDelete: true,
  defaultPerPage: 15,
  maxPerPage: 100,
};
const request = (query: Record<string, unknown>) => ({ query, path: "/api/patients", params: {} }) as unknown as Request;
const parse = (query: Record<string, unknown>, listSpec = spec) => parseListQuery(request(query), listSpec);
/** The 422's errors for a query, or undefined when it parses. */
function errorsOf(query: Record<string, unknown>, listSpec = spec): Record<string, string[]> | undefined {
  try {
    parse(query, listSpec);
    return undefined;
  } catch (error) {
    if (error instanceof ValidationFailed) return error.errors as Record<string, string[]>;
    throw error;
  }
}

describe("list query parameters (runtime/common/src/http/list-query.ts parseListQuery)", () => {
  it("defaults to the first page, the default size, creation order and no relation", () => {
    expect(parse({})).toEqual({ page: 1, perPage: 15, where: [], orderBy: [{ created_at: "asc" }, { id: "asc" }], relations: [], withTrashed: false });
  });

  it.each<[string, Record<string, unknown>, Partial<ReturnType<typeof parse>>]>([
    ["a page and its size", { page: "3", per_page: "100" }, { page: 3, perPage: 100 }],
    ["a sort, descending, before the tie-breakers", { sort: "-age,name" }, { orderBy: [{ age: "desc" }, { name: "asc" }, { created_at: "asc" }, { id: "asc" }] }],
    ["a sort on created_at replaces the default one", { sort: "-created_at" }, { orderBy: [{ created_at: "desc" }, { id: "asc" }] }],
    ["a relation to nest", { with: "doctor" }, { relations: ["doctor"] }],
    ["trashed records, as 1", { with_trashed: "1" }, { withTrashed: true }],
    ["the older exact match", { name: "Ana" }, { where: [{ column: "name", op: "eq", value: "Ana" }] }],
    ["a bracket exact match on an enum", { "filter[status]": "seen" }, { where: [{ column: "status", op: "eq", value: "seen" }] }],
    ["an operator the field allows, its value typed", { "filter[age][gt]": "30" }, { where: [{ column: "age", op: "gt", value: 30 }] }],
    ["a relation by hash", { doctor: "DOC_7KX9MQ2B" }, { where: [{ relation: "doctor", op: "eq", value: "DOC_7KX9MQ2B" }] }],
    ["a boolean as 0", { active: "0" }, { where: [{ column: "active", op: "eq", value: false }] }],
    ["search words, each in any searched field", { search: "ana  maria" }, { where: [{ all: [{ any: [{ column: "name", op: "contains", value: "ana" }, { column: "notes", op: "contains", value: "ana" }] }, { any: [{ column: "name", op: "contains", value: "maria" }, { column: "notes", op: "contains", value: "maria" }] }] }] }],
  ])("reads %s", (_title, query, expected) => {
    expect(parse(query)).toMatchObject(expected);
  });

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ["page 0", { page: "0" }, { page: ["The page field must be between 1 and 2147483647."] }],
    ["a size over the most", { per_page: "101" }, { per_page: ["The per page field must be between 1 and 100."] }],
    ["a sort field that is not sortable", { sort: "notes" }, { sort: ['The sort field "notes" is not one of: name, age, created_at.'] }],
    ["a sort field twice", { sort: "name,-name" }, { sort: ['The sort field "name" is given more than once.'] }],
    ["an unknown parameter", { colour: "red" }, { colour: ["The colour parameter is not supported."] }],
    ["an operator the field does not allow", { "filter[age][gte]": "3" }, { "filter.age": expect.any(Array) }],
    ["an enum value outside its values", { status: "gone" }, { status: ["The selected status is invalid."] }],
    ["a repeated parameter", { page: ["1", "2"] }, { page: ["The page parameter must be given once."] }],
    ["an exact match given twice, in two forms", { name: "a", "filter[name]": "b" }, { "filter.name": ["The name filter is given more than once."] }],
    ["a malformed filter key", { "filter[name": "a" }, { "filter[name": ["A filter is written filter[field]=value or filter[field][operator]=value."] }],
    ["a cursor where none is offered", { cursor: "" }, { cursor: ["The cursor parameter is not supported here."] }],
    ["a field of Object.prototype", { "filter[constructor]": "x" }, { "filter.constructor": ["The constructor field cannot be filtered."] }],
  ])("refuses %s with a 422 naming it", (_title, query, expected) => {
    expect(errorsOf(query)).toMatchObject(expected);
  });

  it("reports every problem of one query together", () => {
    expect(Object.keys(errorsOf({ page: "0", sort: "notes", colour: "red", status: "gone" }) ?? {}).sort()).toEqual(["colour", "page", "sort", "status"]);
  });

  it("refuses trashed records and search where the resource offers none", () => {
    const plain: ListSpec = { ...spec, softDelete: false, search: [] };
    expect(errorsOf({ with_trashed: "true", search: "x" }, plain)).toEqual({
      with_trashed: ["The with trashed parameter is not supported here."],
      search: ["The search parameter is not supported here."],
    });
  });

  it("never throws anything but a 422, whatever the query holds", () => {
    const key = fc.oneof(fc.constantFrom("page", "per_page", "sort", "with", "with_trashed", "search", "cursor", "name", "age", "status", "doctor", "active", "filter", "filter[age][gt]", "filter[name][in]", "filter[doctor][null]", "__proto__"), fc.string({ maxLength: 12 }));
    const value = fc.oneof(fc.string({ maxLength: 20 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), (query) => {
        try {
          const parsed = parse(query);
          expect(parsed.perPage).toBeLessThanOrEqual(spec.maxPerPage);
          expect(parsed.orderBy.at(-1)).toEqual({ id: "asc" });
        } catch (error) {
          if (!(error instanceof ValidationFailed)) throw error;
        }
      }),
      { numRuns: 2_000, seed: 47 },
    );
  });
});
