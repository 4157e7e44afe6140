// Created once by hashapi from specs/specialty.yaml. This file is yours: hashapi never overwrites it.

import { SpecialtyControllerBase } from "../../resources/specialty/specialty.controller.base.js";

/**
 * Your controller for specialties. Override a hook (beforeCreate, beforeUpdate,
 * beforeDestroy: they run after the policy, before the payload is read) or a whole action (index,
 * store, show, update, destroy) and call `super.<action>(req, res)`.
 * `req.tables` reads and writes any resource's table, typed.
 */
export class SpecialtyController extends SpecialtyControllerBase {}
