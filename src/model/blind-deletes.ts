import type { ResourceSpec, ValidSpecs } from "../spec/types.js";

/** Roles that may not delete a resource's records, and the resources that keep them from it. */
export interface BlindDelete {
  resource: ResourceSpec;
  roles: string[];
  /** The resources whose records can refuse the delete (onDelete: restrict) and these roles cannot all read. */
  blockers: string[];
}

/**
 * A delete that records the caller may not read can refuse (onDelete: restrict, answered 409) tells
 * the caller those records exist: a receptionist deleting a patient would learn that the patient has
 * medical records. Restrict must hold, and any refusal that depends on such records is that oracle,
 * so the only answer that reveals nothing is one decided before anything is read: a role that may
 * destroy a resource's records but cannot reach every record of a resource that restricts the delete
 * (its index closed to the role, or records owned by others) does not get destroy there (403, and
 * `hashapi generate` says so). Policy scopes are the project's code and are not seen here.
 */
export function blindDeletes(specs: ValidSpecs): BlindDelete[] {
  const byName = new Map(specs.resources.map((spec) => [spec.name, spec]));
  const blind: BlindDelete[] = [];
  for (const resource of specs.resources) {
    const destroyers = resource.auth?.roles?.destroy ?? specs.project.auth.roles;
    const blockers = specs.resources.filter((other) =>
      (other.relations ?? []).some((relation) => relation.type === "belongsTo" && relation.resource === resource.name && (relation.onDelete ?? "restrict") === "restrict"),
    );
    const blockedBy = new Map<string, string[]>();
    for (const role of destroyers)
      for (const blocker of blockers)
        if (!readsEvery(byName.get(blocker.name)!, role)) blockedBy.set(role, [...(blockedBy.get(role) ?? []), blocker.name]);
    if (blockedBy.size > 0) blind.push({ resource, roles: [...blockedBy.keys()], blockers: [...new Set([...blockedBy.values()].flat())] });
  }
  return blind;
}

/** Whether `role` lists every record of `spec`: its index is open to the role, and no owner narrows it. */
function readsEvery(spec: ResourceSpec, role: string): boolean {
  const index = spec.auth?.roles?.index;
  const listed = (spec.auth?.public ?? []).includes("index") || index === undefined || index.includes(role);
  const owned = spec.owner !== undefined && !(spec.owner.bypass ?? []).includes(role);
  return listed && !owned;
}

/** The destroy roles of a resource once the blind ones are taken out (undefined: as its spec says). */
export function destroyRoles(specs: ValidSpecs, resource: ResourceSpec, blind: readonly BlindDelete[]): string[] | undefined {
  const entry = blind.find((one) => one.resource === resource);
  if (!entry) return resource.auth?.roles?.destroy;
  const destroyers = resource.auth?.roles?.destroy ?? specs.project.auth.roles;
  return destroyers.filter((role) => !entry.roles.includes(role));
}

/** One warning per resource whose destroy some roles lose, naming them, the reason and the way out. */
export function blindDeleteWarnings(specs: ValidSpecs): string[] {
  return blindDeletes(specs).map(({ resource, roles, blockers }) => {
    const who = roles.length === 1 ? `the role ${roles[0]}` : `the roles ${roles.join(", ")}`;
    return `warning: ${resource.file} auth.roles.destroy: ${who} may not delete ${resource.name} records (403): ${blockers.join(", ")} records, which ${roles.length === 1 ? "it" : "they"} cannot all read, can refuse the delete, and the refusal would reveal them. Let ${roles.length === 1 ? "it" : "them"} read ${blockers.join(", ")} (index, owner bypass), or list destroy roles without ${roles.length === 1 ? "it" : "them"}.`;
  });
}
