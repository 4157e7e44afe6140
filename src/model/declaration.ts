import { fieldType } from "./field-types.js";
import { laravelMessage } from "./laravel-messages.js";
import { manyOperators } from "./relations/belongs-to-many.js";
import { kindOf } from "./relations/kinds.js";
import type { BelongsToModel, DeclarationModel, ResourceCore, ResourceModel, ResourceRef, ValueKind } from "./types.js";

/** The data the runtime library needs, decided here so that templates only lay it out. */
export function declarationOf(resource: ResourceCore & Pick<ResourceModel, "serializer">): DeclarationModel {
  const columns: Record<string, ValueKind> = {};
  for (const field of resource.fields) columns[field.name] = field.kind;
  for (const relation of resource.belongsTo) columns[relation.foreignKey] = "integer";
  if (resource.tenant?.kind === "member") columns[tenantColumn] = "integer";
  const scales: Record<string, number> = {};
  for (const field of resource.fields) if (field.type === "decimal") scales[field.name] = field.scale;
  const files = nonEmpty(Object.fromEntries(resource.fields.flatMap((field) => (field.file ? [[field.name, field.file]] : []))));
  const referencing = (onDelete: BelongsToModel["onDelete"]) =>
    resource.referencedBy.filter((reference) => reference.onDelete === onDelete).map((reference) => ({ target: reference.resource, foreignKey: reference.foreignKey }));
  const restrictedBy = referencing("restrict");
  // A soft delete applies cascade and setNull itself; a hard delete leaves them to the database's
  // foreign keys and records their events from these (runtime data/cascade-events.ts).
  const cascadeTo = referencing("cascade");
  const nullOnDelete = referencing("setNull");
  const pointing = [...restrictedBy, ...cascadeTo, ...nullOnDelete].map((entry) => entry.target);
  return {
    files,
    columns,
    restrictedBy,
    cascadeTo,
    nullOnDelete,
    caseless: resource.fields.filter((field) => field.unique && fieldType(field.type).uniqueIgnoresCase).map((field) => field.name),
    textIndexed: resource.textIndexed,
    unique: nonEmpty(
      Object.fromEntries(
        resource.fields.filter((field) => field.unique).map((field) => [field.name, laravelMessage("unique", field.name)]),
      ),
    ),
    uniqueAcrossTenants: nonEmptyList(resource.tenant ? resource.fields.filter((field) => field.unique && field.uniqueAcrossTenants).map((field) => field.name) : []),
    exists: nonEmpty(
      Object.fromEntries(resource.belongsTo.map((relation) => [relation.name, laravelMessage("exists", relation.name)])),
    ),
    filters: Object.fromEntries(resource.filters.map((filter) => [filter.name, filter.kind])),
    filterValues: nonEmpty(Object.fromEntries(resource.filters.flatMap((filter) => (filter.values ? [[filter.name, filter.values]] : [])))),
    filterOperators: narrowedOperators(resource),
    output: {
      // Relations output only when loaded follow these keys whenever they are.
      keys: resource.serializer.filter((entry) => !("relation" in entry) || kindOf(entry.relation).unloaded !== undefined).map((entry) => entry.key),
      scales: nonEmpty(scales),
    },
    publicActions: Object.values(resource.actions)
      .filter((action) => action.public)
      .map((action) => action.name),
    owner: resource.owner,
    tenant: tenantSettings(resource.tenant),
    tenantColumn: resource.tenant?.kind === "member" ? tenantColumn : resource.tenant?.kind === "self" ? "id" : undefined,
    visibleTo: nonEmpty(Object.fromEntries(resource.fields.flatMap((field) => (field.visibleTo ? [[field.name, field.visibleTo]] : [])))),
    writableBy: nonEmpty(Object.fromEntries(resource.fields.flatMap((field) => (field.writableBy ? [[field.name, field.writableBy]] : [])))),
    setByServer: nonEmpty(
      Object.fromEntries([
        ...resource.belongsTo.flatMap((relation) => (relation.setByCaller ? [[relation.name, { ...relation.setByCaller, from: "caller" as const }]] : [])),
        ...resource.fields.flatMap((field) => (field.setByServer ? [[field.name, { ...field.setByServer, from: "clock" as const }]] : [])),
      ]),
    ),
    roles: nonEmpty(Object.fromEntries(Object.values(resource.actions).flatMap((action) => (action.roles && action.enabled ? [[action.name, action.roles]] : [])))),
    related: relatedOf(resource, resource.relations.map((relation) => relation.target), pointing),
    relations: resource.relations.map((relation) => ({ name: relation.name, ...kindOf(relation).repository(relation) })),
  };
}


/** The filters whose operators are not their kind's whole list: narrowed fields, belongsToMany links. */
function narrowedOperators(resource: ResourceCore): DeclarationModel["filterOperators"] {
  return nonEmpty(
    Object.fromEntries([
      ...resource.fields.flatMap((field) => (field.narrowed ? [[field.name, field.operators] as const] : [])),
      ...resource.belongsToMany.flatMap((relation) => (resource.filters.some((filter) => filter.name === relation.name) ? [[relation.name, manyOperators] as const] : [])),
    ]),
  );
}

/** Undefined for an empty map: the declaration leaves out what is empty. */
/** The column a tenanted record holds its tenant's id in. */
export const tenantColumn = "tenant_id";

/** A resource's tenant as the runtime's descriptor reads it (resource/tenancy.ts). */
function tenantSettings(tenant: ResourceCore["tenant"]): DeclarationModel["tenant"] {
  if (tenant === undefined) return undefined;
  if (tenant.kind === "global") return { global: true };
  return { column: tenant.kind === "self" ? "id" : tenantColumn };
}

function nonEmptyList<T>(list: T[]): T[] | undefined {
  return list.length > 0 ? list : undefined;
}

function nonEmpty<T>(record: Record<string, T>): Record<string, T> | undefined {
  return Object.keys(record).length > 0 ? record : undefined;
}


/** Each other resource once, in order of first mention; `row` when a relation (not only a restriction) reads it. */
function relatedOf(resource: ResourceCore, read: ResourceRef[], restricting: ResourceRef[]): DeclarationModel["related"] {
  const related: DeclarationModel["related"] = [];
  for (const [target, row] of [...read.map((ref) => [ref, true] as const), ...restricting.map((ref) => [ref, false] as const)]) {
    if (target.name === resource.name) continue;
    const known = related.find((entry) => entry.target.name === target.name);
    if (known) known.row ||= row;
    else related.push({ target, row });
  }
  return related;
}
