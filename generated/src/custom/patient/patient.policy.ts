// Created once by hashapi from specs/patient.yaml. This file is yours: hashapi never overwrites it.

import type { CurrentUser } from "../../auth/auth.service.js";
import type { ListQuery } from "../../http/list-query.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

/**
 * Who may do what with patients. Return false to answer 403 "This action is unauthorized.".
 * `user` is undefined only on actions listed in auth.public, called without a token.
 */
export class PatientPolicy {
  index(user: CurrentUser | undefined, query: ListQuery): boolean | Promise<boolean> {
    // Deleted records are listed (?with_trashed=true) only to signed-in users.
    return !query.withTrashed || user !== undefined;
  }

  store(user: CurrentUser | undefined): boolean | Promise<boolean> {
    return true;
  }

  show(user: CurrentUser | undefined, record: PatientRow): boolean | Promise<boolean> {
    return true;
  }

  update(user: CurrentUser | undefined, record: PatientRow): boolean | Promise<boolean> {
    return true;
  }

  destroy(user: CurrentUser | undefined, record: PatientRow): boolean | Promise<boolean> {
    return true;
  }

  restore(user: CurrentUser | undefined, record: PatientRow): boolean | Promise<boolean> {
    return true;
  }
}
