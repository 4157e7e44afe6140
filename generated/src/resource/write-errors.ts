// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { isForeignKeyViolation, isUniqueViolation } from "../db/database.js";
import { ValidationFailed, type FieldErrors } from "../base/errors.js";
import { isRecord } from "../base/records.js";
import type { AnyTable } from "../data/table.js";
import type { PayloadColumns } from "./payload-columns.js";
import { uniqueViolationAnswer, type UniqueFields } from "./unique-fields.js";
import type { TenantRule } from "./tenancy.js";

/*
 * Every problem of a payload in one 422: what its rules refuse, what the database would (values
 * already taken, related records unknown or out of reach) and what a write that raced another
 * met at the database's own constraints.
 */

/**
 * A UNIQUE violation becomes the 422 of the field that collided. A FOREIGN KEY violation means a
 * related record was deleted between the check and the write: looking the relations up again
 * throws the 422 that names it.
 */
export async function explainWriteError(
  error: unknown,
  payloads: PayloadColumns,
  table: AnyTable,
  unique: UniqueFields,
  payload: object,
  write: { exceptId?: number; tenant?: TenantRule } = {},
): Promise<unknown> {
  if (isForeignKeyViolation(error)) {
    await payloads.columns(payload, table.sql, { tenant: write.tenant });
    return error;
  }
  if (!isUniqueViolation(error)) return error;
  return uniqueViolationAnswer(error, table, unique, payload, write.exceptId);
}

/**
 * Adds to a refused payload's errors what its other values would be refused for once written:
 * `problemsOf` the values that passed their own rules (only those are looked up, as for unique
 * values), decided under the write's own rules. A ValidationFailed it throws (an owner's parent
 * left out) counts as its problems.
 */
export async function addReferenceProblems(
  failed: ValidationFailed,
  body: unknown,
  problemsOf: (rest: Record<string, unknown>) => Promise<FieldErrors>,
): Promise<void> {
  const values = failed.checked ?? (isRecord(body) ? body : {});
  const reported = Object.keys(failed.errors);
  const refused = (key: string) =>
    reported.some((field) => field === key || field.startsWith(`${key}.`));
  const rest = Object.fromEntries(Object.entries(values).filter(([key]) => !refused(key)));
  let problems: FieldErrors;
  try {
    problems = await problemsOf(rest);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    problems = error.errors;
  }
  for (const [key, messages] of Object.entries(problems))
    if (!Object.hasOwn(failed.errors, key)) failed.errors[key] = messages;
}

/**
 * Whether a write was refused before anything was written, for a reason the write that reads its
 * record first explains better (its record's 404 first, then the 422 naming the taken value): a
 * payload's related record not found, or the database's unique or foreign key constraint. Any
 * other error is no proof that the statement did not commit, so it is not tried again.
 */
export function refusedUnwritten(error: unknown): boolean {
  return (
    error instanceof ValidationFailed || isUniqueViolation(error) || isForeignKeyViolation(error)
  );
}
