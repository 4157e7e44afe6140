// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { expect } from "vitest";
import type { CurrentUser } from "../src/auth/auth.service.js";
import type { AnyTable, TableSpec } from "../src/data/table.js";
import type { ResourceDescriptor } from "../src/resource/descriptor.js";
import { ResourceService } from "../src/resource/service.js";
import { tenantColumnOf } from "../src/resource/tenancy.js";
import type { TestApi } from "./harness.js";

/*
 * The generated tests of a tenanted resource (hashapi.yaml `tenancy`): every tester is a member of
 * one tenant with one of its roles, every request works in it (X-Tenant) and every record the
 * factories make belongs to it; the same API in a second tenant makes the records that must never
 * be reached from the first.
 */

/** What the tests need of a project's tenancy (test/support.ts). */
export interface TenantParts<Tables> {
  /** tenancy.roles, most privileged first. */
  readonly roles: readonly string[];
  /** The platform role the members sign in with: one that may create a tenant (tenancy.create). */
  readonly platformRole: string;
  /** The tenant resource, whose records are the tenants. */
  readonly resource: ResourceDescriptor<any, any, any, any>;
  /** Makes a tenant (a record of the tenant resource) through its service: its public id. */
  readonly make: (api: TestApi<Tables>) => Promise<string>;
}

/** Whether a resource's records belong to tenants in this project. */
export function tenanted(
  tenancy: TenantParts<any> | undefined,
  resource: ResourceDescriptor<any, any, any, any> | undefined,
): boolean {
  return tenancy !== undefined && tenantColumnOf(resource?.tenant) !== undefined;
}

/**
 * The API as a tenant's members test it: two tenants made, every tester a member of the first with
 * the role it is named by, requests and factories in the first, `tenant.elsewhere()` in the second.
 */
export async function withinTenants<Tables>(
  api: TestApi<Tables>,
  tenancy: TenantParts<Tables>,
  testers: ReadonlyMap<string, { user: CurrentUser; token: string }>,
  tableOf: (spec: TableSpec) => AnyTable,
  /** The testers' role on the platform (auth.roles), which they sign in with. */
  platformRole: string,
): Promise<TestApi<Tables>> {
  const [home, away] = [await tenancy.make(api), await tenancy.make(api)];
  const tenants = tableOf(tenancy.resource.table);
  const idOf = async (hash: string) => Number((await tenants.findOne({ hash }))!.id);
  const homeId = await idOf(home);
  for (const [role, tester] of testers) {
    const now = new Date();
    await api.db.run(
      `INSERT INTO "hashapi_memberships" ("tenant_id", "user_id", "role", "created_at", "updated_at") VALUES (${[1, 2, 3, 4, 5].map((n) => api.db.dialect.placeholder(n)).join(", ")})`,
      [homeId, tester.user.id, role, now, now],
    );
    tester.user.platformRole = platformRole;
    tester.user.tenant = { id: homeId, hash: home, role, bypass: false };
  }
  const inTenant = (hash: string, id: number): TestApi<Tables> => {
    const view: TestApi<Tables> = {
      ...api,
      service: (resource) => new TenantService(resource, tableOf(resource.table), tableOf, id),
      request: (method, path, body, options = {}) =>
        api.request(method, path, body, {
          ...options,
          headers: { "X-Tenant": hash, ...options.headers },
        }),
    };
    return view;
  };
  const awayView = inTenant(away, await idOf(away));
  const homeView = inTenant(home, homeId);
  homeView.tenant = { hash: home, elsewhere: () => awayView };
  expect((await homeView.request("GET", "/api/members")).status).toBe(200);
  return homeView;
}

/** A resource's service whose creates are the given tenant's, as a member's would be. */
class TenantService extends ResourceService<any, any, any, any> {
  constructor(
    resource: ResourceDescriptor<any, any, any, any>,
    table: AnyTable,
    tableOf: (spec: TableSpec) => AnyTable,
    private readonly tenantId: number,
  ) {
    super(resource, table as any, tableOf);
  }

  override create(payload: any, relations: readonly string[] = [], rules: any = {}) {
    const column = tenantColumnOf(this.resource.tenant);
    if (column === undefined || column === "id" || rules.tenant)
      return super.create(payload, relations, rules);
    const tenant = { id: this.tenantId, column, member: async () => {} };
    return super.create(payload, relations, { ...rules, tenant });
  }
}
