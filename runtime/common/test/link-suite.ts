// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { isDeepStrictEqual } from "node:util";
import { expect, it } from "vitest";
import type { CurrentUser } from "../src/auth/auth.service.js";
import { examplePayload, type PayloadSchema, type PropertySchema } from "../src/base/examples.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import { bothScopes, ownerScope } from "../src/resource/ownership.js";
import type { Policy } from "../src/resource/policy.js";
import { explain, nextNumber, type TestApi } from "./harness.js";

/** The other side of a belongsToMany, as the link tests need it. */
export interface LinkedResource {
  resource: ResourceDescriptor<any, any, any, any>;
  /** The project's policy of the related resource: linking needs `show` of the related record. */
  policy: Policy<any>;
  factory(api: TestApi, n: number): Promise<string>;
}

/** What the link tests need of the resource suite (resource-suite.ts). */
export interface LinkSuiteContext {
  api(): TestApi<any>;
  resource: ResourceDescriptor<any, any, any, any>;
  collection: string;
  idKey: string;
  factory(api: TestApi, n: number): Promise<string>;
  /** The tester who may update the record (auth.roles, the policy, its reach), or undefined. */
  updater(hash: string): Promise<{ user: CurrentUser; token: string } | undefined>;
  /** Each belongsToMany by name. */
  links: Readonly<Record<string, LinkedResource>>;
}

type Row = Record<string, unknown>;

/**
 * A pivot value as output holds it, compared with what was sent: a decimal is output as text at its
 * scale ("1.5" comes back "1.50"), a datetime in the output's own form.
 */
const sameValue = (sent: unknown, stored: unknown, property?: PropertySchema) => {
  if (typeof sent === "number" || (property?.["x-decimal"] && typeof sent === "string"))
    return Number(stored) === Number(sent);
  if (property?.format === "date-time" && typeof sent === "string" && typeof stored === "string")
    return Date.parse(stored) === Date.parse(sent);
  // A json value comes back as an equal value, not the same object.
  if (typeof sent === "object" && sent !== null) return isDeepStrictEqual(stored, sent);
  return stored === sent;
};

/**
 * A belongsToMany's routes on records the tests make (issue 31: the generated tests never linked
 * anything): `PUT /<c>/<h>/<relation>/<related>` with the pivot's values, the link listed with them
 * by `GET /<c>/<h>/<relation>` and nested by `?with=`, `DELETE` unlinking it (404 the second
 * time). A related record the tester may not show is refused as the API refuses it: 403 by role or
 * policy, 404 outside its reach.
 */
export function describeLinks(context: LinkSuiteContext): void {
  const { collection, idKey } = context;

  /** What linking answers when the tester may not show the related record: 403, 404, or undefined when it may. */
  async function refusal(
    link: LinkedResource,
    user: CurrentUser,
    related: string,
  ): Promise<number | undefined> {
    const target = link.resource;
    if (!(target.roles?.show?.includes(user.role) ?? true)) return 403;
    const table = context.api().service(target).table;
    const scope = bothScopes(link.policy.scope?.(user), ownerScope(target.owner, user));
    const record = await table.findOne({ hash: related, deleted: false }, [], { scope });
    if (record === null) return 404;
    return link.policy.show(user, record) ? undefined : 403;
  }

  for (const [name, link] of Object.entries(context.links))
    it(`links, lists with the link's values, nests and unlinks ${name} through its routes`, async () => {
      const api = context.api();
      const hash = await context.factory(api, nextNumber());
      const tester = await context.updater(hash);
      if (tester === undefined) return;
      const related = await link.factory(api, nextNumber());
      const pivot = context.resource.pivots?.[name];
      const values = pivot ? examplePayload(pivot, nextNumber()) : {};
      const pivotProperties = (pivot as PayloadSchema | undefined)?.schema.properties;
      const route = `${collection}/${hash}/${name}/${related}`;
      const linked = await api.request("PUT", route, values, { token: tester.token });
      const refused = await refusal(link, tester.user, related);
      if (refused !== undefined) {
        expect(linked.status, `PUT ${route}: ${explain(linked)}`).toBe(refused);
        return;
      }
      expect(linked.status, `PUT ${route}: ${explain(linked)}`).toBe(200);
      for (const [key, value] of Object.entries(values))
        expect(
          sameValue(value, (linked.body.data.pivot as Row)[key], pivotProperties?.[key]),
          `pivot.${key}: sent ${JSON.stringify(value)}, got ${JSON.stringify((linked.body.data.pivot as Row)[key])}`,
        ).toBe(true);

      // Listed with its values where the tester may list them (show here, index there).
      const listed = await api.request("GET", `${collection}/${hash}/${name}`, undefined, {
        token: tester.token,
      });
      expect([200, 403], explain(listed)).toContain(listed.status);
      if (listed.status === 200) {
        const row = (listed.body.data as Row[]).find(
          (entry) => entry.hash === related || entry.public_id === related,
        );
        expect(row, `${related} in GET ${collection}/${hash}/${name}`).toBeDefined();
        for (const [key, value] of Object.entries(values))
          expect(
            sameValue(value, (row!.pivot as Row)[key], pivotProperties?.[key]),
            `pivot.${key}`,
          ).toBe(true);
      }
      const nested = await api.request("GET", `${collection}/${hash}?with=${name}`, undefined, {
        token: tester.token,
      });
      if (nested.status === 200) {
        const rows = nested.body.data[name] as Row[];
        expect(rows.map((entry) => entry.hash ?? entry.public_id)).toContain(related);
        expect(nested.body.data[idKey]).toBe(hash);
      }

      const unlinked = await api.request("DELETE", route, undefined, { token: tester.token });
      expect(unlinked.status, `DELETE ${route}: ${explain(unlinked)}`).toBe(200);
      const again = await api.request("DELETE", route, undefined, { token: tester.token });
      expect(again.status, `DELETE ${route} again: ${explain(again)}`).toBe(404);
      if (listed.status === 200) {
        const after = await api.request("GET", `${collection}/${hash}/${name}`, undefined, {
          token: tester.token,
        });
        const ids = (after.body.data as Row[]).map((entry) => entry.hash ?? entry.public_id);
        expect(ids).not.toContain(related);
      }
    });
}
