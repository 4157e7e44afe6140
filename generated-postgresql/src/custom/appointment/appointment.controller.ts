// Created once by hashapi from specs/appointment.yaml. This file is yours: hashapi never overwrites it.

import { AppointmentControllerBase } from "../../resources/appointment/appointment.controller.base.js";

/**
 * Your controller for appointments. Override any action (index, store, show, update, destroy), do your own checks, then call the inherited behaviour with `super.<action>(req, res)`.
 */
export class AppointmentController extends AppointmentControllerBase {}
