// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request } from "express";
import { ownedPayload } from "./ownership.js";
import { serverSetFor } from "./server-set.js";
import { tenantWriteRule, type TenantWrites } from "./tenant-writes.js";
import type { WriteRules } from "./write-rules.js";
import type { FileAttachments } from "./file-attachments.js";

/** What a controller plans its writes with: its resource's tenant, and its (overridable) links' rule. */
export interface WritePlanning {
  readonly tenantWrites: TenantWrites;
  readonly linking: (req: Request, payload: object) => Pick<WriteRules, "links">;
  /** The resource's file fields: the uploads a payload names. */
  readonly files?: FileAttachments | undefined;
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

/**
 * A create or update planned (plannedWrite) with the files its payload names resolved (their tokens become the stored files)
 * and the rule that attaches them in its transaction; as it is without file fields.
 */
export async function filedWrite<T extends object>(
  planning: WritePlanning,
  req: Request,
  valid: T,
  creating: boolean,
): Promise<{ payload: T; rules: WriteRules }> {
  const planned = plannedWrite(planning, req, valid, creating);
  if (!planning.files) return planned;
  const { payload, files } = await planning.files.resolve(req, planned.payload);
  return files ? { payload, rules: { ...planned.rules, files } } : planned;
}
