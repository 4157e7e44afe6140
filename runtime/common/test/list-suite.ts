// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { expect, it } from "vitest";
import { operatorsOf, type FilterOperator } from "../src/data/list-operators.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import { explain, nextNumber, type Reply, type TestApi } from "./harness.js";

/** What the list-query tests need of the resource suite (resource-suite.ts). */
export interface ListSuiteContext {
  api(): TestApi<any>;
  resource: ResourceDescriptor<any, any, any, any>;
  collection: string;
  idKey: string;
  /** Creates a record and returns its public id. */
  factory(api: TestApi, n: number): Promise<string>;
  /** The token of the tester who lists, or undefined when auth.roles or the policy refuses the list. */
  lister(): Promise<string | undefined>;
  /** Whether the lister reaches the record (ownership, the policy's scope). */
  reaches(hash: string): Promise<boolean>;
  /** The token of the tester who shows records, or undefined when refused. */
  shower(hash: string): Promise<string | undefined>;
}

type Row = Record<string, unknown>;

/** A value as a query string writes it: the record's own output form. */
const queryText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * The list queries a resource declares, exercised on its own records (issue 31: a project's tests
 * never ran `?search=`, filter operators, cursors or `?with=`, and stayed green while `?search=`
 * answered 500): search over its searchable fields with several words, each declared filter
 * operator with a record that matches and one that does not, a cursor walk forwards and back
 * against the page-number order, and `?with=` of every relation.
 */
export function describeListQueries(context: ListSuiteContext): void {
  const { collection, idKey } = context;
  const list = context.resource.list;

  // Newest first where the list may be sorted so, so that the records just made are on the first page.
  const newestFirst = list.sortable.includes("created_at") ? "&sort=-created_at" : "";

  /** Two records the lister reaches, as the lister's list outputs them; undefined when it lists none. */
  async function twoListed(): Promise<{ token: string; rows: Row[] } | undefined> {
    const api = context.api();
    const hashes = [
      await context.factory(api, nextNumber()),
      await context.factory(api, nextNumber()),
    ];
    const token = await context.lister();
    if (token === undefined) return undefined;
    const rows: Row[] = [];
    for (const hash of hashes)
      if (await context.reaches(hash)) rows.push(await findInList(api, token, hash));
    return rows.length === 2 ? { token, rows } : undefined;
  }

  /** A record of the lister's list, looked for page by page (bounded). */
  async function findInList(api: TestApi, token: string, hash: string): Promise<Row> {
    for (let page = 1; page <= 50; page += 1) {
      const path = `${collection}?per_page=${api.maxPerPage}&page=${page}${newestFirst}`;
      const reply = await api.request("GET", path, undefined, { token });
      expect(reply.status, explain(reply)).toBe(200);
      const rows = reply.body.data as Row[];
      const row = rows.find((candidate) => candidate[idKey] === hash);
      if (row) return row;
      if (rows.length < api.maxPerPage) break;
    }
    throw new Error(`${hash} is not in the list of ${collection}`);
  }

  /** The public ids of a filtered list's first page (newest first where it may be sorted so). */
  async function idsOf(token: string, query: string): Promise<string[]> {
    const api = context.api();
    const path = `${collection}?per_page=${api.maxPerPage}${newestFirst}&${query}`;
    const reply = await api.request("GET", path, undefined, { token });
    expect(reply.status, `${query}: ${explain(reply)}`).toBe(200);
    return (reply.body.data as Row[]).map((row) => row[idKey] as string);
  }

  if ((list.search ?? []).length > 0)
    it("searches every searchable field: each word in some field, in any case", async () => {
      const listed = await twoListed();
      if (!listed) return;
      const [record] = listed.rows as [Row];
      // One word of each searchable field the lister sees (a few characters of it), upper-cased.
      const words = (list.search ?? [])
        .map((field) => record[field])
        .filter((value): value is string => typeof value === "string" && value.trim() !== "")
        .map((value) => value.trim().split(/\s+/u)[0]!.slice(0, 12).toUpperCase());
      if (words.length === 0) return;
      const found = await idsOf(listed.token, `search=${encodeURIComponent(words.join(" "))}`);
      expect(found, `search=${words.join(" ")}`).toContain(record[idKey]);
    });

  const filterable = Object.entries(list.filters).filter(([, kind]) => kind !== "relation");
  if (filterable.length > 0)
    it("filters with each declared operator: the record that matches is listed, the one that does not is not", async () => {
      const listed = await twoListed();
      if (!listed) return;
      const [record] = listed.rows as [Row];
      const id = record[idKey] as string;
      for (const [field, kind] of filterable) {
        const value = record[field];
        // A field the lister does not see, or a record without a value: nothing to compare with.
        if (value === undefined || value === null || typeof value === "object") continue;
        const text = queryText(value);
        const operators: readonly FilterOperator[] = list.operators?.[field] ?? operatorsOf[kind];
        const expectations: [FilterOperator, string, boolean][] = [];
        for (const operator of operators) {
          if (operator === "eq" || operator === "gte" || operator === "lte")
            expectations.push([operator, text, true]);
          else if (operator === "ne" || operator === "gt" || operator === "lt")
            expectations.push([operator, text, false]);
          else if (operator === "in" && !text.includes(","))
            expectations.push([operator, text, true]);
          else if (operator === "nin" && !text.includes(","))
            expectations.push([operator, text, false]);
          else if (operator === "between" && !text.includes(","))
            expectations.push([operator, `${text},${text}`, true]);
          else if (operator === "null")
            expectations.push([operator, "false", true], [operator, "true", false]);
          else if (typeof value === "string" && value.length > 0) {
            const part =
              operator === "starts_with"
                ? value.slice(0, 8)
                : operator === "ends_with"
                  ? value.slice(-8)
                  : value.slice(1, 9) || value;
            if (part.trim() !== part || part === "") continue;
            expectations.push([operator, part.toUpperCase(), true]);
          }
        }
        for (const [operator, operand, matches] of expectations) {
          const query = `filter[${field}][${operator}]=${encodeURIComponent(operand)}`;
          const found = await idsOf(listed.token, query);
          if (matches) expect(found, query).toContain(id);
          else expect(found, query).not.toContain(id);
        }
      }
    });

  it("walks a cursor forwards and back through the same records as the page numbers", async () => {
    const listed = await twoListed();
    if (!listed) return;
    const api = context.api();
    const get = async (query: string): Promise<Reply> => {
      const reply = await api.request("GET", `${collection}?${query}`, undefined, {
        token: listed.token,
      });
      expect(reply.status, `${query}: ${explain(reply)}`).toBe(200);
      return reply;
    };
    const byNumber = (await get(`per_page=${api.maxPerPage}`)).body;
    if (byNumber.meta.total > api.maxPerPage) return;
    const expected = (byNumber.data as Row[]).map((row) => row[idKey]);
    const forwards: unknown[] = [];
    let page = await get("per_page=2&cursor=");
    for (let turn = 0; ; turn += 1) {
      forwards.push(...(page.body.data as Row[]).map((row) => row[idKey]));
      if (page.body.meta.next_cursor === null || turn > 60) break;
      page = await get(`per_page=2&cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
    }
    expect(forwards).toEqual(expected);
    const backwards: unknown[] = [];
    for (let turn = 0; ; turn += 1) {
      backwards.unshift(...(page.body.data as Row[]).map((row) => row[idKey]));
      if (page.body.meta.prev_cursor === null || turn > 60) break;
      page = await get(`per_page=2&cursor=${encodeURIComponent(page.body.meta.prev_cursor)}`);
    }
    expect(backwards).toEqual(expected);
  });

  // A page-number list reads its rows for output only (dates as stored, no join for a belongsTo it
  // never shows); a cursor page reads them as services do. Both must output the same records.
  it("outputs a page's records as a cursor page outputs them, nested relations too", async () => {
    const listed = await twoListed();
    if (!listed) return;
    const api = context.api();
    for (const relation of ["", ...list.relations]) {
      const query = `per_page=${api.maxPerPage}${relation === "" ? "" : `&with=${relation}`}`;
      const get = (more: string) =>
        api.request("GET", `${collection}?${query}${more}`, undefined, { token: listed.token });
      const byNumber = await get("");
      // 403: the tester's role may not read the related resource (its own show rules).
      if (byNumber.status === 403) continue;
      expect(byNumber.status, `${query}: ${explain(byNumber)}`).toBe(200);
      if (byNumber.body.meta.total > api.maxPerPage) return;
      const byCursor = await get("&cursor=");
      expect(byCursor.status, `${query}&cursor=: ${explain(byCursor)}`).toBe(200);
      expect(byNumber.body.data, query).toEqual(byCursor.body.data);
    }
  });

  if (list.relations.length > 0)
    it("nests every relation ?with= names: a record, null, or a list", async () => {
      const api = context.api();
      const hash = await context.factory(api, nextNumber());
      const token = await context.shower(hash);
      if (token === undefined) return;
      for (const relation of list.relations) {
        const reply = await api.request(
          "GET",
          `${collection}/${hash}?with=${relation}`,
          undefined,
          { token },
        );
        // 403: the tester's role may not read the related resource (its own show rules).
        expect([200, 403], `with=${relation}: ${explain(reply)}`).toContain(reply.status);
        if (reply.status === 200)
          expect(Object.hasOwn(reply.body.data, relation), `with=${relation}`).toBe(true);
      }
    });
}
