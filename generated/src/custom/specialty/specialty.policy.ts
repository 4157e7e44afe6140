// Created once by hashapi from specs/specialty.yaml. This file is yours: hashapi never overwrites it.

import { ResourcePolicy } from "../../resource/policy.js";
import type { SpecialtyRow } from "../../resources/specialty/specialty.repository.js";

/**
 * Who may do what with specialties: the defaults of src/resource/policy.ts until you override
 * an action here. Return false to answer 403 "This action is unauthorized."; `user` is undefined
 * only on actions listed in auth.public, called without a token. For example:
 *
 *   override destroy(user: CurrentUser | undefined, record: SpecialtyRow): boolean {
 *     return user?.role === "admin";
 *   }
 *
 * `scope` narrows what a caller reaches at all, inside the statement that reads (lists and their
 * totals, nested lists, and 404 on show, update, destroy and restore, as for a missing record):
 *
 *   override scope(user: CurrentUser | undefined): RowScope | undefined {
 *     return user?.role === "admin" ? undefined : { where: { region: "north" } };
 *   }
 */
export class SpecialtyPolicy extends ResourcePolicy<SpecialtyRow> {}
