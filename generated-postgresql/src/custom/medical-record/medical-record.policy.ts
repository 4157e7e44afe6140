// Created once by hashapi from specs/medical-record.yaml. This file is yours: hashapi never overwrites it.

import type { CurrentUser } from "../../auth/auth.service.js";
import { ResourcePolicy } from "../../resource/policy.js";
import type { MedicalRecordRow } from "../../resources/medical-record/medical-record.repository.js";

/**
 * Who may do what with medical records: the defaults (src/resource/policy.ts), plus `amend`, which
 * MedicalRecordController asks before every update.
 */
export class MedicalRecordPolicy extends ResourcePolicy<MedicalRecordRow> {
  /** A record whose summary starts with "[LOCKED]" is final: nobody amends it any more. */
  amend(_user: CurrentUser | undefined, record: MedicalRecordRow): boolean {
    return !record.summary.startsWith("[LOCKED]");
  }
}
