import { actionTable } from "../model/actions.js";
import { defaultCollection } from "../model/naming.js";
import { didYouMean } from "./problem.js";
import type { CheckedResource } from "./resource-checks.js";
import type { SpecSource } from "./source.js";
import { setByServer } from "./set-by-server.js";
import type { Problem, ProjectSpec } from "./types.js";

/** The built-in user's own columns, which `auth.user.fields` cannot declare again. */
const builtInUserColumns = ["name", "email", "password", "role"];

/** hashapi.yaml's user fields: none may take a built-in column's name (`role` is `auth.roles`). */
export function checkUserFields(project: ProjectSpec, source: SpecSource): Problem[] {
  const builtIn = project.auth.user.fields
    .filter((field) => builtInUserColumns.includes(field.name))
    .map((field) =>
      source.problem(["auth", "user", "fields", field.name], field.name === "role" ? 'every user has a role already: list the roles under auth.roles (and auth.defaultRole), e.g. roles: [admin, staff]' : `"${field.name}" is a built-in field of every user`, "key"),
    );
  // `npm run user:create` gives a user its name, e-mail, password and role only.
  const unfilled = project.auth.user.fields
    .filter((field) => !builtInUserColumns.includes(field.name) && field.nullable !== true && field.default === undefined)
    .map((field) => source.problem(["auth", "user", "fields", field.name], `a user field must be nullable or have a default: npm run user:create sets name, email, password and role only`, "key"));
  return [...builtIn, ...unfilled];
}

/** hashapi.yaml's roles: the default role must be one of them. */
export function checkProjectRoles(project: ProjectSpec, source: SpecSource): Problem[] {
  if (project.auth.roles.includes(project.auth.defaultRole)) return [];
  return [source.problem(["auth", "defaultRole"], `unknown role "${project.auth.defaultRole}": it must be one of auth.roles (${project.auth.roles.join(", ")})${didYouMean(project.auth.defaultRole, project.auth.roles)}`)];
}

/**
 * `auth.users.manage`: roles of hashapi.yaml, and /api/users free (no resource may use the
 * collection `users` then).
 */
export function checkManagedUsers(project: ProjectSpec, source: SpecSource, resources: readonly CheckedResource[]): Problem[] {
  const managers = project.auth.manageUsers;
  if (managers === undefined) return [];
  const taken = resources
    .filter(({ spec }) => (spec.collection ?? defaultCollection(spec.name)) === "users")
    .map(({ spec, source: resource }) => resource.problem([spec.collection ? "collection" : "name"], `collection "users" is /api/users, the built-in users that hashapi.yaml's auth.users.manage serves; set another collection: here`));
  return [...unknownRoles(source, ["auth", "users", "manage"], managers, project), ...taken];
}

const noRolesDeclared = "roles need a list of them in hashapi.yaml (auth: { roles: [admin, …] })";

/** Each of `roles` (at `path`) that hashapi.yaml's auth.roles does not list, with a suggestion. */
function unknownRoles(source: SpecSource, path: (string | number)[], roles: readonly string[], project: ProjectSpec): Problem[] {
  return roles.flatMap((role, index) =>
    project.auth.roles.includes(role) ? [] : [source.problem([...path, index], `unknown role "${role}" (hashapi.yaml ${project.auth.rolesAt ?? "auth.roles"}: ${project.auth.roles.join(", ")})${didYouMean(role, project.auth.roles)}`)],
  );
}

/** Whether a create payload must hold the field: no null and no default to fall back on, or `required` in the create rules. */
function needsOnCreate(spec: CheckedResource["spec"], field: CheckedResource["spec"]["fields"][number]): boolean {
  if (field.set !== undefined) return false;
  return (!field.nullable && field.default === undefined) || (spec.rules?.create?.[field.name] ?? []).includes("required");
}

/**
 * The fields every create needs that only some roles may write: some role that may create a record
 * must be able to write them all, or no record could ever be created (each may be fine alone).
 */
function creatorWritesAll({ spec, source }: CheckedResource, project: ProjectSpec): Problem[] {
  const limited = spec.fields.filter((field) => field.writableBy && needsOnCreate(spec, field));
  if (limited.length < 2) return [];
  const creators = spec.auth?.roles?.store ?? project.auth.roles;
  if (creators.some((role) => limited.every((field) => field.writableBy!.includes(role)))) return [];
  const last = limited.at(-1)!;
  const who = limited.map((field) => `${field.name} (${field.writableBy!.join(", ")})`).join(", ");
  return [source.problem(["fields", last.name, "writableBy"], `every ${spec.name} needs ${who}, and no role that may create one (${creators.join(", ")}) may write them all: add one such role to each writableBy, or give one of them a default`, "key")];
}

/** `visibleTo` and `writableBy` of a resource's fields: roles of hashapi.yaml only. */
export function checkFieldRoles(resource: CheckedResource, project: ProjectSpec): Problem[] {
  const { spec, source } = resource;
  const problems: Problem[] = [];
  for (const field of spec.fields) {
    for (const option of ["visibleTo", "writableBy"] as const) {
      const roles = field[option];
      if (roles === undefined) continue;
      const path = ["fields", field.name, option];
      if (!project.auth.declaresRoles) {
        problems.push(source.problem(path, noRolesDeclared, "key"));
        continue;
      }
      problems.push(...unknownRoles(source, path, roles, project));
    }
    if (field.writableBy && field.visibleTo) {
      const blind = field.writableBy.filter((role) => !field.visibleTo!.includes(role));
      if (blind.length > 0) problems.push(source.problem(["fields", field.name, "writableBy"], `${blind.join(", ")} may write ${field.name} but not see it: add ${blind.length > 1 ? "them" : "it"} to visibleTo`, "key"));
    }
    // Hidden from everyone already: a role list would promise what serializer.hidden takes away.
    if (field.visibleTo && spec.serializer?.hidden?.includes(field.name))
      problems.push(source.problem(["fields", field.name, "visibleTo"], `${field.name} is hidden from everyone (serializer.hidden): visibleTo would show it to nobody; remove one of them`, "key"));
    // A value every record needs, that no role allowed to create may send: nobody could create one.
    const creators = spec.auth?.roles?.store ?? project.auth.roles;
    if (field.writableBy && needsOnCreate(spec, field) && project.auth.declaresRoles && !creators.some((role) => field.writableBy!.includes(role)))
      problems.push(source.problem(["fields", field.name, "writableBy"], `every ${spec.name} needs ${field.name}, and no role that may create one (${creators.join(", ")}) may write it: add one of them to writableBy, or give the field a default`, "key"));
  }
  if (problems.length === 0 && project.auth.declaresRoles) problems.push(...creatorWritesAll(resource, project));
  return problems;
}

/**
 * A resource's `auth.roles`: only with roles in hashapi.yaml, only roles listed there, only actions
 * the resource has, and never for a public action (a caller without a token has no role).
 */
export function checkResourceRoles({ spec, source }: CheckedResource, project: ProjectSpec): Problem[] {
  const problems: Problem[] = [];
  const publicActions = new Set<string>(spec.auth?.public ?? []);
  for (const [action, roles] of Object.entries(spec.auth?.roles ?? {})) {
    const path = ["auth", "roles", action];
    if (!project.auth.declaresRoles) {
      problems.push(source.problem(path, noRolesDeclared, "key"));
      continue;
    }
    if (actionTable.some((shape) => shape.name === action && shape.softDeleteOnly) && !spec.softDelete)
      problems.push(source.problem(path, `"${action}" exists only for resources with softDelete: true`, "key"));
    if (publicActions.has(action))
      problems.push(source.problem(path, `"${action}" is in auth.public: a caller without a token has no role. Remove it from auth.public or from auth.roles`, "key"));
    problems.push(...unknownRoles(source, path, roles ?? [], project));
  }
  return problems;
}


/**
 * `set:` on a relation (the server sets it to the caller): a belongsTo User only, not the direct
 * owner (which `owner:` sets already), on a resource whose create needs a token, bypass roles known.
 */
export function checkSetByServer(resource: CheckedResource, project: ProjectSpec): Problem[] {
  const { spec, source } = resource;
  const problems: Problem[] = [...checkServerSetFields(resource, project)];
  for (const relation of spec.relations ?? []) {
    const set = setByServer(relation);
    if (!set) continue;
    const at = ["relations", relation.name, "set"];
    if (relation.type !== "belongsTo" || relation.resource !== "User") {
      problems.push(source.problem(at, `only a belongsTo User can be set from the caller; ${relation.name} is a ${relation.type} of ${relation.resource}`, "key"));
      continue;
    }
    if (spec.owner?.relation === relation.name) problems.push(source.problem(at, `${relation.name} is the owner, which owner: sets from the caller already; remove set`, "key"));
    if ((spec.auth?.public ?? []).includes("store") || (set.on === "write" && (spec.auth?.public ?? []).includes("update")))
      problems.push(source.problem(at, `a caller without a token has no user to set ${relation.name} to: remove the public ${set.on === "write" ? "store and update" : "store"}, or set`, "key"));
    if (set.bypass.length > 0) {
      if (project.auth.declaresRoles) problems.push(...unknownRoles(source, [...at, "bypass"], set.bypass, project));
      else problems.push(source.problem([...at, "bypass"], noRolesDeclared));
    }
  }
  return problems;
}

/**
 * `set:` on a date or datetime field (the server sets the current time; the type check allows it
 * on no other type): not with a default or writableBy (bypass says who may send one), not required
 * by the create rules (no payload has to hold it), bypass roles known.
 */
function checkServerSetFields({ spec, source }: CheckedResource, project: ProjectSpec): Problem[] {
  const problems: Problem[] = [];
  for (const field of spec.fields) {
    const set = setByServer(field);
    if (!set) continue;
    const at = ["fields", field.name, "set"];
    if (field.default !== undefined) problems.push(source.problem(at, `the server sets ${field.name}: a default would never be used; remove default, or set`, "key"));
    if (field.writableBy) problems.push(source.problem(at, `the server sets ${field.name}: say who may send a value of their own with set: { on: ${set.on}, bypass: [${field.writableBy.join(", ")}] } instead of writableBy`, "key"));
    if ((spec.rules?.create?.[field.name] ?? []).includes("required"))
      problems.push(source.problem(["rules", "create", field.name], `the server sets ${field.name}: a payload never has to hold it; remove required`, "key"));
    if (set.bypass.length > 0) {
      if (project.auth.declaresRoles) problems.push(...unknownRoles(source, [...at, "bypass"], set.bypass, project));
      else problems.push(source.problem([...at, "bypass"], noRolesDeclared));
    }
  }
  return problems;
}

/**
 * `owner:`: a belongsTo path of one or two relations that ends at the built-in User, on a resource
 * without public actions (a caller without a token owns nothing), bypass roles of hashapi.yaml.
 */
export function checkOwner({ spec, source }: CheckedResource, resources: readonly CheckedResource[], project: ProjectSpec): Problem[] {
  if (spec.owner === undefined) return [];
  const problems: Problem[] = [];
  const [first, second] = spec.owner.relation.split(".") as [string, string | undefined];
  const belongsTo = (of: typeof spec, name: string) => (of.relations ?? []).find((relation) => relation.name === name && relation.type === "belongsTo");
  const hop = belongsTo(spec, first);
  const at = ["owner", "relation"];
  if (!hop) problems.push(source.problem(at, `"${first}" is not a belongsTo of ${spec.name}${didYouMean(first, (spec.relations ?? []).filter((relation) => relation.type === "belongsTo").map((relation) => relation.name))}`));
  else if (second === undefined) {
    if (hop.resource !== "User") problems.push(source.problem(at, `the owner must be a user: "${first}" points at ${hop.resource}. Point at its user (${first}.user, with a belongsTo User on ${hop.resource}) or at a belongsTo User of ${spec.name}`));
  } else {
    // A parent whose own file has errors (or that does not exist) is reported there.
    const parent = resources.find((candidate) => candidate.spec.name === hop.resource)?.spec;
    const last = parent ? belongsTo(parent, second) : undefined;
    if (parent && !last) problems.push(source.problem(at, `"${second}" is not a belongsTo of ${hop.resource}`));
    else if (last && last.resource !== "User") problems.push(source.problem(at, `the owner must be a user: ${hop.resource}.${second} points at ${last.resource}`));
  }
  const publicActions = spec.auth?.public ?? [];
  if (publicActions.length > 0) problems.push(source.problem(["auth", "public"], `${spec.name} has an owner, and a caller without a token owns nothing: remove auth.public or the owner`));
  const bypass = spec.owner.bypass ?? [];
  if (project.auth.declaresRoles) problems.push(...unknownRoles(source, ["owner", "bypass"], bypass, project));
  else problems.push(...bypass.map((_role, index) => source.problem(["owner", "bypass", index], noRolesDeclared)));
  return problems;
}
