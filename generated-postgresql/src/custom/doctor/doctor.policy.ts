// Created once by hashapi from specs/doctor.yaml. This file is yours: hashapi never overwrites it.

import { ResourcePolicy } from "../../resource/policy.js";
import type { DoctorRow } from "../../resources/doctor/doctor.repository.js";

/**
 * Who may do what with doctors. The defaults (src/resource/policy.ts) allow every action
 * that reaches them. Override
 * index, store, show, update, destroy to return false (403 "This
 * action is unauthorized."); `user` is undefined only on actions listed in auth.public, called
 * without a token. For example:
 *
 *   override destroy(user: CurrentUser | undefined, record: DoctorRow): boolean {
 *     return user !== undefined;
 *   }
 */
export class DoctorPolicy extends ResourcePolicy<DoctorRow> {}
