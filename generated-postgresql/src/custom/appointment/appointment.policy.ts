// Created once by hashapi from specs/appointment.yaml. This file is yours: hashapi never overwrites it.

import { ResourcePolicy } from "../../resource/policy.js";
import type { AppointmentRow } from "../../resources/appointment/appointment.repository.js";

/**
 * Who may do what with appointments. The defaults (src/resource/policy.ts) allow every action
 * that reaches them. Override
 * index, store, show, update, destroy to return false (403 "This
 * action is unauthorized."); `user` is undefined only on actions listed in auth.public, called
 * without a token. For example:
 *
 *   override destroy(user: CurrentUser | undefined, record: AppointmentRow): boolean {
 *     return user !== undefined;
 *   }
 */
export class AppointmentPolicy extends ResourcePolicy<AppointmentRow> {}
