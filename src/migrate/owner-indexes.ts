import { markedFields } from "./marked-fields.js";
import type { OwnedObject } from "./owned-object.js";

/**
 * An owned resource's lists are one owner's records in the default order: `WHERE <owner key> = ?
 * AND deleted_at IS NULL ORDER BY created_at, id`. An index on (owner key, created_at, id), partial
 * on live rows where the resource soft-deletes, reads exactly one page of them, where the owner
 * key's own index reads every record of the owner and sorts them. Prisma's schema cannot declare a
 * partial index: the doc line on the owner key says it and the migration writes it.
 */
export function ownerIndexMarker(table: string, column: string, softDelete: boolean): string {
  const where = softDelete ? " where deleted_at IS NULL" : "";
  return `hashapi: owner index ${ownerIndexName(table, column)} on (${column}, created_at, id)${where} (written into the migration)`;
}

export function ownerIndexName(table: string, column: string): string {
  return `${table}_${column}_owner_idx`;
}

const markerPattern = /^\s*\/\/\/ hashapi: owner index (\S+) on \(([^)]*)\)( where deleted_at IS NULL)? \(written into the migration\)$/;

export interface OwnerIndex {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
  readonly liveOnly: boolean;
}

export function ownerIndexes(schema: string | null): OwnerIndex[] {
  return markedFields(schema, markerPattern).map(({ table, marker }) => ({
    name: marker[1]!,
    table,
    columns: marker[2]!.split(",").map((column) => column.trim()),
    liveOnly: marker[3] !== undefined,
  }));
}

/** The same statements on both databases (both take `WHERE` on CREATE INDEX). */
export function ownerIndexObject(index: OwnerIndex): OwnedObject {
  const columns = index.columns.map((column) => `"${column}"`).join(", ");
  const where = index.liveOnly ? ` WHERE "deleted_at" IS NULL` : "";
  const create = [
    index.liveOnly
      ? `-- ${index.table}: one owner's live records in list order (a partial index, which Prisma's schema cannot declare)`
      : `-- ${index.table}: one owner's records in list order (kept with the partial ones hashapi writes)`,
    `CREATE INDEX "${index.name}" ON "${index.table}"(${columns})${where};`,
    "",
  ].join("\n");
  return {
    id: `owner ${index.name} ${index.table}(${index.columns.join(",")})${where}`,
    table: index.table,
    names: [index.name],
    create,
    recreate: create,
    drop: `DROP INDEX IF EXISTS "${index.name}";\n`,
  };
}
