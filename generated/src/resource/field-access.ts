// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ListSpec } from "../http/list-query.js";
import { emptyFieldErrors, ValidationFailed } from "../base/errors.js";
import type { AnyResource } from "./descriptor.js";

/*
 * Field visibility (`visibleTo`) and write access (`writableBy`) by role, decided once per role and
 * kept: the hot path only looks a role up in a map. A caller without a token has no role, and so
 * sees no field limited to roles.
 */

type RoleLists = Readonly<Record<string, readonly string[]>>;

/**
 * The service's own code (event handlers, jobs) as a reader: it sees every field a record outputs,
 * whatever `visibleTo` says, and still nothing outside the output allow-list (a password, a hidden
 * or removed field). No request can be this reader: it is not a string, and roles are.
 */
export const everyField: unique symbol = Symbol("every field");

/** Whose view a record is output for: a role, nobody signed in (undefined), or the service itself. */
export type Viewer = string | undefined | typeof everyField;

/** viewer → the keys of `visibleTo` that viewer may not see (undefined: it sees them all). */
export function hiddenByRole(
  visibleTo: RoleLists | undefined,
): (viewer: Viewer) => ReadonlySet<string> | undefined {
  return refusedByRole(visibleTo);
}

/** role → the keys of `fields` that role may not use; empty sets are not kept. */
function refusedByRole(
  fields: RoleLists | undefined,
): (role: Viewer) => ReadonlySet<string> | undefined {
  if (fields === undefined || Object.keys(fields).length === 0) return () => undefined;
  const cache = new Map<string, ReadonlySet<string> | undefined>();
  return (viewer) => {
    if (viewer === everyField) return undefined;
    const role = viewer ?? "";
    if (cache.has(role)) return cache.get(role);
    const refused = new Set(Object.keys(fields).filter((field) => !fields[field]!.includes(role)));
    const kept = refused.size > 0 ? refused : undefined;
    // Roles are few; anything else is a role since removed from the specs, which sees least.
    if (cache.size < 64) cache.set(role, kept);
    return kept;
  };
}

export interface FieldAccess {
  /** The output keys a viewer does not see, or undefined when it sees them all. */
  hiddenFrom(viewer: Viewer): ReadonlySet<string> | undefined;
  /** The list options of a role: no filter, sort or search on a field it does not see. */
  listSpecFor(role: string | undefined): ListSpec;
  /**
   * 422 "The … field is prohibited." for each key of `body` the role may not send, together with
   * the validator's own errors when it refused the body too (`failed`).
   */
  assertWritable(role: string | undefined, body: unknown, failed?: ValidationFailed): void;
}

/**
 * The payload keys only some roles may send: `writableBy` fields, and what the server sets (`set:`,
 * a direct owner), which only their bypass roles may name.
 */
export function payloadWriters(
  resource: Pick<AnyResource, "writableBy" | "setByServer" | "owner">,
): RoleLists {
  const { writableBy, setByServer, owner } = resource;
  return {
    ...writableBy,
    ...Object.fromEntries(Object.entries(setByServer ?? {}).map(([key, set]) => [key, set.bypass])),
    ...(owner?.payloadKey ? { [owner.payloadKey]: owner.bypass } : {}),
  };
}

export function fieldAccess(
  visibleTo: RoleLists | undefined,
  writableBy: RoleLists | undefined,
  listSpec: ListSpec,
): FieldAccess {
  const hiddenFrom = refusedByRole(visibleTo);
  const notWritable = refusedByRole(writableBy);
  const specs = new Map<string, ListSpec>();
  return {
    hiddenFrom,
    listSpecFor(role) {
      const hidden = hiddenFrom(role);
      if (hidden === undefined) return listSpec;
      const key = role ?? "";
      let spec = specs.get(key);
      if (spec === undefined) {
        spec = {
          ...listSpec,
          sortable: listSpec.sortable.filter((field) => !hidden.has(field)),
          filters: Object.fromEntries(
            Object.entries(listSpec.filters).filter(([field]) => !hidden.has(field)),
          ),
          // Searching a field one does not see would tell its content word by word: not searched.
          ...(listSpec.search
            ? { search: listSpec.search.filter((field) => !hidden.has(field)) }
            : {}),
        };
        if (specs.size < 64) specs.set(key, spec);
      }
      return spec;
    },
    assertWritable(role, body, failed) {
      const refused = notWritable(role);
      if (refused === undefined || body === null || typeof body !== "object" || Array.isArray(body))
        return;
      const prohibited = emptyFieldErrors();
      for (const key of Object.keys(body))
        if (refused.has(key))
          prohibited[key] = [`The ${key.replaceAll("_", " ")} field is prohibited.`];
      if (Object.keys(prohibited).length === 0) return;
      throw new ValidationFailed(
        Object.assign(emptyFieldErrors(), failed?.errors, prohibited),
        failed?.checked,
      );
    },
  };
}
