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

/** The payload's unique fields (field → message) whose value another record than `exceptId` holds. */
export async function takenFields(
  table: AnyTable,
  unique: Readonly<Record<string, string>>,
  payload: object,
  exceptId?: number,
  skip: ReadonlySet<string> = new Set(),
): Promise<FieldErrors> {
  const errors = emptyFieldErrors();
  for (const [field, message] of Object.entries(unique)) {
    if (skip.has(field)) continue;
    const value = ownValue(payload, field);
    if (value === undefined || value === null) continue;
    if (await table.exists({ [field]: value }, exceptId)) errors[field] = [message];
  }
  return errors;
}

/** A validation failure with the taken unique fields added, so a client sees every problem at once. */
export async function withTakenFields(
  error: unknown,
  body: unknown,
  table: AnyTable,
  unique: Readonly<Record<string, string>>,
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
  unique: Readonly<Record<string, string>>,
  payload: object,
  exceptId?: number,
): Promise<unknown> {
  const taken = await takenFields(table, unique, payload, exceptId);
  if (Object.keys(taken).length > 0) return new ValidationFailed(taken);
  // Not a value the payload sent (a default, or a value taken since): the column the database named.
  const column = uniqueViolationColumn(error, table.spec.name);
  const message = column === undefined ? undefined : unique[column];
  return column !== undefined && message !== undefined
    ? new ValidationFailed({ [column]: [message] })
    : error;
}
