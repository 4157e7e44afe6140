// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { CurrentUser } from "../auth/auth.service.js";
import { emptyFieldErrors, ValidationFailed } from "../base/errors.js";
import { ownValue } from "../base/records.js";
import { bothScopes, type RowScope } from "../data/table.js";
import type { WriteRules } from "./write-rules.js";

/**
 * A resource's `owner:` as the specs decided it: the owning user's id is in `column`, on this table,
 * or on the parent record `through` names (`owner: { relation: doctor.user }`: the doctor's
 * `user_id`). `payloadKey` is the belongsTo a direct owner is set through.
 */
export interface OwnerSettings {
  readonly column: string;
  readonly through?: string;
  readonly payloadKey?: string;
  /** Roles that act on every record. */
  readonly bypass: readonly string[];
}

/** Whether the caller acts on every record (a bypass role) or only on its own. */
export function bypasses(owner: OwnerSettings, user: CurrentUser | undefined): boolean {
  return user !== undefined && owner.bypass.includes(user.role);
}

/**
 * The records a caller owns, as a scope of the statement that reads them; undefined for a bypass
 * role. A caller without a token owns nothing (owned resources have no public action anyway).
 */
export function ownerScope(
  owner: OwnerSettings | undefined,
  user: CurrentUser | undefined,
): RowScope | undefined {
  if (owner === undefined || bypasses(owner, user)) return undefined;
  const id = user?.id ?? -1;
  return owner.through === undefined
    ? { where: { [owner.column]: id } }
    : { through: { [owner.through]: { [owner.column]: id } } };
}

export { bothScopes };

/**
 * An owned resource's payload, made the caller's: a direct owner left out is the caller; a parent
 * the ownership runs through must be one the caller owns, which the write checks with the parent
 * locked (else the 422 of an unknown record). Bypass roles may name any.
 */
export function ownedPayload<T extends object>(
  owner: OwnerSettings | undefined,
  user: CurrentUser | undefined,
  payload: T,
  creating: boolean,
): { payload: T; rules: WriteRules } {
  if (owner === undefined) return { payload, rules: {} };
  const key = owner.payloadKey;
  if (creating && key !== undefined && ownValue(payload, key) == null && user)
    return { payload: { ...payload, [key]: user.hash }, rules: {} };
  if (owner.through === undefined || bypasses(owner, user)) return { payload, rules: {} };
  // A record of no parent would be nobody's: the caller could not reach what they just made (or
  // just moved to no parent).
  const parent = ownValue(payload, owner.through);
  if (parent === null || (creating && parent === undefined)) {
    const label = owner.through.replaceAll("_", " ");
    throw new ValidationFailed(
      Object.assign(emptyFieldErrors(), { [owner.through]: [`The ${label} field is required.`] }),
    );
  }
  const mine = { [owner.column]: user?.id ?? -1 };
  return { payload, rules: { parent: { relation: owner.through, where: mine } } };
}
