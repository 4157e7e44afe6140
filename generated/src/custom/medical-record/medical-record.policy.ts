// Created once by hashapi from specs/medical-record.yaml. This file is yours: hashapi never overwrites it.

import type { CurrentUser } from "../../auth/auth.service.js";
import type { ListQuery } from "../../http/list-query.js";
import type { MedicalRecordRow } from "../../resources/medical-record/medical-record.repository.js";

/**
 * Who may do what with medical records. Return false to answer 403 "This action is unauthorized.".
 * `user` is undefined only on actions listed in auth.public, called without a token.
 */
export class MedicalRecordPolicy {
  index(user: CurrentUser | undefined, query: ListQuery): boolean | Promise<boolean> {
    void query;
    return true;
  }

  store(user: CurrentUser | undefined): boolean | Promise<boolean> {
    return true;
  }

  show(user: CurrentUser | undefined, record: MedicalRecordRow): boolean | Promise<boolean> {
    return true;
  }

  update(user: CurrentUser | undefined, record: MedicalRecordRow): boolean | Promise<boolean> {
    return true;
  }

  /** A record whose summary starts with "[LOCKED]" is final: nobody amends it any more. */
  amend(user: CurrentUser | undefined, record: MedicalRecordRow): boolean {
    return !record.summary.startsWith("[LOCKED]");
  }

  destroy(user: CurrentUser | undefined, record: MedicalRecordRow): boolean | Promise<boolean> {
    return true;
  }
}
