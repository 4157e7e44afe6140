// Created once by hashapi from specs/medical-record.yaml. This file is yours: hashapi never overwrites it.

import type { Request } from "express";
import { MedicalRecordControllerBase } from "../../resources/medical-record/medical-record.controller.base.js";
import type { MedicalRecordRow } from "../../resources/medical-record/medical-record.repository.js";

/**
 * The example of the generation gap: before an update (after the policy's `update` allowed it), the
 * policy is asked whether the record may still be amended (a record whose summary starts with
 * "[LOCKED]" is final); then the generated behaviour runs unchanged. Regenerating never touches
 * this file.
 */
export class MedicalRecordController extends MedicalRecordControllerBase {
  protected override async beforeUpdate(req: Request, record: MedicalRecordRow): Promise<void> {
    await this.authorize(this.policy.amend(req.user, record));
  }
}
