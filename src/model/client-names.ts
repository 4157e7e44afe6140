import { toPascal } from "./naming.js";
import type { ResourceRef } from "./types.js";

/*
 * The names the typed client (client/src/index.ts) exports: one place, read by the emitter that
 * writes them and by the spec check that refuses a set of specs in which two would be the same.
 */

/** Names the client's module declares once for the whole project. */
export const projectClientNames = ["UserHash", "UserRole", "CurrentUser", "RelatedUser", "ApiClient", "TextFilter", "RangeFilter"] as const;

/** The suffixes of the types each resource's name starts: `Patient`, `PatientHash`, … */
export const resourceTypeSuffixes = ["", "Hash", "Nested", "Loaded", "Create", "Update", "Relation", "SortKey", "Filter", "Params", "Types"] as const;

/** A record's public id type (the built-in users' is UserHash), and the record as nested in another's. */
export const hashTypeName = (target: Pick<ResourceRef, "names" | "builtIn">) => `${target.builtIn ? "User" : target.names.pascal}Hash`;
export const nestedTypeName = (target: Pick<ResourceRef, "names">) => `${target.names.pascal}Nested`;

/** A belongsToMany's pivot values on a linked record, and the body that links one. */
export const pivotTypeName = (resource: string, relation: string) => `${toPascal(resource)}${toPascal(relation)}Pivot`;
export const linkTypeName = (resource: string, relation: string) => `${toPascal(resource)}${toPascal(relation)}Link`;

/** Every type name the client declares for one resource (`builtInUsers`: /api/users, whose hash is UserHash). */
export function resourceClientNames(resource: string, manyRelations: readonly string[], builtInUsers = false): string[] {
  const pascal = toPascal(resource);
  return [
    ...resourceTypeSuffixes.filter((suffix) => !(builtInUsers && suffix === "Hash")).map((suffix) => `${pascal}${suffix}`),
    ...manyRelations.flatMap((relation) => [pivotTypeName(resource, relation), linkTypeName(resource, relation)]),
  ];
}
