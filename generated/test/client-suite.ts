// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { expect, it } from "vitest";
import { explain, nextNumber, type Reply, type TestApi } from "./harness.js";

/**
 * The routes of one collection as the typed client (client/src/index.ts) gives them: what each
 * generated test file hands the suite, typed by that resource's own types there.
 */
export interface ClientRoutes {
  list(params?: object): Promise<ClientResult>;
  get(hash: never, options?: object): Promise<ClientResult>;
  create(payload: never): Promise<ClientResult>;
  update(hash: never, payload: never): Promise<ClientResult>;
  delete(hash: never): Promise<ClientResult>;
  restore?(hash: never): Promise<ClientResult>;
  history?(hash: never, params?: object): Promise<ClientResult>;
}

type ClientResult =
  | { data: unknown; error?: undefined }
  | { data?: undefined; error: { status: number; errors?: object } };

/** What the client suite needs of the resource suite: the API, who performs each action, records. */
export interface ClientUnderTest {
  api(): TestApi<any>;
  collection: string;
  idKey: string;
  /** The resource's routes through the typed client, signed in with `token`. */
  routes(baseUrl: string, token: string): ClientRoutes;
  /** The token of the tester who performs an action (as the resource suite chooses them). */
  tokenFor(action: "index" | "store" | "show" | "update" | "destroy" | "restore"): string;
  payload(n: number): Promise<Record<string, unknown>>;
  update?: (n: number) => Record<string, unknown>;
  factory(n: number): Promise<string>;
  softDelete: boolean;
  /** `audit`: the record's history route. */
  audit: boolean;
}

/** The client gives the API's status: no error for a success, that status as the error's otherwise. */
function expectStatus(result: ClientResult, reply: Reply, what: string): void {
  const expected = reply.status < 400 ? undefined : reply.status;
  expect(result.error?.status, `${what}: ${explain(reply)}`).toBe(expected);
  if (reply.status === 422) expect(result.error?.errors, what).toEqual(reply.body.errors);
}

/** The same status, and for a success the envelope's data (a page: its data, links and meta). */
function expectSame(result: ClientResult, reply: Reply, what: string): void {
  expectStatus(result, reply, what);
  if (result.error !== undefined) return;
  const { data } = result as { data: unknown };
  if (reply.body.links !== undefined)
    expect(data, what).toEqual({
      data: reply.body.data,
      links: reply.body.links,
      meta: reply.body.meta,
    });
  else expect(data, what).toEqual(reply.body.data);
}

/**
 * Each action through the typed client beside the same request sent by hand, as the same tester:
 * every status, record, page and 422 the API answers, the client gives back (docs/decisions.md in
 * hashapi, "The typed client").
 */
export function describeClient(suite: ClientUnderTest): void {
  const { collection } = suite;
  type Action = Parameters<ClientUnderTest["tokenFor"]>[0];
  const routes = (action: Action) => suite.routes(suite.api().baseUrl, suite.tokenFor(action));
  const byHand = (action: Action, method: string, path: string, body?: unknown) =>
    suite.api().request(method, path, body, { token: suite.tokenFor(action) });

  it("reads through the typed client as the API answers: a record, a 404, a page", async () => {
    const hash = (await suite.factory(nextNumber())) as never;
    const path = `${collection}/${hash}`;
    expectSame(await routes("show").get(hash), await byHand("show", "GET", path), "show");
    const missing = `${String(hash).slice(0, -8)}AAAAAAAA` as never;
    const missingPath = `${collection}/${missing}`;
    expectSame(await routes("show").get(missing), await byHand("show", "GET", missingPath), "404");
    const page = `${collection}?per_page=2`;
    expectSame(
      await routes("index").list({ perPage: 2 }),
      await byHand("index", "GET", page),
      "list",
    );
    // A cursor is sealed afresh on each answer: the records are compared, not the cursors.
    const cursor = await routes("index").list({ cursor: "" });
    const cursorReply = await byHand("index", "GET", `${collection}?cursor=`);
    expectStatus(cursor, cursorReply, "a cursor page");
    if (cursor.error === undefined)
      expect((cursor.data as { data: unknown }).data).toEqual(cursorReply.body.data);
    if (suite.audit) {
      const history = `${path}/history?per_page=1`;
      expectSame(
        await routes("show").history!(hash, { perPage: 1 }),
        await byHand("show", "GET", history),
        "history",
      );
    }
  });

  it("writes through the typed client as the API answers: create, 422, update, delete", async () => {
    const created = await routes("store").create((await suite.payload(nextNumber())) as never);
    const sent = await byHand("store", "POST", collection, await suite.payload(nextNumber()));
    expectStatus(created, sent, "create");
    if (created.error === undefined)
      expect(Object.keys(created.data as object)).toEqual(Object.keys(sent.body.data));
    const empty = await routes("store").create({} as never);
    expectStatus(empty, await byHand("store", "POST", collection, {}), "an empty create");
    const [mine, other] = [await suite.factory(nextNumber()), await suite.factory(nextNumber())];
    if (suite.update) {
      const updated = await routes("update").update(
        mine as never,
        suite.update(nextNumber()) as never,
      );
      const patch = suite.update(nextNumber());
      expectStatus(
        updated,
        await byHand("update", "PATCH", `${collection}/${other}`, patch),
        "update",
      );
    }
    const deleted = await routes("destroy").delete(mine as never);
    const handDeleted = await byHand("destroy", "DELETE", `${collection}/${other}`);
    expectStatus(deleted, handDeleted, "delete");
    if (suite.softDelete && deleted.error === undefined) {
      const restored = await routes("restore").restore!(mine as never);
      const handRestored = await byHand("restore", "POST", `${collection}/${other}/restore`);
      expectStatus(restored, handRestored, "restore");
      if (restored.error === undefined)
        expect((restored.data as Record<string, unknown>)[suite.idKey]).toBe(mine);
    }
  });
}
