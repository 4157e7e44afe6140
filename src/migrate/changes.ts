import type { ColumnFill, SchemaEvolution } from "../model/schema-evolution.js";
import type { ColumnShape, SchemaShape } from "./schema-shape.js";
import { tenantColumn } from "../model/declaration.js";

/** A change that can lose or block existing rows: written only with --accept-data-loss. */
export interface RiskyChange {
  table: string;
  column?: string;
  /** What happens to the rows, for the list `generate` prints. */
  effect: string;
}

/** A column that becomes required: rows without a value get `fill` first. */
export interface RequiredColumn {
  table: string;
  column: string;
  fill: ColumnFill;
  added: boolean;
}

/** A column that becomes required with no value for the rows that lack one: refused. */
export interface UnfillableColumn {
  table: string;
  column: string;
  added: boolean;
  source?: string;
  /** tenancy's tenant_id on a table that holds rows: the tenant resource they need one of (tenancy.adopt). */
  tenants?: string;
}

export interface ChangeAssessment {
  risky: RiskyChange[];
  required: RequiredColumn[];
  unfillable: UnfillableColumn[];
}

/**
 * What a migration from `previous` (the last migrated schema, renames applied) to `next` does to
 * the rows already stored. Pure: no database and no Prisma call, so `--check` can say it too.
 */
export function assessChanges(previous: SchemaShape, next: SchemaShape, evolution: SchemaEvolution): ChangeAssessment {
  const assessment: ChangeAssessment = { risky: [], required: [], unfillable: [] };
  const fillOf = (table: string, column: string) => evolution.fills.find((fill) => fill.table === table && fill.column === column);
  const sourceOf = (table: string) => evolution.sources[table];
  for (const [table, old] of previous) {
    const current = next.get(table);
    if (!current) {
      assessment.risky.push({ table, effect: `drops table ${table} and every row in it` });
      continue;
    }
    for (const [name, column] of old.columns) {
      const now = current.columns.get(name);
      if (!now) {
        assessment.risky.push({ table, column: name, effect: `drops column ${table}.${name} and every value in it` });
        continue;
      }
      const typeChange = describeTypeChange(column, now);
      if (typeChange) assessment.risky.push({ table, column: name, effect: `${typeChange} of ${table}.${name}: values that do not fit are lost or refused` });
      if (now.unique && !column.unique)
        assessment.risky.push({ table, column: name, effect: `adds a unique index on ${table}.${name}: the migration fails if stored values repeat` });
      const removed = column.values && now.values ? column.values.filter((value) => !now.values!.includes(value)) : [];
      if (removed.length > 0)
        assessment.risky.push({ table, column: name, effect: `removes enum value${removed.length === 1 ? "" : "s"} ${removed.join(", ")} of ${table}.${name}: rows holding ${removed.length === 1 ? "it" : "them"} keep a value the API no longer accepts` });
      if (column.optional && !now.optional) requireColumn(assessment, table, name, false, fillOf(table, name), sourceOf(table), evolution.tenancy);
    }
    for (const [name, column] of current.columns) {
      if (old.columns.has(name)) continue;
      if (column.unique && !column.optional)
        assessment.risky.push({ table, column: name, effect: `adds a unique column ${table}.${name}: existing rows would all get the same value, so the migration fails on a table with more than one row` });
      if (!column.optional && !column.hasDefault) requireColumn(assessment, table, name, true, fillOf(table, name), sourceOf(table), evolution.tenancy);
    }
  }
  return assessment;
}

function requireColumn(assessment: ChangeAssessment, table: string, column: string, added: boolean, fill: ColumnFill | undefined, source: string | undefined, tenancy?: SchemaEvolution["tenancy"]): void {
  if (fill) assessment.required.push({ table, column, fill, added });
  else {
    const tenants = column === tenantColumn && tenancy?.tables.includes(table) ? tenancy.resource : undefined;
    assessment.unfillable.push({ table, column, added, ...(source ? { source } : {}), ...(tenants ? { tenants } : {}) });
  }
}

/** How a column's declared type changes, or undefined when it only widens (no stored value can stop fitting). */
function describeTypeChange(before: ColumnShape, after: ColumnShape): string | undefined {
  if (before.type !== after.type) return `changes the type from ${before.type} to ${after.type}`;
  if (before.native === after.native || before.native === undefined || after.native === undefined) return undefined;
  if (widens(before.native, after.native)) return undefined;
  return `changes the column type from ${before.native} to ${after.native}`;
}

/** Whether a native type holds every value of the one before it (a longer VarChar, more digits). */
export function widens(before: string, after: string): boolean {
  const size = (type: string) => /^(\w+)(?:\((\d+)(?:,\s*(\d+))?\))?$/.exec(type);
  const [, beforeName, beforeLength, beforeScale] = size(before) ?? [];
  const [, afterName, afterLength, afterScale] = size(after) ?? [];
  if (beforeName === "VarChar" && afterName === "Text") return true;
  if (beforeName !== afterName || beforeLength === undefined || afterLength === undefined) return false;
  if (beforeName === "Decimal") {
    const integerDigits = (length: string, scale = "0") => Number(length) - Number(scale);
    return Number(afterScale ?? 0) >= Number(beforeScale ?? 0) && integerDigits(afterLength, afterScale) >= integerDigits(beforeLength, beforeScale);
  }
  return Number(afterLength) >= Number(beforeLength);
}
