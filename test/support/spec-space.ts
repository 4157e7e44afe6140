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
const allRoles = ["admin", "agent", "customer"] as const;
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

/** One field: a type with the options it takes. */
const field: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    type: fc.constantFrom("string", "text", "email", "uuid", "enum", "integer", "decimal", "boolean", "date", "datetime", "json"),
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
  })
  .chain((spec) => defaultFor(spec.type, spec.nullable).map((value) => ({ ...spec, default: value })))
  .map(({ type, nullable, unique, index, search, max, narrowFilter, visibleTo, writable, precision, set, default: value }) => {
    // Dates and datetimes the server sets to the current time take no default and no writableBy.
    const serverSet = set !== undefined && (type === "date" || type === "datetime");
    const text = ["string", "text", "email"].includes(type);
    const uniqueAllowed = ["string", "email", "uuid", "integer"].includes(type) && unique;
    return {
      type,
      ...(nullable ? { nullable: true } : {}),
      ...(uniqueAllowed ? { unique: true } : {}),
      ...(index && !uniqueAllowed && type !== "json" ? { index: true } : {}),
      ...(search && text ? { search: true } : {}),
      ...(max !== undefined && ["string", "text", "email"].includes(type) ? { max: type === "email" ? Math.max(max, 20) : max } : {}),
      ...(type === "enum" ? { values: ["low", "mid", "high"] } : {}),
      ...(type === "decimal" ? { precision, scale: Math.min(2, precision) } : {}),
      ...(narrowFilter !== undefined && type !== "json" && type !== "boolean" ? { filter: narrowFilter } : {}),
      ...(visibleTo ? { visibleTo, ...(writable && !serverSet ? { writableBy: visibleTo } : {}) } : {}),
      ...(value !== undefined && !uniqueAllowed && !serverSet ? { default: type === "enum" ? "low" : value } : {}),
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
  pivot: boolean;
}

const relation = (count: number): fc.Arbitrary<RelationDraft> =>
  fc.record({
    name: fc.stringMatching(/^[a-z]{3,8}$/).map((name) => `r_${name}`),
    kind: fc.constantFrom<RelationDraft["kind"]>("belongsTo", "belongsTo", "belongsToMany"),
    target: fc.integer({ min: -1, max: count - 1 }),
    required: fc.boolean(),
    onDelete: fc.constantFrom<RelationDraft["onDelete"]>("restrict", "cascade", "setNull"),
    pivot: fc.boolean(),
  });

const resourceDraft = (count: number) =>
  fc.record({
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
    database: fc.constantFrom("sqlite", "postgresql"),
  })
  .chain((top) => fc.record({ top: fc.constant(top), drafts: fc.array(resourceDraft(top.count), { minLength: top.count, maxLength: top.count }) }))
  .map(({ top, drafts }) => {
    const roles = top.roles ? [...allRoles] : undefined;
    const project: Record<string, unknown> = {
      name: "spec-space",
      database: top.database,
      ...(roles ? { auth: { roles, ...(top.manageUsers ? { users: { manage: ["admin"] } } : {}) } } : {}),
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
          relations[entry.name] = { type: "belongsToMany", resource: target, ...(entry.pivot ? { pivot: { p_note: { type: "string", max: 40, nullable: true } } } : {}) };
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
      const roleLists = draft.roles && roles ? Object.fromEntries(Object.entries(draft.roles).filter(([action]) => !publicRead || !["index", "show"].includes(action))) : undefined;
      return {
        name,
        ...(draft.softDelete ? { softDelete: true } : {}),
        fields,
        ...(Object.keys(relations).length > 0 ? { relations } : {}),
        // A public resource may only nest public ones: eager loads are drawn for the others.
        ...(draft.eager && !publicRead && belongsTo.length > 0 ? { eagerLoad: [belongsTo[0]] } : {}),
        ...(owned ? { owner: { relation: ownerRelation, ...(roles ? { bypass: ["admin"] } : {}) } } : {}),
        ...(hidden.length > 0 ? { serializer: { hidden } } : {}),
        ...(roleLists || publicRead ? { auth: { ...(roleLists ? { roles: roleLists } : {}), ...(publicRead ? { public: ["index", "show"] } : {}) } } : {}),
      };
    });
    return { project, resources };
  });

/** Writes a spec set as YAML files into `dir` (emptied first). */
export function writeSpecSet(dir: string, set: SpecSet): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hashapi.yaml"), stringify(set.project));
  for (const resource of set.resources) writeFileSync(join(dir, `${String(resource.name).toLowerCase()}.yaml`), stringify(resource));
}
