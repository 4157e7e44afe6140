import { kindOf } from "./relations/kinds.js";
import type { ColumnFill, SchemaEvolution } from "./schema-evolution.js";
import type { FieldSpec, ResourceSpec, ValidSpecs } from "../spec/types.js";
import { resourceTable, toPascal, toSnake } from "./naming.js";
import { tenantColumn } from "./declaration.js";

/** What the specs say about changing a live database (see schema-evolution.ts). */
export function evolutionOf(specs: ValidSpecs): SchemaEvolution {
  const evolution: SchemaEvolution = { tables: [], columns: [], fills: [], sources: {}, events: {} };
  for (const spec of specs.resources) {
    const table = resourceTable(spec);
    evolution.sources[table] = spec.file;
    evolution.events[table] = { event: toSnake(spec.name), keys: eventKeysOf(spec) };
    if (spec.renamedFrom !== undefined && spec.renamedFrom !== spec.name)
      evolution.tables.push({ from: spec.renamedFrom, table, events: { from: toSnake(spec.renamedFrom), to: toSnake(spec.name) } });
    evolution.columns.push(...columnRenames(spec, table));
    pivotRenames(spec, table, specs, evolution);
    evolution.fills.push(...fillsOf(table, spec.fields), ...adoptedBy(spec, table, specs));
    // A pivot's fields are filled like a table's: the relation that owns it declares them.
    for (const relation of spec.relations ?? [])
      if (relation.type === "belongsToMany" && relation.inverse === undefined)
        evolution.fills.push(...fillsOf(`${table}_${relation.name}`, relation.pivot ?? []));
  }
  const tenancy = specs.project.tenancy;
  if (tenancy) {
    const tables = specs.resources.filter((spec) => spec.tenant !== undefined && spec.tenant !== "global" && spec.name !== tenancy.resource).map(resourceTable);
    evolution.tenancy = { resource: tenancy.resource, tables };
  }
  return evolution;
}

/**
 * tenancy.adopt: a tenanted resource's stored rows, which had no tenant, all go to that one (its
 * tenant_id is filled with the tenant's id, looked up by its public id in the migration).
 */
function adoptedBy(spec: ResourceSpec, table: string, specs: ValidSpecs): ColumnFill[] {
  const tenancy = specs.project.tenancy;
  if (tenancy?.adopt === undefined || spec.tenant === undefined || spec.tenant === "global" || spec.name === tenancy.resource) return [];
  const tenants = specs.resources.find((candidate) => candidate.name === tenancy.resource);
  if (!tenants) return [];
  return [{ table, column: tenantColumn, type: "tenant", value: tenancy.adopt, tenants: resourceTable(tenants) }];
}

/** The values rows without one get when a field of `table` becomes required: its backfill, else its default. */
function fillsOf(table: string, fields: readonly FieldSpec[]): ColumnFill[] {
  return fields.flatMap((field) => {
    const value = field.backfill ?? field.default;
    return value === undefined || value === null ? [] : [{ table, column: field.name, type: field.type, value }];
  });
}

/**
 * A renamed resource renames what its belongsToMany pivots are named after: the pivot table (and
 * its Prisma model) of the relations it owns, and its key column in every pivot it is part of.
 */
function pivotRenames(spec: ResourceSpec, table: string, specs: ValidSpecs, evolution: SchemaEvolution): void {
  const previous = spec.renamedFrom !== undefined && spec.renamedFrom !== spec.name ? spec.renamedFrom : undefined;
  for (const relation of spec.relations ?? []) {
    if (relation.type !== "belongsToMany" || relation.inverse !== undefined) continue;
    const pivot = `${table}_${relation.name}`;
    const target = specs.resources.find((candidate) => candidate.name === relation.resource);
    const targetPrevious = target?.renamedFrom !== undefined && target.renamedFrom !== target.name ? target.renamedFrom : undefined;
    if (previous !== undefined) {
      evolution.tables.push({ from: `${toPascal(previous)}${toPascal(relation.name)}`, table: pivot });
      evolution.columns.push({ table: pivot, from: `${toSnake(previous)}_id`, to: `${toSnake(spec.name)}_id` });
    }
    if (targetPrevious !== undefined && relation.resource !== spec.name)
      evolution.columns.push({ table: pivot, from: `${toSnake(targetPrevious)}_id`, to: `${toSnake(relation.resource)}_id` });
  }
}

function columnRenames(spec: ResourceSpec, table: string): SchemaEvolution["columns"] {
  const renames: SchemaEvolution["columns"] = [];
  for (const field of spec.fields)
    if (field.renamedFrom !== undefined && field.renamedFrom !== field.name)
      renames.push({ table, from: field.renamedFrom, to: field.name, eventKey: { from: field.renamedFrom, to: field.name } });
  for (const relation of spec.relations ?? [])
    if (relation.type === "belongsTo" && relation.renamedFrom !== undefined && relation.renamedFrom !== relation.name)
      renames.push({ table, from: `${relation.renamedFrom}_id`, to: `${relation.name}_id`, eventKey: { from: relation.renamedFrom, to: relation.name } });
  return renames;
}

/** Every key a resource's events may hold now: its fields, and what each relation's kind records. */
function eventKeysOf(spec: ResourceSpec): string[] {
  return [...spec.fields.map((field) => field.name), ...(spec.relations ?? []).flatMap((relation) => kindOf(relation).eventKeys(relation))];
}
