// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * One role's view of the admin's manifest (src/admin/admin.json, written by `hashapi generate`):
 * the resources it may list or show, the fields it sees (a hidden field's very name stays on the
 * server), which of them it may write, and the actions it may take. The pages draw only this, and
 * every request they make is decided again by the API as any other.
 */

/** `public`, `all` (every signed-in user) or the roles; loose, as TypeScript reads admin.json. */
type Access = string | readonly string[];

interface Field {
  readonly key: string;
  readonly output?: boolean;
  readonly type: string;
  readonly target?: string;
  readonly visibleTo?: readonly string[];
  readonly writableBy?: readonly string[];
  readonly create?: object;
  readonly update?: object;
}

interface Resource {
  readonly collection: string;
  /** With tenancy: a tenant's records (`member`: its role there decides) or the tenants (`self`). */
  readonly tenant?: string;
  readonly titles: readonly string[];
  readonly actions: Readonly<Partial<Record<string, Access>>>;
  readonly fields: readonly Field[];
  readonly links: readonly { readonly target: string; readonly pivot?: readonly Field[] }[];
  readonly references: readonly { readonly collection: string }[];
}

interface Extras {
  readonly invitations?: readonly string[];
  readonly deliveries?: string;
  readonly jobs?: string;
  readonly tenancy?: object;
}

/** The manifest as generated: every role's view at once. */
export interface AdminManifestJson {
  readonly title: string;
  readonly roles: readonly string[];
  readonly mfa: boolean;
  readonly reset: boolean;
  readonly resources: readonly Resource[];
  readonly extras: Extras;
}

/** Whether one of `roles` may take an action open to `access` (undefined: the action does not exist). */
export function allows(access: Access | undefined, roles: string | readonly string[]): boolean {
  const list = typeof roles === "string" ? [roles] : roles;
  // No role at all: a tenant's records before the caller works in a tenant.
  if (access === undefined || list.length === 0) return false;
  if (typeof access === "string") return access === "public" || access === "all";
  return list.some((role) => access.includes(role));
}

type Roles = readonly string[];
const sees = (field: Field, roles: Roles) =>
  !field.visibleTo || roles.some((role) => field.visibleTo!.includes(role));

/** A field as `role` meets it: no roles named, its inputs only where it may write it. */
function fieldFor(field: Field, roles: Roles, may: { store: boolean; update: boolean }): Field {
  const { visibleTo: _visible, writableBy, create, update, ...rest } = field;
  const writes = !writableBy || roles.some((role) => writableBy.includes(role));
  return {
    ...rest,
    ...(create && writes && may.store ? { create } : {}),
    ...(update && writes && may.update ? { update } : {}),
  };
}

function resourceFor(resource: Resource, decided: Decided, reached: ReadonlySet<string>): Resource {
  const { roles, storeRoles } = decided;
  const may = {
    store: allows(resource.actions.store, storeRoles),
    update: allows(resource.actions.update, roles),
  };
  // What it neither sees in a record nor may send (a payload-only key of a write it may not make) is left out.
  const fields = resource.fields
    .filter((field) => sees(field, roles))
    .map((field) => fieldFor(field, roles, may))
    .filter((field) => field.output !== false || field.create || field.update);
  const actions = Object.fromEntries(
    Object.entries(resource.actions)
      .filter(([name, access]) => allows(access, name === "store" ? storeRoles : roles))
      .map(([name]) => [name, "all" as const]),
  );
  return {
    ...resource,
    titles: resource.titles.filter((key) => fields.some((field) => field.key === key)),
    actions,
    fields,
    links: resource.links.filter((link) => reached.has(link.target)),
    references: resource.references.filter((reference) => reached.has(reference.collection)),
  };
}

/** The roles that decide a resource's actions for a caller; a create's apart (a new tenant's). */
interface Decided {
  readonly roles: Roles;
  readonly storeRoles: Roles;
}

/**
 * The roles that decide a resource for a caller: their platform role; with tenancy, on a tenant's
 * records their role in the tenant they work in (none: they choose one first), and on the tenants
 * themselves too, but for creating one (a platform route, as resource/routes.ts serves them).
 */
function rolesFor(resource: Resource, role: string, tenantRole: string | undefined): Decided {
  const inTenant = tenantRole === undefined ? [] : [tenantRole];
  if (resource.tenant === "member") return { roles: inTenant, storeRoles: inTenant };
  if (resource.tenant === "self") return { roles: inTenant, storeRoles: [role] };
  return { roles: [role], storeRoles: [role] };
}

/**
 * What a caller receives: the resources they may list or show, and their screens beside them.
 * `tenantRole`: their role in the tenant the request names (X-Tenant), with tenancy.
 */
export function adminViewFor(manifest: AdminManifestJson, role: string, tenantRole?: string) {
  const reachable = manifest.resources
    .map((resource) => ({ resource, decided: rolesFor(resource, role, tenantRole) }))
    .filter(
      ({ resource, decided: { roles, storeRoles } }) =>
        allows(resource.actions.index, roles) ||
        allows(resource.actions.show, roles) ||
        (resource.tenant === "self" && allows(resource.actions.store, storeRoles)),
    );
  const reached = new Set(reachable.map(({ resource }) => resource.collection));
  const { invitations, deliveries, jobs, tenancy } = manifest.extras;
  return {
    ...manifest,
    role,
    ...(tenantRole !== undefined ? { tenantRole } : {}),
    resources: reachable.map(({ resource, decided }) => resourceFor(resource, decided, reached)),
    extras: {
      ...(invitations?.includes(role) ? { invitations: [role] } : {}),
      ...(deliveries === role ? { deliveries } : {}),
      ...(jobs === role ? { jobs } : {}),
      ...(tenancy ? { tenancy } : {}),
      // Members: in a tenant they work in (their role there decides what the routes allow).
      ...(tenancy && tenantRole !== undefined ? { members: true } : {}),
    },
  };
}
