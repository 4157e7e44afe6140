// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListQuery } from "../src/http/list-query.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import type { Policy } from "../src/resource/policy.js";
import { newHash } from "../src/base/hash-id.js";
import { sql } from "../src/db/database.js";
import { payloadWriters } from "../src/resource/field-access.js";
import { bothScopes, ownerScope } from "../src/resource/ownership.js";
import { tenantColumnOf, tenantScope } from "../src/resource/tenancy.js";
import { explain, hashPattern, nextNumber, type Reply, type TestApi } from "./harness.js";
import { describeClient, type ClientRoutes } from "./client-suite.js";
import { describeHistory } from "./history-suite.js";
import { describeLinks, type LinkedResource } from "./link-suite.js";
import { describeListQueries } from "./list-suite.js";
import { sampleFile } from "./file-samples.js";

/** What the generated tests of one resource need to know about it (see the <resource>.test.ts files). */
export interface ResourceUnderTest {
  title: string;
  /** The project's test API (test/support.ts): its app on a fresh database. */
  startApi(): Promise<TestApi<any>>;
  collection: string;
  idKey: string;
  prefix: string;
  resource: ResourceDescriptor<any, any, any, any>;
  /** The project's policy of this resource, asked for its verdict on every action a test takes. */
  policy: Policy<any>;
  /** A valid create payload; `n` makes unique values differ; `owner` owns it (see factory). */
  payload(api: TestApi, n: number, owner?: string): Promise<Record<string, unknown>>;
  /** Creates a record and returns its public id; with `owner` (a user's hash), it is that user's. */
  factory(api: TestApi, n: number, owner?: string): Promise<string>;
  required: string[];
  /** A valid change of one field, when the resource has one to change. */
  update?: (n: number) => Record<string, unknown>;
  softDelete: boolean;
  publicActions: string[];
  /** Each belongsToMany by name: the related resource, its policy and its factory. */
  links?: Readonly<Record<string, LinkedResource>>;
  /** The collection's routes through the project's typed client (client/src/index.ts). */
  /** `tenant`: with tenancy, the tenant the client works in (X-Tenant). */
  client?: (baseUrl: string, token: string, tenant?: string) => ClientRoutes;
}

type Action = "index" | "store" | "show" | "update" | "destroy" | "restore";

/** The list query a plain `GET /api/<collection>` is, as policies receive it. */
const plainList: ListQuery = {
  page: 1,
  perPage: 15,
  where: [],
  orderBy: [],
  relations: [],
  withTrashed: false,
};

function expectForbidden(reply: Reply, what: string): void {
  expect(reply.status, `${what}: the policy refuses it`).toBe(403);
  expect(reply.body).toEqual({
    type: "error",
    status: 403,
    message: "This action is unauthorized.",
  });
}

/** The payload keys a 422 refused only because their values are taken (`unique`). */
function takenKeys(reply: Reply): string[] {
  if (reply.status !== 422) return [];
  const errors = Object.entries((reply.body?.errors ?? {}) as Record<string, string[]>);
  const taken = errors.filter(([, messages]) =>
    messages.every((message) => message.endsWith("has already been taken.")),
  );
  return taken.length === errors.length ? taken.map(([key]) => key) : [];
}

/**
 * A second user of `role`, made straight in the users table (it never logs in): another owner in a
 * project with one role, where the testers are one per role.
 */
async function anotherUser(api: TestApi<any>, role: string): Promise<string> {
  const hash = newHash("USR");
  const now = new Date();
  const email = `${hash.toLowerCase()}@example.com`;
  await api.db.run(
    sql`INSERT INTO "users" ("hash", "name", "email", "password", "role", "created_at", "updated_at")
      VALUES (${hash}, ${"Another owner"}, ${email}, ${"!"}, ${role}, ${now}, ${now})`,
  );
  return hash;
}

/** The contract every resource keeps (docs/api-contract.md in hashapi), run against the real app on a fresh database. */
export function describeResource(resource: ResourceUnderTest): void {
  const { collection, idKey } = resource;

  describe(resource.title, () => {
    let api: TestApi<any>;
    beforeAll(async () => {
      api = await resource.startApi();
    });
    afterAll(async () => {
      await api.close();
    });

    /** auth.roles of an action: the roles that may perform it; undefined when every role may. */
    const rolesOf = (action: Action) =>
      // A new tenant is made by platform roles (tenancy.create), which its testers sign in with.
      action === "store" &&
      resource.resource.tenant &&
      "column" in resource.resource.tenant &&
      resource.resource.tenant.column === "id"
        ? undefined
        : resource.resource.roles?.[action];
    const owner = resource.resource.owner;
    /**
     * Who performs an action in these tests: a tester of the first role auth.roles allows, one that
     * bypasses ownership if any does (the records the factories make are the first role's).
     */
    const actor = (action: Action) => {
      const permitted = rolesOf(action) ?? api.roles;
      // A creator must be able to send every field each record needs (writableBy).
      const writesRequired = (role: string) =>
        resource.required.every(
          (field) => resource.resource.writableBy?.[field]?.includes(role) ?? true,
        );
      const creators = permitted.filter(writesRequired);
      const allowed = action === "store" && creators.length > 0 ? creators : permitted;
      const bypassing = allowed.find((role) => owner?.bypass.includes(role));
      const plain = rolesOf(action)?.[0] ?? api.user.role;
      // No role allowed at all (an empty auth.roles list): any tester, whom the action refuses.
      return api.as(bypassing ?? (allowed.includes(plain) ? plain : (allowed[0] ?? api.user.role)));
    };
    /** The reach of a tester: the policy's scope and the resource's ownership together. */
    const reachOf = (user: TestApi["user"]) =>
      bothScopes(
        bothScopes(resource.policy.scope?.(user), ownerScope(owner, user)),
        tenantScope(resource.resource.tenant, user),
      );
    const mayByRole = (action: Action) =>
      rolesOf(action)?.includes(actor(action).user.role) ?? true;
    /** Whether records are output with `key` (a timestamp the spec's serializer.hidden holds is not). */
    const outputs = (key: string) => resource.resource.output.includes(key);
    /** A payload without the fields the action's tester may not send (writableBy, a direct owner). */
    const writable = (action: Action, payload: Record<string, unknown>) => {
      const limits = payloadWriters(resource.resource);
      const role = actor(action).user.role;
      return Object.fromEntries(
        Object.entries(payload).filter(([key]) => limits[key]?.includes(role) ?? true),
      );
    };
    /**
     * A create payload its tester may send: the records it points at are the tester's own (a
     * parent the resource is owned through must be theirs), without the fields they may not write.
     */
    const storePayload = async (n: number) =>
      writable("store", await resource.payload(api, n, actor("store").user.hash));
    const send = (action: Action, method: string, path: string, body?: unknown) =>
      api.request(method, path, body, { token: actor(action).token });

    /**
     * The record lies outside the reach of the action's tester (the policy's scope): the API
     * answers 404, exactly as for a missing record. auth.roles answers before (403).
     */
    async function outOfReach(action: Action, hash: string, trashed = false): Promise<boolean> {
      if (!mayByRole(action)) return false;
      const scope = reachOf(actor(action).user);
      if (scope === undefined) return false;
      const table = api.service(resource.resource).table;
      return (await table.findOne({ hash, deleted: trashed }, [], { scope })) === null;
    }
    const expectNotFound = (reply: Reply, what: string) => {
      expect(reply.status, `${what}: outside the policy's scope`).toBe(404);
      expect(reply.body).toEqual({ type: "error", status: 404, message: "Resource not found." });
    };

    /** The verdict for the action's tester: auth.roles, then the project's policy (on the record `hash` names). */
    async function allows(
      action: Action,
      hash?: string,
      options: { trashed?: boolean } = {},
    ): Promise<boolean> {
      if (!mayByRole(action)) return false;
      const { policy } = resource;
      const user = actor(action).user;
      if (action === "index")
        return policy.index(user, { ...plainList, withTrashed: options.trashed ?? false });
      if (action === "store") return policy.store(user);
      const record = await api
        .service(resource.resource)
        .table.findOne({ hash, deleted: options.trashed ?? false });
      expect(record, `${hash} in the database`).not.toBeNull();
      if (action === "restore") return policy.restore?.(user, record) ?? true;
      return policy[action](user, record);
    }

    it("creates a record with a fresh public identifier (201)", async () => {
      const reply = await send("store", "POST", collection, await storePayload(nextNumber()));
      if (!(await allows("store"))) return expectForbidden(reply, "POST");
      expect(reply.status, explain(reply)).toBe(201);
      expect(reply.body.type).toBe("success");
      expect(reply.body.data[idKey]).toMatch(hashPattern(resource.prefix));
    });

    it("lists records with Laravel's links and meta", async () => {
      await resource.factory(api, nextNumber());
      const reply = await send("index", "GET", `${collection}?per_page=1`);
      if (!(await allows("index"))) return expectForbidden(reply, "GET");
      expect(reply.status, explain(reply)).toBe(200);
      expect(Array.isArray(reply.body.data)).toBe(true);
      // Within the policy's scope only: its total is what the tester may reach.
      const scope = reachOf(actor("index").user);
      const total = await api.service(resource.resource).table.count(scope ? { scope } : {});
      expect(reply.body.meta.total).toBe(total);
      expect(reply.body.data).toHaveLength(Math.min(1, total));
      if (total === 0) return;
      expect(reply.body.meta).toMatchObject({
        current_page: 1,
        per_page: 1,
        from: 1,
        to: 1,
        path: `${api.baseUrl}${collection}`,
      });
      expect(reply.body.links.first).toBe(`${api.baseUrl}${collection}?per_page=1&page=1`);
      expect(reply.body.links.prev).toBeNull();
    });

    it("rejects invalid list parameters with 422", async () => {
      for (const query of [
        "per_page=0",
        `per_page=${api.maxPerPage}1`,
        "page=0",
        "sort=nope",
        "with=nope",
        "unknown_filter=1",
        "per_page=1&per_page=2",
      ]) {
        const reply = await send("index", "GET", `${collection}?${query}`);
        // auth.roles answers before the query is read.
        expect(reply.status, query).toBe(mayByRole("index") ? 422 : 403);
      }
    });

    it("shows a record by its hash, and 404s for unknown or foreign hashes", async () => {
      const hash = await resource.factory(api, nextNumber());
      const shown = await send("show", "GET", `${collection}/${hash}`);
      if (await outOfReach("show", hash)) expectNotFound(shown, "GET");
      else if (await allows("show", hash)) {
        expect(shown.status, explain(shown)).toBe(200);
        expect(shown.body.data[idKey]).toBe(hash);
      } else expectForbidden(shown, "GET");
      for (const missing of [
        `${resource.prefix}_AAAAAAAA`,
        "1",
        "XYZ_AAAAAAAA",
        hash.toLowerCase(),
      ]) {
        const reply = await send("show", "GET", `${collection}/${missing}`);
        if (!mayByRole("show")) {
          expectForbidden(reply, `GET ${missing}`);
          continue;
        }
        expect(reply.status, missing).toBe(404);
        expect(reply.body).toEqual({ type: "error", status: 404, message: "Resource not found." });
      }
    });

    // With tenancy only (a resource whose records are a tenant's): no vacuous test elsewhere.
    if (tenantColumnOf(resource.resource.tenant) !== undefined)
      it("never reaches another tenant's record: 404 in every form, absent from every list", async () => {
        // A record of the second tenant, made as its own members would make it.
        if (!api.tenant)
          throw new Error("a tenanted resource's tests run in a tenant (test/tenants.ts)");
        const foreign = await resource.factory(api.tenant.elsewhere(), nextNumber());
        for (const [action, method] of [
          ["show", "GET"],
          ["update", "PATCH"],
          ["destroy", "DELETE"],
        ] as const) {
          if (!mayByRole(action)) continue;
          const body = method === "PATCH" ? (resource.update?.(nextNumber()) ?? {}) : undefined;
          expectNotFound(await send(action, method, `${collection}/${foreign}`, body), method);
        }
        if (!mayByRole("index") || !(await allows("index"))) return;
        const listed = await send("index", "GET", `${collection}?per_page=${api.maxPerPage}`);
        expect(listed.status, explain(listed)).toBe(200);
        expect(JSON.stringify(listed.body)).not.toContain(foreign);
        // The record is there all the same, for its own tenant's members.
        const theirs = api.tenant.elsewhere();
        const shown = await theirs.request("GET", `${collection}/${foreign}`, undefined, {
          token: actor("show").token,
        });
        expect(shown.status, "a member of one tenant only is no member of the other").toBe(403);
      });

    it("rejects an empty payload with 422 and Laravel's messages", async () => {
      const reply = await send("store", "POST", collection, {});
      // The policy is asked before the payload is read.
      if (!(await allows("store"))) return expectForbidden(reply, "POST");
      if (resource.required.length === 0) return expect([201, 422]).toContain(reply.status);
      expect(reply.status).toBe(422);
      expect(reply.body.message).toBe("The given data was invalid.");
      for (const key of resource.required)
        expect(reply.body.errors[key]).toContain(
          `The ${key.replaceAll("_", " ")} field is required.`,
        );
    });

    it("rejects a client-supplied hash or id, and unknown keys", async () => {
      const payload = await storePayload(nextNumber());
      const reply = await send("store", "POST", collection, {
        ...payload,
        hash: `${resource.prefix}_AAAAAAAA`,
        id: 1,
        unknown_key: true,
      });
      if (!(await allows("store"))) return expectForbidden(reply, "POST");
      expect(reply.status).toBe(422);
      expect(Object.keys(reply.body.errors).sort()).toEqual(["hash", "id", "unknown_key"]);
    });

    it.skipIf(resource.update === undefined)(
      "updates only the sent fields with PUT and PATCH",
      async () => {
        const hash = await resource.factory(api, nextNumber());
        const before = await api.service(resource.resource).table.findOne({ hash });
        for (const method of ["PUT", "PATCH"]) {
          const change = writable("update", resource.update!(nextNumber()));
          let reply = await send("update", method, `${collection}/${hash}`, change);
          // A unique field with room for a few values only (an integer of 0 to 2) may find the
          // value taken by a record another test made: the record's own value is then sent.
          const taken = takenKeys(reply);
          if (taken.length > 0 && taken.every((key) => before[key] !== undefined)) {
            const own = Object.fromEntries(taken.map((key) => [key, before[key]]));
            reply = await send("update", method, `${collection}/${hash}`, { ...change, ...own });
          }
          if (await outOfReach("update", hash)) {
            expectNotFound(reply, method);
            continue;
          }
          if (!(await allows("update", hash))) {
            expectForbidden(reply, method);
            continue;
          }
          expect(reply.status, explain(reply)).toBe(200);
          expect(reply.body.data[idKey]).toBe(hash);
          // Timestamps are output unless the spec hides them (serializer.hidden).
          if (outputs("created_at"))
            expect(reply.body.data.created_at).toBe(before.created_at.toISOString());
        }
      },
    );

    it(`deletes a record${resource.softDelete ? " softly, and restores it" : ""}`, async () => {
      const hash = await resource.factory(api, nextNumber());
      const unreachable = await outOfReach("destroy", hash);
      const mayDelete = await allows("destroy", hash);
      const deleted = await send("destroy", "DELETE", `${collection}/${hash}`);
      if (unreachable) return expectNotFound(deleted, "DELETE");
      if (!mayDelete) return expectForbidden(deleted, "DELETE");
      expect(deleted.status, explain(deleted)).toBe(200);
      expect(deleted.body).toEqual({ type: "success", status: 200, message: "Resource deleted." });
      expect((await send("show", "GET", `${collection}/${hash}`)).status).toBe(
        mayByRole("show") ? 404 : 403,
      );
      expect((await send("destroy", "DELETE", `${collection}/${hash}`)).status).toBe(404);
      if (!resource.softDelete) return;
      const trashed = await send(
        "index",
        "GET",
        `${collection}?with_trashed=true&per_page=${api.maxPerPage}`,
      );
      if (!(await allows("index", undefined, { trashed: true })))
        expectForbidden(trashed, "GET ?with_trashed=true");
      else if (!(await outOfReach("index", hash, true)))
        expect(trashed.body.data.map((record: Record<string, unknown>) => record[idKey])).toContain(
          hash,
        );
      const unreachableTrashed = await outOfReach("restore", hash, true);
      const mayRestore = await allows("restore", hash, { trashed: true });
      const restored = await send("restore", "POST", `${collection}/${hash}/restore`);
      if (unreachableTrashed) return expectNotFound(restored, "POST restore");
      if (!mayRestore) return expectForbidden(restored, "POST restore");
      expect(restored.status, explain(restored)).toBe(200);
      if (outputs("deleted_at")) expect(restored.body.data.deleted_at).toBeNull();
      expect((await send("show", "GET", `${collection}/${hash}`)).status).toBe(
        (await outOfReach("show", hash)) ? 404 : (await allows("show", hash)) ? 200 : 403,
      );
      expect((await send("restore", "POST", `${collection}/${hash}/restore`)).status).toBe(404);
    });

    it("answers 403 to every role auth.roles leaves out, before reading anything", async () => {
      const hash = await resource.factory(api, nextNumber());
      const calls: [Action, string, string][] = [
        ["index", "GET", collection],
        ["store", "POST", collection],
        ["show", "GET", `${collection}/${hash}`],
        ["update", "PATCH", `${collection}/${hash}`],
        ["destroy", "DELETE", `${collection}/${hash}`],
        ...(resource.softDelete
          ? [["restore", "POST", `${collection}/${hash}/restore`] as [Action, string, string]]
          : []),
      ];
      for (const [action, method, path] of calls) {
        const roles = rolesOf(action);
        if (roles === undefined) continue;
        for (const role of api.roles.filter((candidate) => !roles.includes(candidate))) {
          // A body that does not validate and a hash that exists: the role answers first.
          const body = method === "GET" || method === "DELETE" ? undefined : { "": 1 };
          const reply = await api.request(method, path, body, { token: api.as(role).token });
          expectForbidden(reply, `${role}: ${method} ${path}`);
        }
      }
      expect(
        (await api.service(resource.resource).table.findOne({ hash })) !== null,
        "the record is still there",
      ).toBe(true);
    });

    it("shows each role only the fields visibleTo lets it see, and refuses the fields writableBy keeps from it", async () => {
      const { visibleTo = {}, writableBy = {} } = resource.resource;
      if (Object.keys(visibleTo).length + Object.keys(writableBy).length === 0) return;
      const hash = await resource.factory(api, nextNumber());
      for (const role of api.roles) {
        const token = api.as(role).token;
        if (rolesOf("show")?.includes(role) ?? true) {
          const shown = await api.request("GET", `${collection}/${hash}`, undefined, { token });
          if (shown.status === 200)
            for (const [field, roles] of Object.entries(visibleTo))
              expect(field in shown.body.data, `${role} sees ${field}`).toBe(roles.includes(role));
        }
        for (const [field, roles] of Object.entries(visibleTo)) {
          if (roles.includes(role) || !(rolesOf("index")?.includes(role) ?? true)) continue;
          // A field the role does not see is no filter and no sort for it either.
          const list = (query: string) =>
            api.request("GET", `${collection}?${query}`, undefined, { token });
          if (resource.resource.list.filters[field] !== undefined)
            expect((await list(`${field}=x`)).status, `${role} filters on ${field}`).toBe(422);
          if (resource.resource.list.sortable.includes(field))
            expect((await list(`sort=${field}`)).status, `${role} sorts on ${field}`).toBe(422);
        }
        if (!(rolesOf("update")?.includes(role) ?? true)) continue;
        const scope = reachOf(api.as(role).user);
        const table = api.service(resource.resource).table;
        if (scope && (await table.findOne({ hash }, [], { scope })) === null) continue;
        for (const [field, roles] of Object.entries(writableBy)) {
          if (roles.includes(role)) continue;
          const path = `${collection}/${hash}`;
          const reply = await api.request("PATCH", path, { [field]: null }, { token });
          if (reply.status === 403) continue; // the policy refused the update itself
          expect(reply.status, `${role} writes ${field}`).toBe(422);
          expect(reply.body.errors[field]).toContain(
            `The ${field.replaceAll("_", " ")} field is prohibited.`,
          );
        }
      }
    });

    it("gives each owner only their own records, exactly as if the others did not exist", async () => {
      if (owner === undefined) return;
      // A role that owns records (not a bypass one), and may at least read them.
      const role = api.roles.find(
        (candidate) =>
          !owner.bypass.includes(candidate) && (rolesOf("show")?.includes(candidate) ?? true),
      );
      if (role === undefined) return;
      const me = api.as(role);
      const other = api.roles.find((candidate) => candidate !== role);
      const otherUser =
        other === undefined ? await anotherUser(api, role) : api.as(other).user.hash;
      const mine = await resource.factory(api, nextNumber(), me.user.hash);
      const theirs = await resource.factory(api, nextNumber(), otherUser);
      const as = (method: string, path: string, body?: unknown) =>
        api.request(method, path, body, { token: me.token });
      const missing = `${resource.prefix}_AAAAAAAA`;
      const table = api.service(resource.resource).table;
      // Mine is reachable unless the policy's own scope leaves it out too.
      const reachable =
        (await table.findOne({ hash: mine }, [], { scope: reachOf(me.user) ?? [] })) !== null;
      // Show: theirs answers exactly as a record that does not exist.
      const shown = await as("GET", `${collection}/${mine}`);
      if (shown.status !== 403) expect(shown.status, explain(shown)).toBe(reachable ? 200 : 404);
      const notMine = await as("GET", `${collection}/${theirs}`);
      const none = await as("GET", `${collection}/${missing}`);
      if (notMine.status !== 403) {
        expect(notMine.status).toBe(404);
        expect(notMine.body).toEqual(none.body);
      }
      // Update, delete, restore: the same 404, and their record is untouched.
      for (const [action, method, suffix] of [
        ["update", "PATCH", ""],
        ["destroy", "DELETE", ""],
        ["restore", "POST", "/restore"],
      ] as const) {
        if (action === "restore" && !resource.softDelete) continue;
        if (!(rolesOf(action)?.includes(role) ?? true)) continue;
        const body = method === "PATCH" ? {} : undefined;
        const reply = await as(method, `${collection}/${theirs}${suffix}`, body);
        expect(reply.status, `${method} another owner's record`).toBe(404);
      }
      expect(await api.service(resource.resource).table.findOne({ hash: theirs })).not.toBeNull();
      // Lists and their totals: only mine, whatever the filters say.
      if (rolesOf("index")?.includes(role) ?? true) {
        const listed = await as("GET", `${collection}?per_page=${api.maxPerPage}`);
        if (listed.status === 200) {
          const ids = listed.body.data.map((row: Record<string, unknown>) => row[idKey]);
          expect(ids.includes(mine)).toBe(reachable);
          expect(ids).not.toContain(theirs);
          expect(listed.body.meta.total).toBe(await table.count({ scope: reachOf(me.user) ?? [] }));
        }
      }
    });

    describeListQueries({
      api: () => api,
      resource: resource.resource,
      collection,
      idKey,
      factory: (testApi, n) => resource.factory(testApi, n),
      lister: async () => ((await allows("index")) ? actor("index").token : undefined),
      reaches: async (hash) => !(await outOfReach("index", hash)),
      shower: async (hash) =>
        !(await outOfReach("show", hash)) && (await allows("show", hash))
          ? actor("show").token
          : undefined,
    });

    describeLinks({
      api: () => api,
      resource: resource.resource,
      collection,
      idKey,
      factory: (testApi, n) => resource.factory(testApi, n),
      updater: async (hash) =>
        !(await outOfReach("update", hash)) && (await allows("update", hash))
          ? actor("update")
          : undefined,
      links: resource.links ?? {},
    });

    describeHistory({
      api: () => api,
      resource: resource.resource,
      collection,
      factory: (testApi, n) => resource.factory(testApi, n),
      ...(resource.update
        ? { update: (n: number) => writable("update", resource.update!(n)) }
        : {}),
      shower: async (hash) => {
        const status = (await outOfReach("show", hash))
          ? 404
          : (await allows("show", hash))
            ? 200
            : 403;
        return { ...actor("show"), status };
      },
      writer: async (action, hash) => {
        const trashed = action === "restore";
        return !(await outOfReach(action, hash, trashed)) &&
          (await allows(action, hash, { trashed }))
          ? actor(action)
          : undefined;
      },
    });

    if (resource.client)
      describeClient({
        api: () => api,
        collection,
        idKey,
        routes: (baseUrl, token) => resource.client!(baseUrl, token, api.tenant?.hash),
        tokenFor: (action) => actor(action).token,
        payload: storePayload,
        ...(resource.update ? { update: resource.update } : {}),
        factory: (n) => resource.factory(api, n),
        softDelete: resource.softDelete,
        audit: resource.resource.audit !== undefined,
      });

    // Resources with file fields: each one's file, sent by multipart, is typed and served to its readers.
    if (resource.resource.files)
      it("takes each file field's file by multipart, and serves it by the URL it outputs", async () => {
        for (const [field, rules] of Object.entries(resource.resource.files!)) {
          const sample = sampleFile(rules);
          const tester = actor("store");
          const writers = resource.resource.writableBy?.[field];
          if (!sample || (writers && !writers.includes(tester.user.role))) continue;
          const form = new FormData();
          form.append("payload", JSON.stringify(await storePayload(nextNumber())));
          form.append(field, new Blob([new Uint8Array(sample.bytes)]), sample.name);
          const response = await fetch(`${api.baseUrl}${collection}`, {
            method: "POST",
            headers: {
              Authorization: `Bearer ${tester.token}`,
              // With tenancy, the tenant the testers work in (test/tenants.ts).
              ...(api.tenant ? { "X-Tenant": api.tenant.hash } : {}),
            },
            body: form,
          });
          const reply = { status: response.status, body: await response.json() };
          if (!(await allows("store"))) return expectForbidden(reply as Reply, "POST");
          expect(reply.status, explain(reply)).toBe(201);
          const shown = reply.body.data[field];
          const readers = resource.resource.visibleTo?.[field];
          if (readers && !readers.includes(tester.user.role)) {
            expect(reply.body.data).not.toHaveProperty(field);
            continue;
          }
          if (!resource.resource.output.includes(field)) continue;
          expect(shown).toMatchObject({
            name: sample.name,
            size: sample.bytes.length,
            type: sample.type,
          });
          const url = String(shown.url).startsWith("http")
            ? String(shown.url)
            : `${api.baseUrl}${shown.url}`;
          const file = await fetch(url);
          expect(file.status).toBe(200);
          expect(file.headers.get("x-content-type-options")).toBe("nosniff");
          expect(Buffer.from(await file.arrayBuffer())).toEqual(sample.bytes);
          // A URL tampered with is the 404 of a missing record.
          const tampered = await fetch(url.replace(/.$/, (last) => (last === "0" ? "1" : "0")));
          expect(tampered.status).toBe(404);
        }
      });

    it("answers 401 with WWW-Authenticate on protected actions without a token", async () => {
      const hash = await resource.factory(api, nextNumber());
      const calls: [string, string, string][] = [
        ["GET", collection, "index"],
        ["POST", collection, "store"],
        ["GET", `${collection}/${hash}`, "show"],
        ["PATCH", `${collection}/${hash}`, "update"],
        ["DELETE", `${collection}/${hash}`, "destroy"],
      ];
      for (const [method, path, action] of calls) {
        const reply = await api.request(
          method,
          path,
          method === "GET" || method === "DELETE" ? undefined : {},
          { token: null },
        );
        if (resource.publicActions.includes(action)) {
          expect(reply.status, `${method} ${path}`).not.toBe(401);
          continue;
        }
        expect(reply.status, `${method} ${path}`).toBe(401);
        expect(reply.headers.get("www-authenticate")).toBe("Bearer");
        expect(reply.body).toEqual({ type: "error", status: 401, message: "Unauthenticated." });
      }
    });
  });
}
