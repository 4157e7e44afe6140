// Created once by hashapi from specs/appointment.yaml. This file is yours: hashapi never overwrites it.

import type { CurrentUser } from "../../auth/auth.service.js";
import type { ListQuery } from "../../http/list-query.js";
import type { AppointmentRow } from "../../resources/appointment/appointment.repository.js";

/**
 * Who may do what with appointments. Return false to answer 403 "This action is unauthorized.".
 * `user` is undefined only on actions listed in auth.public, called without a token.
 */
export class AppointmentPolicy {
  index(user: CurrentUser | undefined, query: ListQuery): boolean | Promise<boolean> {
    void query;
    return true;
  }

  store(user: CurrentUser | undefined): boolean | Promise<boolean> {
    return true;
  }

  show(user: CurrentUser | undefined, record: AppointmentRow): boolean | Promise<boolean> {
    return true;
  }

  update(user: CurrentUser | undefined, record: AppointmentRow): boolean | Promise<boolean> {
    return true;
  }

  destroy(user: CurrentUser | undefined, record: AppointmentRow): boolean | Promise<boolean> {
    return true;
  }
}
