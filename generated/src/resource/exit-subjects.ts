// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { userFieldValues, type UserFields } from "../auth/auth.service.js";
import type { NestedReader } from "../http/nested-access.js";
import { relationsOfKind, type TableSpec } from "../data/table.js";
import type { ResourceDescriptor } from "./descriptor.js";
import { recordedKeys } from "./event-changes.js";
import type { ExitLinks, ExitSubject } from "./exits.js";
import { hiddenByRole } from "./field-access.js";
import { ResourcePolicy, type Policy } from "./policy.js";
import type { Serializer } from "./serializer.js";

/*
 * What the exit gate (exits.ts) knows of each resource, from the same declarations its routes are
 * built from: the keys its events record, who may show its records, who may list its links.
 */

/** A resource as the registry holds it: its descriptor, policy, reader and serializer. */
export interface SubjectSource {
  readonly resource: ResourceDescriptor;
  readonly policy: Policy<never>;
  readonly reader: NestedReader;
  readonly serialize: Serializer;
}

/** A resource's subject; `sourceOf` finds the resource a relation points at. */
export function resourceSubject(
  source: SubjectSource,
  sourceOf: (table: TableSpec) => SubjectSource | undefined,
): ExitSubject {
  const { resource, policy, reader, serialize } = source;
  const links = relationsOfKind(resource.table, "belongsToMany").map(
    ([name, relation]): ExitLinks => {
      const target = sourceOf(relation.target());
      return {
        keys: [
          name,
          ...Object.keys(relation.pivotColumns ?? {}).map((column) => `${name}.${column}`),
        ],
        listPublic: target?.resource.publicActions?.includes("index") ?? false,
        ...(target?.resource.roles?.index ? { listRoles: target.resource.roles.index } : {}),
        narrowed: target === undefined ? { bypass: [] } : narrowing(target),
      };
    },
  );
  return {
    table: resource.table,
    prefix: resource.prefix,
    recorded: recordedKeys(resource),
    hiddenFrom: hiddenByRole(resource.visibleTo),
    reader,
    ...(resource.owner ? { owner: resource.owner } : {}),
    decidesPerRecord: policy.scope !== undefined || policy.show !== ResourcePolicy.prototype.show,
    links,
    serialize,
    ...(resource.files ? { files: new Set(Object.keys(resource.files)) } : {}),
  };
}

/** Whether a resource's records are reached record by record: by an owner, or its policy's scope. */
function narrowing(source: SubjectSource): ExitLinks["narrowed"] {
  if (source.policy.scope !== undefined) return { bypass: [] };
  if (source.resource.owner !== undefined) return { bypass: source.resource.owner.bypass };
  return false;
}

/**
 * The built-in users when no resource manages them (no /api/users): no role may read them, so only
 * the system does, which sees what a user is (never a password): its public id, name, e-mail,
 * role and the project's user fields.
 */
export function unmanagedUsersSubject(table: TableSpec, fields: UserFields): ExitSubject {
  const serialize: Serializer = (record) => {
    const { hash, name, email, role } = record as Record<string, unknown>;
    return { hash, name, email, role, ...userFieldValues(fields, record) };
  };
  return {
    table,
    prefix: "USR",
    recorded: ["name", "email", "role", ...Object.keys(fields)],
    hiddenFrom: () => undefined,
    reader: { public: false, showRoles: [] },
    decidesPerRecord: false,
    links: [],
    serialize,
  };
}
