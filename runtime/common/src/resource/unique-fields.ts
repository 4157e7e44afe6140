// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { emptyFieldErrors, ValidationFailed, type FieldErrors } from "../base/errors.js";
import { isRecord, ownValue } from "../base/records.js";
import { uniqueViolationColumn } from "../db/database-errors.js";
import type { AnyTable } from "../data/table.js";

/*
 * "has already been taken": the unique fields of a payload whose value another record holds. The
 * database's own unique index decides (a write that races another still fails there); these reads
 * name the fields, so a client sees every problem of a payload at once.
 */

/**
 * A resource's unique fields (field → its message) and, with tenancy, where a value must be free:
 * among the rows of the write's tenant (`within`), but for the fields unique across every tenant
 * (`except`). A value another tenant holds is then neither taken nor a way to learn it exists.
 */
export interface UniqueFields {
  readonly fields: Readonly<Record<string, string>>;
  readonly within?: {
    readonly column: string;
    readonly id: number;
    readonly except: readonly string[];
  };
}

/**
 * A resource's unique fields as a write in `tenant` checks them: within the tenant (tenanted
 * records; the tenants themselves are unique everywhere), but for the fields `unique: global`.
 */
export function uniqueFieldsOf(
  resource: {
    readonly unique?: Readonly<Record<string, string>>;
    readonly uniqueAcrossTenants?: readonly string[];
    readonly table: { readonly tenantColumn?: string };
  },
  tenant: { readonly id: number } | undefined,
): UniqueFields {
  const fields = resource.unique ?? {};
  const column = resource.table.tenantColumn;
  if (tenant === undefined || column === undefined || column === "id") return { fields };
  const except = resource.uniqueAcrossTenants ?? [];
  return { fields, within: { column, id: tenant.id, except } };
}

/** The payload's unique fields (field → message) whose value another record than `exceptId` holds. */
export async function takenFields(
  table: AnyTable,
  unique: UniqueFields,
  payload: object,
  exceptId?: number,
  skip: ReadonlySet<string> = new Set(),
): Promise<FieldErrors> {
  const errors = emptyFieldErrors();
  const { within } = unique;
  for (const [field, message] of Object.entries(unique.fields)) {
    if (skip.has(field)) continue;
    const value = ownValue(payload, field);
    if (value === undefined || value === null) continue;
    const tenant =
      within === undefined || within.except.includes(field) ? {} : { [within.column]: within.id };
    if (await table.exists({ ...tenant, [field]: value }, exceptId)) errors[field] = [message];
  }
  return errors;
}

/** A validation failure with the taken unique fields added, so a client sees every problem at once. */
export async function withTakenFields(
  error: unknown,
  body: unknown,
  table: AnyTable,
  unique: UniqueFields,
  exceptId?: number,
): Promise<unknown> {
  if (!(error instanceof ValidationFailed) || !isRecord(body)) return error;
  // Only values that passed their own rules are looked up: PostgreSQL refuses "abc" for an
  // integer column with an error, and such a value is already reported anyway.
  const alreadyReported = new Set(Object.keys(error.errors));
  const checked = error.checked ?? body;
  const taken = await takenFields(table, unique, checked, exceptId, alreadyReported);
  for (const [field, messages] of Object.entries(taken)) error.errors[field] = messages;
  return error;
}

/**
 * A UNIQUE violation of a write as the 422 of the field that collided: a value the payload sent,
 * or else the column the database named; the error itself when neither says which.
 */
export async function uniqueViolationAnswer(
  error: unknown,
  table: AnyTable,
  unique: UniqueFields,
  payload: object,
  exceptId?: number,
): Promise<unknown> {
  const taken = await takenFields(table, unique, payload, exceptId);
  if (Object.keys(taken).length > 0) return new ValidationFailed(taken);
  // Not a value the payload sent (a default, or a value taken since): the column the database named.
  const column = uniqueViolationColumn(error, table.spec.name);
  const message = column === undefined ? undefined : unique.fields[column];
  return column !== undefined && message !== undefined
    ? new ValidationFailed({ [column]: [message] })
    : error;
}
