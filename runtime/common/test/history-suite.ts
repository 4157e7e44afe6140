// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { expect, it } from "vitest";
import type { CurrentUser } from "../src/auth/auth.service.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import { explain, nextNumber, type Reply, type TestApi } from "./harness.js";

type Tester = { user: CurrentUser; token: string };
type Write = "update" | "destroy" | "restore";

/** What the history tests need of the resource suite (resource-suite.ts). */
export interface HistorySuiteContext {
  api(): TestApi<any>;
  resource: ResourceDescriptor<any, any, any, any>;
  collection: string;
  /** Creates a record (through the service: no actor) and returns its public id. */
  factory(api: TestApi, n: number): Promise<string>;
  /** A valid change of one field, as the updater may send it, when the resource has one. */
  update?: (n: number) => Record<string, unknown>;
  /** Who shows the record, and what `show` answers them: 200, 403 (policy) or 404 (out of reach). */
  shower(hash: string): Promise<Tester & { status: number }>;
  /** The tester who may perform a write on the record (role, policy, reach), or undefined. */
  writer(action: Write, hash: string): Promise<Tester | undefined>;
}

type Entry = {
  event: string;
  at: string;
  actor: { hash: string; name: string } | null;
  changes: Record<string, unknown[]>;
};

/**
 * A resource with `audit`: every write is an entry of `GET /{hash}/history`, newest first, with
 * who wrote it and what changed (never a field the reader may not see), readable exactly as the
 * record is (403 refused, 404 out of reach), paged by number and by cursor.
 */
export function describeHistory(context: HistorySuiteContext): void {
  const { collection, resource } = context;
  const event = resource.table.event;
  /** Output keys a role may not see (visibleTo). */
  const hiddenFrom = (role: string) =>
    Object.entries(resource.visibleTo ?? {})
      .filter(([, roles]) => !roles.includes(role))
      .map(([key]) => key);

  it.skipIf(!resource.audit)(
    "keeps every write in the record's history, readable as the record is",
    async () => {
      const api = context.api();
      const hash = await context.factory(api, nextNumber());
      const shower = await context.shower(hash);
      const read = async (query = ""): Promise<Reply> =>
        api.request("GET", `${collection}/${hash}/history${query}`, undefined, {
          token: shower.token,
        });
      const history = await read();
      expect(history.status, explain(history)).toBe(shower.status);
      if (shower.status !== 200) return;
      const entries = (reply: Reply) => reply.body.data as Entry[];
      const hidden = hiddenFrom(shower.user.role);
      const [created] = entries(history);
      expect(created).toMatchObject({ event: `${event}.created`, actor: null });
      expect(Number.isNaN(Date.parse(created!.at))).toBe(false);
      for (const [key, change] of Object.entries(created!.changes)) {
        expect(change[0], `${key} before it was created`).toBeNull();
        expect(hidden, `${key} is hidden from ${shower.user.role}`).not.toContain(key);
      }
      const expected = [`${event}.created`];

      const updater = context.update ? await context.writer("update", hash) : undefined;
      if (updater) {
        const change = context.update!(nextNumber());
        const updated = await api.request("PATCH", `${collection}/${hash}`, change, {
          token: updater.token,
        });
        expect(updated.status, explain(updated)).toBe(200);
        expected.unshift(`${event}.updated`);
        const [entry] = entries(await read());
        expect(entry).toMatchObject({
          event: `${event}.updated`,
          actor: { hash: updater.user.hash, name: updater.user.name },
        });
        for (const key of Object.keys(change).filter(
          (key) => key in updated.body.data && !hidden.includes(key),
        ))
          if (key in entry!.changes)
            expect(entry!.changes[key]![1], key).toEqual(updated.body.data[key]);
        for (const key of hidden)
          expect(entry!.changes, `${key} is hidden`).not.toHaveProperty(key);
      }

      const destroyer = await context.writer("destroy", hash);
      if (destroyer && resource.table.softDelete) {
        expect(
          (
            await api.request("DELETE", `${collection}/${hash}`, undefined, {
              token: destroyer.token,
            })
          ).status,
        ).toBe(200);
        expected.unshift(`${event}.deleted`);
        const restorer = await context.writer("restore", hash);
        if (restorer) {
          const restored = await api.request("POST", `${collection}/${hash}/restore`, undefined, {
            token: restorer.token,
          });
          expect(restored.status, explain(restored)).toBe(200);
          expected.unshift(`${event}.restored`);
        }
      }
      const all = await read(`?per_page=${expected.length}`);
      expect(entries(all).map((entry) => entry.event)).toEqual(expected);
      expect(all.body.meta.total).toBe(expected.length);

      // By cursor, one at a time: the same entries, in the same order, and back again.
      const walked: string[] = [];
      let page = await read("?per_page=1&cursor=");
      for (;;) {
        expect(page.status, explain(page)).toBe(200);
        walked.push(...entries(page).map((entry) => entry.event));
        if (page.body.meta.next_cursor === null) break;
        page = await read(`?per_page=1&cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
      }
      expect(walked).toEqual(expected);
      if (expected.length > 1) {
        const back = await read(
          `?per_page=1&cursor=${encodeURIComponent(page.body.meta.prev_cursor)}`,
        );
        expect(entries(back).map((entry) => entry.event)).toEqual([expected.at(-2)]);
      }
      const unknown = await read("?sort=at");
      expect(unknown.status, explain(unknown)).toBe(422);

      if (destroyer && !resource.table.softDelete) {
        expect(
          (
            await api.request("DELETE", `${collection}/${hash}`, undefined, {
              token: destroyer.token,
            })
          ).status,
        ).toBe(200);
        // The record is gone, and with it whoever could be asked whether the caller may read it.
        expect((await read()).status).toBe(404);
      }
    },
  );
}
