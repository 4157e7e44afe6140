// Created once by hashapi from specs/medical-record.yaml. This file is yours: hashapi never overwrites it.

import type { Request, Response } from "express";
import { MedicalRecordControllerBase } from "../../resources/medical-record/medical-record.controller.base.js";

/**
 * The example of the generation gap: an update first asks the policy whether the record may still
 * be amended (a record whose summary starts with "[LOCKED]" is final), then runs the generated
 * behaviour unchanged. Regenerating never touches this file.
 */
export class MedicalRecordController extends MedicalRecordControllerBase {
  override async update(req: Request, res: Response): Promise<void> {
    const record = await this.service.find(String(req.params.hash), []);
    await this.authorize(this.policy.amend(req.user, record));
    await super.update(req, res);
  }
}
