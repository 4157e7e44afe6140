import { HashapiError } from "../errors.js";
import type { RiskyChange, UnfillableColumn } from "./changes.js";

/** The list `generate`, `--dry-run` and `--check` print for changes that can lose or block rows. */
export function describeRiskyChanges(changes: readonly RiskyChange[]): string {
  return changes.map((change) => `  - ${change.effect}`).join("\n");
}

/** Changes that can lose or block rows, without --accept-data-loss: nothing is written. */
export class DataLossRefused extends HashapiError {
  constructor(readonly changes: readonly RiskyChange[]) {
    super(
      `The next migration would change rows that are already stored:\n${describeRiskyChanges(changes)}\n` +
        "Nothing was written. If a column or table was renamed, say so with renamedFrom: in the spec (the rows then stay);\n" +
        "otherwise back the data up and run again with --accept-data-loss to write this migration.",
    );
  }
}

/** Columns that become required while existing rows may have no value for them. */
export class UnfillableRefused extends HashapiError {
  constructor(readonly columns: readonly UnfillableColumn[]) {
    const fields = columns.some((column) => column.tenants === undefined);
    super(
      `${columns.map(describeUnfillable).join("\n")}\n` +
        (fields
          ? "Nothing was written. Give each field either a default: (also used for new records) or a backfill: (a one-off value\n" +
            "for the rows already stored), or keep it nullable."
          : "Nothing was written."),
    );
  }
}

function describeUnfillable({ table, column, added, source, tenants }: UnfillableColumn): string {
  const where = source ? `${source}: ` : "";
  if (tenants !== undefined)
    return `${where}tenancy gives table ${table} a ${column}, and the rows it already holds belong to no ${tenants} yet: name the one they go to with tenancy.adopt: <the public id of a stored ${tenants}> in hashapi.yaml (make that ${tenants} first, before tenancy, if there is none).`;
  const what = added ? `the new required field ${column}` : `the field ${column} becomes required`;
  return `${where}${what} on table ${table}, which may already hold rows without a value for it.`;
}
