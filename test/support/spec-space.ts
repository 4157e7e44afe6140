import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { stringify } from "yaml";

/**
 * Random spec sets drawn from the spec format (docs/spec-format.md), for the spec-space tests: a
 * project file (roles, database, user management) and 1–4 resources with fields of every type and
 * option, belongsTo (to each other, to themselves, to User), hasMany sides, belongsToMany with pivot
 * fields, soft delete, ownership, roles per action, public actions, hidden fields, eager loads.
 * Some sets are refused by `hashapi validate` (a combination the format forbids); the tests count
 * them apart and check that every accepted set generates a correct project.
 */
export interface SpecSet {
  project: Record<string, unknown>;
  resources: Record<string, unknown>[];
}

const resourceNames = ["Ticket", "Comment", "Organization", "Review", "Order", "Member", "Invoice"] as const;
// Four roles (issue 46: a test acted as a role that may not list, among four).
const allRoles = ["admin", "agent", "customer", "viewer"] as const;
const actions = ["index", "store", "show", "update", "destroy"] as const;

const fieldName = fc.stringMatching(/^[a-z]{2,9}$/).map((name) => `f_${name}`);
const roleSubset = fc.subarray([...allRoles], { minLength: 1 });

/** A default of the field's type (or null), sometimes. */
function defaultFor(type: string, nullable: boolean): fc.Arbitrary<unknown> {
  const byType: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.constantFrom("draft", "x"),
    text: fc.constant("none"),
    integer: fc.integer({ min: -5, max: 5 }),
    decimal: fc.constantFrom(0, 1.5),
    boolean: fc.boolean(),
    date: fc.constantFrom("2026-01-15", "now"),
    datetime: fc.constantFrom("2026-01-15T09:30:00Z", "now"),
    json: fc.constant({ a: 1 }),
  };
  const value = byType[type];
  if (!value) return fc.constant(undefined);
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: nullable ? fc.oneof(value, fc.constant(null)) : value });
}

/** A file field is nullable, unique nowhere, without a default or a server's value (spec-format "Files"). */
function fileField<T extends { nullable: boolean; unique: boolean; set: unknown; default: unknown }>(drawn: T): T {
  return { ...drawn, nullable: true, unique: false, set: undefined, default: undefined };
}

/** A file's rules, drawn from the string's shape: any type, documents by extension, an image, a media type. */
function fileOptions(shape: string, max: number | undefined): Record<string, unknown> {
  const size = max === undefined ? {} : { max: max * 10 };
  if (shape === "min") return { ...size, mimes: ["pdf", "txt"] };
  if (shape === "length") return { ...size, image: true, dimensions: { max_width: 4000 } };
  if (shape === "pattern") return { ...size, mimetypes: ["application/pdf", "image/*"] };
  return size;
}

/** One field: a type with the options it takes. */
const field: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    type: fc.constantFrom("string", "text", "email", "uuid", "enum", "integer", "decimal", "boolean", "date", "datetime", "json", "file"),
    nullable: fc.boolean(),
    unique: fc.boolean(),
    index: fc.boolean(),
    search: fc.boolean(),
    max: fc.option(fc.integer({ min: 5, max: 200 }), { nil: undefined }),
    narrowFilter: fc.option(fc.constantFrom<string[] | false>(["eq"], ["eq", "in"], false), { nil: undefined }),
    visibleTo: fc.option(roleSubset, { nil: undefined }),
    writable: fc.boolean(),
    precision: fc.integer({ min: 3, max: 15 }),
    set: fc.constantFrom<"create" | "write" | undefined>(undefined, undefined, "create", "write"),
    /** A string's further options: a minimum, an exact length, or a pattern with its example. */
    textShape: fc.constantFrom("plain", "plain", "min", "length", "pattern"),
    /** An integer's range: none, or a small one (six values, three), which a unique field fills. */
    range: fc.constantFrom<[number, number] | undefined>(undefined, undefined, undefined, [-4, 1], [0, 2]),
  })
  .chain((spec) => defaultFor(spec.type, spec.nullable).map((value) => ({ ...spec, default: value })))
  .map((drawn) => (drawn.type === "file" ? fileField(drawn) : drawn))
  .map(({ type, nullable, unique, index, search, max, narrowFilter, visibleTo, writable, precision, set, textShape, range, default: value }) => {
    // Dates and datetimes the server sets to the current time take no default and no writableBy.
    const serverSet = set !== undefined && (type === "date" || type === "datetime");
    const text = ["string", "text", "email"].includes(type);
    const uniqueAllowed = ["string", "email", "uuid", "integer"].includes(type) && unique;
    return {
      type,
      ...(nullable ? { nullable: true } : {}),
      ...(uniqueAllowed ? { unique: true } : {}),
      ...(index && !uniqueAllowed && type !== "json" && type !== "file" ? { index: true } : {}),
      ...(search && text ? { search: true } : {}),
      // A text field's trigram index turned off, from values already drawn (every seed keeps its sets).
      ...(text && index && !search && !uniqueAllowed ? { textIndex: false } : {}),
      ...(max !== undefined && ["string", "text", "email"].includes(type) && !(type === "string" && textShape === "length") ? { max: type === "email" ? Math.max(max, 20) : max } : {}),
      ...(type === "string" && textShape === "min" ? { min: 2 } : {}),
      ...(type === "string" && textShape === "length" ? { length: 8 } : {}),
      ...(type === "string" && textShape === "pattern" ? { pattern: "^[A-Z]{2}-[0-9]{3}$", example: "AB-123" } : {}),
      ...(type === "enum" ? { values: ["low", "mid", "high"] } : {}),
      ...(type === "integer" && range ? { min: range[0], max: range[1] } : {}),
      ...(type === "decimal" ? { precision, scale: Math.min(2, precision) } : {}),
      ...(narrowFilter !== undefined && type !== "json" && type !== "boolean" && type !== "file" ? { filter: narrowFilter } : {}),
      ...(type === "file" ? fileOptions(textShape, max) : {}),
      ...(visibleTo ? { visibleTo, ...(writable && !serverSet ? { writableBy: visibleTo } : {}) } : {}),
      ...(value !== undefined && !uniqueAllowed && !serverSet ? { default: type === "enum" ? "low" : type === "integer" && range && typeof value === "number" ? Math.min(Math.max(value, range[0]), range[1]) : value } : {}),
      ...(serverSet ? { set } : {}),
    };
  });

interface RelationDraft {
  name: string;
  kind: "belongsTo" | "belongsToMany";
  /** Index into the resources, or -1 for User. */
  target: number;
  required: boolean;
  onDelete: "restrict" | "cascade" | "setNull";
  /** Pivot fields of any type (and their options but those of lists, access and uniqueness). */
  pivot: [string, Record<string, unknown>][] | undefined;
}

const relation = (count: number): fc.Arbitrary<RelationDraft> =>
  fc.record({
    name: fc.stringMatching(/^[a-z]{3,8}$/).map((name) => `r_${name}`),
    kind: fc.constantFrom<RelationDraft["kind"]>("belongsTo", "belongsTo", "belongsToMany"),
    target: fc.integer({ min: -1, max: count - 1 }),
    required: fc.boolean(),
    onDelete: fc.constantFrom<RelationDraft["onDelete"]>("restrict", "cascade", "setNull"),
    pivot: fc.option(fc.uniqueArray(fc.tuple(fieldName, field), { minLength: 1, maxLength: 3, selector: ([name]) => name }), { nil: undefined }),
  });

const resourceDraft = (count: number) =>
  fc.record({
    /** hasMany sides on the targets of this resource's belongsTo. */
    inverse: fc.boolean(),
    /** Owned through a parent's belongsTo User (`owner: { relation: parent.user }`) when it has one. */
    ownedThrough: fc.boolean(),
    /** Fixed `seed:` rows, when a field is unique. */
    seeded: fc.boolean(),
    /** Explicit create and update rules instead of the derived ones. */
    explicitRules: fc.boolean(),
    tighten: fc.boolean(),
    /** `serializer.publicId: public_id`, a collection of its own, public writes, the other side of its links. */
    publicIdKey: fc.boolean(),
    ownCollection: fc.boolean(),
    publicWrites: fc.boolean(),
    inverseLinks: fc.boolean(),
    fields: fc.uniqueArray(fc.tuple(fieldName, field), { minLength: 1, maxLength: 5, selector: ([name]) => name }),
    relations: fc.uniqueArray(relation(count), { maxLength: 3, selector: (entry) => entry.name }),
    softDelete: fc.boolean(),
    owned: fc.boolean(),
    roles: fc.option(fc.dictionary(fc.constantFrom(...actions), roleSubset, { maxKeys: 3 }), { nil: undefined }),
    publicRead: fc.boolean(),
    hide: fc.nat(10),
    eager: fc.boolean(),
  });

/** A whole spec set: the project and its resources, related to each other. */
export const specSet: fc.Arbitrary<SpecSet> = fc
  .record({
    count: fc.integer({ min: 1, max: 4 }),
    roles: fc.boolean(),
    manageUsers: fc.boolean(),
    userFields: fc.uniqueArray(fc.tuple(fieldName, field), { maxLength: 2, selector: ([name]) => name }),
    database: fc.constantFrom("sqlite", "postgresql"),
  })
  .chain((top) => fc.record({ top: fc.constant(top), drafts: fc.array(resourceDraft(top.count), { minLength: top.count, maxLength: top.count }) }))
  .map(({ top, drafts }) => {
    const roles = top.roles ? [...allRoles] : undefined;
    // Fields of the built-in user: each nullable (user:create sets none of them), no role lists,
    // no list options, nothing the server sets.
    const userFields = Object.fromEntries(
      // uuid, json and file are not among the user fields' types.
      top.userFields.filter(([, spec]) => spec.type !== "uuid" && spec.type !== "json" && spec.type !== "file").map(([name, spec]) => {
        const { visibleTo: _v, writableBy: _w, search: _s, filter: _f, index: _i, textIndex: _t, set: _set, example: _e, pattern: _p, ...rest } = spec;
        return [`u_${name.slice(2)}`, { ...rest, nullable: true }];
      }),
    );
    // The account flows (issue 48), from values already drawn so that every seed keeps its sets:
    // mail with the reset in a third of the sets, sign-up (confirmed or not) and invitations in
    // some of those, a second factor anyone may set up in every other set.
    const mails = top.count % 3 === 0;
    const accounts = {
      ...(mails && top.count % 2 === 0 ? { signup: { verify: top.userFields.length % 2 === 0 } } : {}),
      ...(mails && roles && top.manageUsers ? { invitations: ["admin"] } : {}),
      ...(top.count % 2 === 1 ? { mfa: { optional: true } } : {}),
      ...(mails ? { passwords: { min: 8 + (top.count % 5) } } : {}),
    };
    const auth = {
      ...(roles ? { roles, ...(top.manageUsers ? { users: { manage: ["admin"] } } : {}) } : {}),
      ...(Object.keys(userFields).length > 0 ? { user: { fields: userFields } } : {}),
      ...accounts,
    };
    // A webhook of every event per role (the fuzz receives them, checks each against that role's
    // show), from values already drawn, so every seed keeps its sets.
    const webhooks = top.roles && top.manageUsers ? allRoles.map((role) => ({ name: role === "admin" ? "sink" : `sink-${role}`, url: `\${FUZZ_WEBHOOK_URL_${role.toUpperCase()}}`, secret: "${FUZZ_WEBHOOK_SECRET}", events: ["*"], ...(role === "admin" ? {} : { as: role }), retryHours: 0.001 })) : [];
    // Request limits (from a value already drawn), far above what a set's own tests and fuzz send:
    // the counting runs (and on PostgreSQL its table is migrated), a 429 never comes.
    const rateLimit = top.count % 2 === 0 ? { rateLimit: { anonymous: 1_000_000, signedIn: 1_000_000, ...(roles ? { roles: { admin: 1_000_000 } } : {}) } } : {};
    const project: Record<string, unknown> = {
      name: "spec-space",
      database: top.database,
      ...(Object.keys(auth).length > 0 ? { auth } : {}),
      ...(webhooks.length > 0 ? { webhooks } : {}),
      ...rateLimit,
      ...(mails ? { mail: { from: "Spec Space <no-reply@example.com>" } } : {}),
    };
    const resources = drafts.map((draft, index) => {
      const name = resourceNames[index]!;
      // Role lists need roles in hashapi.yaml: without them, none.
      const known = (list: readonly string[] | undefined) => (roles ? list : undefined);
      const fields = Object.fromEntries(
        draft.fields.map(([fieldName, spec]) => {
          const visibleTo = known(spec.visibleTo as string[] | undefined);
          const writableBy = known(spec.writableBy as string[] | undefined);
          const { visibleTo: _v, writableBy: _w, default: value, ...rest } = spec;
          // SQLite takes no json default (the format refuses it there).
          const kept = value !== undefined && !(spec.type === "json" && top.database === "sqlite") ? { default: value } : {};
          return [fieldName, { ...rest, ...kept, ...(visibleTo ? { visibleTo } : {}), ...(writableBy ? { writableBy } : {}) }];
        }),
      );
      const relations: Record<string, unknown> = {};
      const belongsTo: string[] = [];
      let ownerRelation: string | undefined;
      for (const entry of draft.relations) {
        const target = entry.target === -1 ? "User" : resourceNames[entry.target]!;
        if (entry.kind === "belongsToMany") {
          if (target === "User" || target === name) continue;
          relations[entry.name] = { type: "belongsToMany", resource: target, ...(entry.pivot && entry.pivot.some(([, spec]) => spec.type !== "file") ? { pivot: pivotFields(entry.pivot, top.database) } : {}) };
          continue;
        }
        const required = entry.required && target !== name;
        const onDelete = entry.onDelete === "setNull" && required ? "restrict" : entry.onDelete;
        // A relation to User is sometimes one the server sets from the caller (set: create | write).
        const set = target === "User" && entry.onDelete !== "restrict" && !draft.publicRead ? { set: entry.onDelete === "cascade" ? "create" : "write" } : {};
        relations[entry.name] = { type: "belongsTo", resource: target, ...(required ? { required: true } : {}), ...(target === "User" ? set : { onDelete }) };
        if (target !== name && target !== "User") belongsTo.push(entry.name);
        if (target === "User" && ownerRelation === undefined) ownerRelation = entry.name;
      }
      const owned = draft.owned && ownerRelation !== undefined;
      // owner: sets its own relation from the caller already (set: there is refused).
      if (owned) {
        const { set: _set, ...rest } = relations[ownerRelation!] as Record<string, unknown>;
        relations[ownerRelation!] = rest;
      }
      const hiddenCandidates = Object.keys(fields);
      const hidden = draft.hide < hiddenCandidates.length && draft.hide % 3 === 0 ? [hiddenCandidates[draft.hide]!] : [];
      // A hidden field is neither searched nor filtered by a list of operators (the format forbids it).
      for (const name of hidden) {
        const { search: _search, filter: _filter, visibleTo: _visible, writableBy: _writable, ...rest } = fields[name] as Record<string, unknown>;
        fields[name] = rest;
      }
      // Public actions take no role list (a caller without a token has no role).
      const publicRead = draft.publicRead && !owned;
      const publicActions = publicRead ? publicActionsOf(draft.publicWrites, relations) : [];
      const roleLists = draft.roles && roles ? Object.fromEntries(Object.entries(draft.roles).filter(([action]) => !publicActions.includes(action))) : undefined;
      // `audit` from a value already drawn, so that every seed keeps drawing the sets it drew before.
      const audit = draft.hide % 2 === 1 ? { audit: draft.hide > 6 ? { retainDays: draft.hide * 30 } : true } : {};
      return {
        name,
        ...(draft.softDelete ? { softDelete: true } : {}),
        ...audit,
        fields,
        ...(Object.keys(relations).length > 0 ? { relations } : {}),
        // A public resource may only nest public ones: eager loads are drawn for the others.
        ...(draft.eager && !publicRead && belongsTo.length > 0 ? { eagerLoad: [belongsTo[0]] } : {}),
        ...(owned ? { owner: { relation: ownerRelation, ...(roles ? { bypass: ["admin"] } : {}) } } : {}),
        ...(hidden.length > 0 || draft.publicIdKey ? { serializer: { ...(hidden.length > 0 ? { hidden } : {}), ...(draft.publicIdKey ? { publicId: "public_id" } : {}) } } : {}),
        ...(draft.ownCollection ? { collection: `${name.toLowerCase()}-items` } : {}),
        ...(roleLists || publicRead ? { auth: { ...(roleLists ? { roles: roleLists } : {}), ...(publicRead ? { public: publicActions } : {}) } } : {}),
        // An action's own limit (never reached), from a value already drawn.
        ...(draft.hide % 3 === 0 ? { rateLimit: { store: 1_000_000, ...(draft.softDelete ? { restore: 1_000_000 } : {}) } } : {}),
      };
    });
    for (const [index, resource] of resources.entries()) {
      const draft = drafts[index]!;
      if (draft.inverse) addInverseSides(resource, resources);
      if (draft.inverseLinks) addInverseLinks(resource, resources);
      if (draft.ownedThrough) ownThroughParent(resource, resources, roles !== undefined);
      if (draft.seeded) addSeedRows(resource);
      if (draft.explicitRules) addExplicitRules(resource, draft.tighten);
    }
    // Tenants (issue 49) in a third of the sets, from values already drawn so every seed keeps its sets.
    if ((top.count + top.userFields.length) % 3 === 1) addTenancy(project, resources, roles !== undefined);
    return { project, resources };
  });

/**
 * A tenanted set: a Workspace resource whose records are the tenants, with the role names of the
 * platform's as its tenant roles (so every drawn role list names tenant roles too), admins as the
 * bypass role. A resource that points at no other is sometimes global; one with a required
 * belongsTo to a tenanted resource takes its tenant through it; every other is the caller's tenant's.
 * A tenant's records have no public action.
 */
function addTenancy(project: Spec, resources: Spec[], withRoles: boolean): void {
  project.tenancy = { resource: "Workspace", roles: [...allRoles], ...(withRoles ? { bypass: ["admin"] } : {}) };
  // A set with request limits limits each tenant too (never reached, as the others).
  if (project.rateLimit) project.rateLimit = { ...(project.rateLimit as object), tenant: 1_000_000 };
  const global = new Set<string>();
  for (const [index, resource] of resources.entries()) {
    const relations = Object.values((resource.relations ?? {}) as Record<string, { resource: string }>);
    if (index % 3 === 2 && relations.every((relation) => relation.resource === "User")) global.add(String(resource.name));
  }
  for (const resource of resources) {
    // /api/members are the tenant's members: a Member resource takes a collection of its own.
    if (resource.name === "Member" && resource.collection === undefined) resource.collection = "member-items";
    if (global.has(String(resource.name))) {
      resource.tenant = "global";
      // Only bypass roles write a global resource: its write roles are theirs.
      const auth = (resource.auth ?? {}) as { roles?: Record<string, string[]> };
      for (const action of ["store", "update", "destroy", "restore"]) if (auth.roles?.[action]) auth.roles[action] = ["admin"];
      continue;
    }
    const relations = Object.entries((resource.relations ?? {}) as Record<string, { type: string; resource: string; required?: boolean }>);
    const parent = relations.find(([, relation]) => relation.type === "belongsTo" && relation.required && relation.resource !== "User" && relation.resource !== resource.name && !global.has(relation.resource));
    resource.tenant = parent && resources.indexOf(resource) % 2 === 1 ? { via: parent[0] } : true;
    const auth = resource.auth as { public?: unknown } | undefined;
    if (auth?.public) {
      delete auth.public;
      if (Object.keys(auth).length === 0) delete resource.auth;
    }
    // A belongsTo named tenant would be stored in tenant_id.
    if (resource.relations && "tenant" in (resource.relations as object)) delete (resource.relations as Record<string, unknown>).tenant;
  }
  resources.push({ name: "Workspace", fields: { w_name: { type: "string", max: 80 } } });
}

type Spec = Record<string, unknown>;

/** A link's pivot fields (`p_<name>`): a field's type and options, less those of lists, access and uniqueness. */
function pivotFields(drawn: [string, Spec][], database: string): Spec {
  return Object.fromEntries(
    // A link holds no file (spec-format "Files").
    drawn.filter(([, spec]) => spec.type !== "file").map(([name, spec]) => {
      const { unique: _u, index: _i, textIndex: _t, search: _s, filter: _f, visibleTo: _v, writableBy: _w, set: _set, ...rest } = spec;
      // SQLite takes no json default (the format refuses it there).
      const kept = rest.type === "json" && database === "sqlite" ? (({ default: _d, ...others }) => others)(rest) : rest;
      return [`p_${name.slice(2)}`, kept];
    }),
  );
}
const relationsOf = (resource: Spec) => (resource.relations ?? {}) as Record<string, Spec>;
const fieldsOf = (resource: Spec) => resource.fields as Record<string, Spec>;

/** A hasMany on the target of each belongsTo between two resources, naming its belongsTo (`inverse`). */
function addInverseSides(resource: Spec, resources: Spec[]): void {
  for (const [name, relation] of Object.entries(relationsOf(resource))) {
    const target = resources.find((candidate) => candidate.name === relation.resource);
    if (relation.type !== "belongsTo" || !target || target === resource) continue;
    target.relations = { ...relationsOf(target), [`h_${String(resource.name).toLowerCase()}_${name.slice(2)}`]: { type: "hasMany", resource: resource.name, inverse: name } };
  }
}

/** Public reads, and sometimes public writes where no relation needs a caller (`set:`). */
function publicActionsOf(writes: boolean, relations: Record<string, unknown>): string[] {
  const needsCaller = Object.values(relations).some((relation) => (relation as Spec).set !== undefined);
  return writes && !needsCaller ? ["index", "show", "store", "update", "destroy"] : ["index", "show"];
}

/** The other side of each belongsToMany, declared on its target with `inverse:`. */
function addInverseLinks(resource: Spec, resources: Spec[]): void {
  for (const [name, relation] of Object.entries(relationsOf(resource))) {
    const target = resources.find((candidate) => candidate.name === relation.resource);
    if (relation.type !== "belongsToMany" || relation.inverse !== undefined || !target || target === resource) continue;
    target.relations = { ...relationsOf(target), [`l_${String(resource.name).toLowerCase()}_${name.slice(2)}`]: { type: "belongsToMany", resource: resource.name, inverse: name } };
  }
}

/** `owner: { relation: parent.user }` through a belongsTo whose target has a belongsTo User. */
function ownThroughParent(resource: Spec, resources: Spec[], withRoles: boolean): void {
  if (resource.owner || (resource.auth as { public?: unknown } | undefined)?.public) return;
  for (const [name, relation] of Object.entries(relationsOf(resource))) {
    const parent = resources.find((candidate) => candidate.name === relation.resource);
    if (relation.type !== "belongsTo" || !parent || parent === resource) continue;
    const user = Object.entries(relationsOf(parent)).find(([, hop]) => hop.type === "belongsTo" && hop.resource === "User");
    if (!user) continue;
    resource.owner = { relation: `${name}.${user[0]}`, ...(withRoles ? { bypass: ["admin"] } : {}) };
    return;
  }
}

/** A value of each type for a fixed seed row (`row` tells rows apart where a value must be unique). */
function seedValue(field: Spec, row: number): unknown {
  switch (field.type) {
    case "email":
      // Short: explicit rules may tighten an e-mail's max to 10 (a row past it is the user's error).
      return `s${row}@x.io`;
    case "integer":
      // Within the field's range (validate refuses a row past it): rows count up from its min.
      return typeof field.min === "number" ? field.min + row - 1 : row;
    case "decimal":
      return 1.5;
    case "boolean":
      return true;
    case "date":
      return "2026-01-15";
    case "datetime":
      return "2026-01-15T09:30:00Z";
    case "enum":
      return "low";
    case "uuid":
      return `0b7e4c1a-3f9d-4e2b-9a61-5d8c2f0e7b3${row}`;
    case "json":
      return { a: row };
    default:
      // A string's own options hold for seed rows too: its pattern (the drawn one), its exact length.
      if (field.pattern !== undefined) return `AB-10${row}`;
      return typeof field.length === "number" ? `S${row}`.padEnd(field.length, "x") : `S${row}`;
  }
}

/** Two fixed rows keyed by the first unique field, with every field a record needs (fields only: no required relation). */
function addSeedRows(resource: Spec): void {
  if (Object.values(relationsOf(resource)).some((relation) => relation.type === "belongsTo" && relation.required)) return;
  const fields = Object.entries(fieldsOf(resource));
  const key = fields.find(([, field]) => field.unique && ["string", "email", "integer", "uuid"].includes(String(field.type)));
  if (!key) return;
  resource.seed = [1, 2].map((row) =>
    Object.fromEntries(fields.filter(([name, field]) => name === key[0] || (!field.nullable && field.default === undefined && field.set === undefined) || field.unique).map(([name, field]) => [name, seedValue(field, row)])),
  );
}

/** The Laravel rule of each type (rules.create and rules.update in the spec). */
const typeRule: Record<string, string[]> = {
  string: ["string"],
  text: ["string"],
  email: ["email"],
  uuid: ["uuid"],
  enum: ["in:low,mid,high"],
  integer: ["integer"],
  decimal: ["numeric"],
  boolean: ["boolean"],
  date: ["date"],
  datetime: ["date"],
  json: [],
  file: ["file"],
};

/**
 * Rules written out instead of derived: every field and belongsTo a payload may hold (not what the
 * server sets), with the type's rule, the field's own max, unique; `tighten` adds narrower bounds.
 */
function addExplicitRules(resource: Spec, tighten: boolean): void {
  const owner = String((resource.owner as { relation?: string } | undefined)?.relation ?? "");
  const create: Record<string, string[]> = {};
  const update: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(fieldsOf(resource))) {
    if (field.set !== undefined) continue;
    const needed = !field.nullable && field.default === undefined;
    const extra = [
      ...(typeRule[String(field.type)] ?? []),
      ...(typeof field.max === "number" && field.type !== "file" ? [`max:${tighten ? Math.max(5, Math.floor(field.max / 2)) : field.max}`] : []),
      ...(tighten && field.type === "integer" ? ["min:-1000", "max:1000"] : []),
      ...(field.unique ? ["unique"] : []),
    ];
    create[name] = [needed ? "required" : "sometimes", ...(field.nullable ? ["nullable"] : []), ...extra];
    update[name] = ["sometimes", ...(field.nullable ? ["nullable"] : []), ...extra];
  }
  for (const [name, relation] of Object.entries(relationsOf(resource))) {
    if (relation.type !== "belongsTo" || relation.set !== undefined || name === owner) continue;
    create[name] = [relation.required ? "required" : "sometimes", ...(relation.required ? [] : ["nullable"]), "exists"];
    update[name] = ["sometimes", ...(relation.required ? [] : ["nullable"]), "exists"];
  }
  resource.rules = { create, update };
}

/** Writes a spec set as YAML files into `dir` (emptied first). */
export function writeSpecSet(dir: string, set: SpecSet): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hashapi.yaml"), stringify(set.project));
  for (const resource of set.resources) writeFileSync(join(dir, `${String(resource.name).toLowerCase()}.yaml`), stringify(resource));
}

/**
 * The same set after a change of its specs over the data it holds (issue 45): in each audited
 * resource a field renamed (`renamedFrom`), another hidden (`serializer.hidden`), and one limited to
 * some roles narrowed to admins. Undefined when no resource has such fields.
 */
export function changedSet(set: SpecSet): SpecSet | undefined {
  let changed = false;
  const resources = set.resources.map((original) => {
    if (!original.audit) return original;
    const resource = structuredClone(original) as Spec;
    const fields = fieldsOf(resource);
    const hidden = new Set(((resource.serializer as { hidden?: string[] } | undefined)?.hidden ?? []) as string[]);
    const plain = Object.keys(fields).filter((name) => !hidden.has(name) && !fields[name]!.unique && fields[name]!.set === undefined);
    const [renamed, toHide] = plain;
    if (renamed !== undefined) {
      const to = `${renamed}_r`;
      resource.fields = Object.fromEntries(Object.entries(fields).map(([name, field]) => (name === renamed ? [to, { ...field, renamedFrom: renamed }] : [name, field])));
      const rules = resource.rules as Record<string, Record<string, unknown>> | undefined;
      if (rules) for (const action of Object.keys(rules)) rules[action] = Object.fromEntries(Object.entries(rules[action]!).map(([name, rule]) => [name === renamed ? to : name, rule]));
      if (Array.isArray(resource.seed)) resource.seed = (resource.seed as Spec[]).map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [name === renamed ? to : name, value])));
      changed = true;
    }
    if (toHide !== undefined) {
      const { search: _search, filter: _filter, visibleTo: _visible, writableBy: _writable, ...rest } = fieldsOf(resource)[toHide]!;
      fieldsOf(resource)[toHide] = rest;
      resource.serializer = { ...(resource.serializer as Spec | undefined), hidden: [...hidden, toHide] };
      changed = true;
    }
    // A field a create may leave out (nullable, or with a default): narrowed to admin, a required
    // one would be a spec error where admin may not create (random seed 2097998407).
    const optionalOnCreate = (field: Spec) => field.nullable === true || field.default !== undefined;
    const narrowed = Object.entries(fieldsOf(resource)).find(([, field]) => Array.isArray(field.visibleTo) && (field.visibleTo as string[]).length > 1 && optionalOnCreate(field));
    if (narrowed) {
      narrowed[1].visibleTo = ["admin"];
      if (narrowed[1].writableBy) narrowed[1].writableBy = ["admin"];
      changed = true;
    }
    return resource;
  });
  return changed ? { project: set.project, resources } : undefined;
}
