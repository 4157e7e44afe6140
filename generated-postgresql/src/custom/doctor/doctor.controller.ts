// Created once by hashapi from specs/doctor.yaml. This file is yours: hashapi never overwrites it.

import { DoctorControllerBase } from "../../resources/doctor/doctor.controller.base.js";

/**
 * Your controller for doctors. Override any action (index, store, show, update, destroy), do your own checks, then call the inherited behaviour with `super.<action>(req, res)`.
 */
export class DoctorController extends DoctorControllerBase {}
