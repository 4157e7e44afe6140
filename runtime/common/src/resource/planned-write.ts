// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { ownedPayload } from "./ownership.js";
import { serverSetFor } from "./server-set.js";
import { tenantWriteRule, type TenantWrites } from "./tenant-writes.js";
import type { WriteRules } from "./write-rules.js";

/** What a controller plans its writes with: its resource's tenant, and its (overridable) links' rule. */
export interface WritePlanning {
  readonly tenantWrites: TenantWrites;
  readonly linking: (req: Request, payload: object) => Pick<WriteRules, "links">;
}

/**
 * A create or update's payload as written and the rules its write decides under: its owner (a
 * direct owner filled in, a parent that must be the caller's), what the server sets, the records
 * it links and, with tenancy, its tenant.
 */
export function plannedWrite<T extends object>(
  planning: WritePlanning,
  req: Request,
  payload: T,
  creating: boolean,
): { payload: T; rules: WriteRules } {
  const resource = planning.tenantWrites.resource;
  const withCaller = serverSetFor(resource, req.user?.hash, payload, creating);
  const owned = ownedPayload(resource.owner, req.user, withCaller, creating);
  return {
    payload: owned.payload,
    rules: {
      ...owned.rules,
      ...planning.linking(req, owned.payload),
      ...tenantWriteRule(planning.tenantWrites, req, creating ? "store" : "update"),
    },
  };
}
