// Created once by hashapi from specs/patient.yaml. This file is yours: hashapi never overwrites it.

import { PatientControllerBase } from "../../resources/patient/patient.controller.base.js";

/**
 * Your controller for patients. Override any action (index, store, show, update, destroy,
 * restore), do your own checks, then call the inherited behaviour with `super.<action>(req, res)`.
 */
export class PatientController extends PatientControllerBase {}
