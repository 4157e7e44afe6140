import { describe, expect, it } from "vitest";
import { nextSort, paramsOf, queryOfState, stateOfQuery } from "../../runtime/admin/src/list-params.js";
import { href, parseRoute, type Route } from "../../runtime/admin/src/routes.js";
import { hashOf, inputText, InputError, payloadValue, shown, titleOf } from "../../runtime/admin/src/values.js";

/** The admin's pure parts (runtime/admin/src): its addresses, its list state, its values. */
describe("the admin's addresses", () => {
  const routes: [string, Route][] = [
    ["#/", { page: "home" }],
    ["#/patients", { page: "list", collection: "patients", query: "" }],
    ["#/patients?search=ana&page=2", { page: "list", collection: "patients", query: "search=ana&page=2" }],
    ["#/patients/trash", { page: "trash", collection: "patients", query: "" }],
    ["#/patients/new", { page: "new", collection: "patients" }],
    ["#/patients/PAT_7KX9MQ2B", { page: "record", collection: "patients", hash: "PAT_7KX9MQ2B" }],
    ["#/patients/PAT_7KX9MQ2B/edit", { page: "edit", collection: "patients", hash: "PAT_7KX9MQ2B" }],
    ["#/-/jobs", { page: "screen", screen: "jobs", query: "" }],
  ];

  it.each(routes)("reads %s, and writes it back the same", (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
    expect(href(route)).toBe(hash);
  });

  it("takes anything else for home: unknown screens, odd characters, deeper paths", () => {
    for (const hash of ["", "#", "#/-/nothing", "#/pa tients", "#/patients/PAT_1/edit/more", "#/<script>", "#/patients/%2F..%2F"])
      expect(parseRoute(hash), hash).toEqual({ page: "home" });
  });
});

describe("a list's state in the address", () => {
  it("reads the API's own list query, and writes the same query back", () => {
    const query = "filter%5Bname%5D%5Bcontains%5D=s%C3%ADl&filter%5Bstatus%5D%5Bin%5D=a%2Cb&search=ana&sort=-name&page=3&per_page=50";
    const state = stateOfQuery(query);
    expect(state).toEqual({
      search: "ana",
      sort: "-name",
      filters: [
        { field: "name", op: "contains", value: "síl" },
        { field: "status", op: "in", value: "a,b" },
      ],
      page: 3,
      perPage: 50,
      cursor: undefined,
    });
    expect(stateOfQuery(queryOfState(state))).toEqual(state);
  });

  it("keeps cursors and numbered pages apart, and leaves empty filters out (but not `null`)", () => {
    const state = stateOfQuery("cursor=&page=4");
    expect(paramsOf(state)).toEqual({ cursor: "" });
    expect(paramsOf({ ...state, cursor: undefined, filters: [{ field: "a", op: "eq", value: "" }, { field: "b", op: "null", value: "" }] })).toEqual({ filter: { b: { null: "" } }, page: 4 });
    expect(stateOfQuery("page=-1&per_page=x").page).toBe(1);
  });

  it("sorts a column ascending, then descending, then as the API does by default", () => {
    expect(nextSort("", "name")).toBe("name");
    expect(nextSort("name", "name")).toBe("-name");
    expect(nextSort("-name", "name")).toBe("");
    expect(nextSort("-cpf", "name")).toBe("name");
  });
});

describe("values between inputs and payloads", () => {
  const field = (type: string, nullable = false) => ({ type, nullable: nullable ? (true as const) : undefined, label: "Weight kg" }) as never;

  it("leaves an empty input out of a create, and clears it on an update", () => {
    expect(payloadValue(field("string"), "", "create")).toBeUndefined();
    expect(payloadValue(field("string"), "", "update")).toBe("");
    expect(payloadValue(field("integer", true), "", "update")).toBeNull();
  });

  it("sends numbers, booleans and UTC instants as the API reads them, and anything else as typed", () => {
    expect(payloadValue(field("integer"), "42", "create")).toBe(42);
    expect(payloadValue(field("integer"), "4x", "create")).toBe("4x");
    expect(payloadValue(field("decimal"), "12.50", "create")).toBe("12.50");
    expect(payloadValue(field("boolean"), "false", "create")).toBe(false);
    expect(payloadValue(field("datetime"), "2026-01-15T09:30", "create")).toBe("2026-01-15T09:30:00.000Z");
    expect(payloadValue(field("json"), '{"a":[1]}', "create")).toEqual({ a: [1] });
    expect(() => payloadValue(field("json"), "{nope", "create")).toThrow(new InputError("The weight kg field must be valid JSON."));
  });

  it("shows values for inputs and pages", () => {
    expect(inputText(field("datetime"), "2026-01-15T09:30:00.000Z")).toBe("2026-01-15T09:30");
    expect(inputText(field("belongsTo"), { hash: "DOC_AAAAAAAA", name: "Ana" })).toBe("DOC_AAAAAAAA");
    expect(inputText(field("string"), null)).toBe("");
    expect(shown(field("boolean"), true)).toBe("Yes");
    expect(shown(field("datetime"), "2026-01-15T09:30:00.000Z")).toBe("2026-01-15 09:30 UTC");
    expect(shown(field("file"), { name: "cv.pdf", size: 2048 })).toBe("cv.pdf (2.0 KB)");
    expect(shown(field("string"), undefined)).toBe("—");
  });

  it("names a record by its first title with a value, else its public id", () => {
    expect(titleOf({ hash: "PAT_AAAAAAAA", name: "  ", nick: "Bia" }, ["name", "nick"])).toBe("Bia");
    expect(titleOf({ public_id: "MED_AAAAAAAA" }, ["summary"])).toBe("MED_AAAAAAAA");
    expect(hashOf({ public_id: "MED_AAAAAAAA" })).toBe("MED_AAAAAAAA");
    expect(hashOf(42)).toBeUndefined();
  });
});
