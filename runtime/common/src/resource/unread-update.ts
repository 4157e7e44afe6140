// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { scopeList } from "../data/table.js";
import { ResourcePolicy } from "./policy.js";
import { ResourceService } from "./service.js";
import type { WriteRules } from "./write-rules.js";

/**
 * Whether a resource's updates may leave the record unread before their write (resource/
 * controller.ts updatedUnread): none of the code a project may override around an update is
 * overridden — the policy's update, the controller's beforeUpdate, validated and authorize, the
 * service's update. Each of them may look at the record or the request first, so a resource that
 * overrides any of them keeps the read, and what it overrides runs as it always did (the managed
 * users resource, whose service hashes passwords, is one).
 */
export function updatesWithoutRecord(
  controller: object,
  base: object,
  parts: { readonly policy: object; readonly service: object },
): boolean {
  const unchanged = (object: object, prototype: object, names: readonly string[]) =>
    names.every((name) => Reflect.get(object, name) === Reflect.get(prototype, name));
  return (
    unchanged(controller, base, ["beforeUpdate", "validated", "authorize"]) &&
    unchanged(parts.policy, ResourcePolicy.prototype, ["update"]) &&
    unchanged(parts.service, ResourceService.prototype, ["update", "updateUnread"])
  );
}

/**
 * Whether an update may find its record by hash in the write rather than read it first (resource/
 * controller.ts updatedUnread): no project code runs in its transaction (`locked`, `check`,
 * onWrite), whose refusal would not tell whether to read the record and try again, and no scope
 * runs through a parent, whose locking read takes longer for a record out of reach than for a
 * missing one (the read before answers both alike, in one statement).
 */
export function updatesByHash(rules: WriteRules): boolean {
  return (
    rules.locked === undefined &&
    rules.check === undefined &&
    rules.committing === undefined &&
    scopeList(rules.reach).every((scope) => scope.through === undefined)
  );
}
