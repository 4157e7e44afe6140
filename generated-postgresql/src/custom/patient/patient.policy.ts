// Created once by hashapi from specs/patient.yaml. This file is yours: hashapi never overwrites it.

import { ResourcePolicy } from "../../resource/policy.js";
import type { PatientRow } from "../../resources/patient/patient.repository.js";

/**
 * Who may do what with patients. The defaults (src/resource/policy.ts) allow every action
 * that reaches them and list deleted records only to signed-in users. Override
 * index, store, show, update, destroy or restore to return false (403 "This
 * action is unauthorized."); `user` is undefined only on actions listed in auth.public, called
 * without a token. For example:
 *
 *   override destroy(user: CurrentUser | undefined, record: PatientRow): boolean {
 *     return user !== undefined;
 *   }
 */
export class PatientPolicy extends ResourcePolicy<PatientRow> {}
