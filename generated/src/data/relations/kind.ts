// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { FilterOperator } from "../list-operators.js";
import { listOf } from "../../base/records.js";
import type { Binder } from "../../db/sql.js";
import type { TableContext } from "../table/context.js";
import type { Reach, RelationSpec } from "../table/spec.js";

/** The related hashes a relation filter names (`eq` one, `in` a list), each bound through `values`. */
export function boundHashes(op: FilterOperator, value: unknown, values: Binder): string[] {
  return (op === "eq" ? [value] : listOf(value)).map((hash) => values.add(hash));
}

/**
 * What each kind of relation (one module each: belongs-to.ts, has-many.ts, belongs-to-many.ts,
 * registered in kinds.ts) answers for the table that reads and filters by it. A new kind is a new
 * module implementing this, an entry in kinds.ts and its member of RelationSpec (table/spec.ts);
 * the compiler then points at every switch that must learn it.
 */
export interface RelationKind<Spec extends RelationSpec> {
  /**
   * Whether a record's read joins it (its columns come in the record's own statement: a LEFT JOIN
   * per relation, see table/shape.ts), rather than loading it after the page (`loadPage`).
   */
  readonly joined: boolean;
  /**
   * Loads the relation's records for every record of a page at once, as `record[name]` lists (one
   * statement), each within the caller's reach in its own resource. Joined kinds load nothing here.
   */
  loadPage(
    context: TableContext,
    records: Record<string, unknown>[],
    name: string,
    relation: Spec,
    scope: Reach | undefined,
    /** The records are read only to be output (FindOptions.forOutput). */
    forOutput: boolean,
  ): Promise<void>;
  /**
   * A list filter on the relation: rows related to any of the hashes (`eq` one, `in` a list), or
   * without a related row (`null`); undefined when the kind takes no such filter (the spec
   * validation never declares one).
   */
  filter?(
    context: TableContext,
    relation: Spec,
    op: FilterOperator,
    value: unknown,
    values: Binder,
  ): string;
}
