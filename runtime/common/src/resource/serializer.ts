// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { columnsOf, type TableSpec } from "../lib/table.js";
import { outputOf } from "../lib/serialize.js";
import { isPublicIdKey, type ResourceDescriptor } from "./descriptor.js";
import { fieldAccess } from "./field-access.js";

// Field visibility needs no list options.
const noList = {
  sortable: [],
  filters: {},
  relations: [],
  softDelete: false,
  defaultPerPage: 1,
  maxPerPage: 1,
};

/** A record as output to a caller of `role` (fields it may not see are left out, nested records too). */
export type Serializer = (
  row: object,
  relations?: readonly string[],
  role?: string,
) => Record<string, unknown>;

/**
 * The output shape of a resource's records, from its allow-list: a column not listed is never
 * output; the internal id and foreign keys never are. Related records are serialized by their own
 * resource's serializer, one level deep, and appear only when loaded; otherwise a belongsTo is its hash.
 */
export function createSerializer(
  resource: ResourceDescriptor,
  serializerOf: (table: TableSpec) => Serializer,
): Serializer {
  const { table, output, scales = {} } = resource;
  const hiddenFrom = fieldAccess(resource.visibleTo, undefined, noList).hiddenFrom;
  const kinds = columnsOf(table);
  const write = output.map(
    (
      key,
    ): ((row: Record<string, unknown>, relations: readonly string[], role?: string) => unknown) => {
      if (isPublicIdKey(key)) return (row) => row.hash;
      const relation = Object.hasOwn(table.belongsTo, key) ? table.belongsTo[key] : undefined;
      if (relation)
        return (row, relations, role) => {
          const related = row[key] as { hash: string } | null;
          if (related === null) return null;
          return relations.includes(key)
            ? serializerOf(relation.target())(related, [], role)
            : related.hash;
        };
      const output = outputOf(kinds[key] ?? "", scales[key] ?? 0);
      return output ? (row) => output(row[key]) : (row) => row[key];
    },
  );
  const hasMany = Object.entries(table.hasMany);
  return (record, relations = [], role) => {
    const row = record as Record<string, unknown>;
    const data: Record<string, unknown> = {};
    const hidden = hiddenFrom(role);
    output.forEach((key, index) => {
      if (hidden === undefined || !hidden.has(key)) data[key] = write[index]!(row, relations, role);
    });
    for (const [name, relation] of hasMany) {
      const items = row[name] as object[] | undefined;
      if (items !== undefined)
        data[name] = items.map((item) => serializerOf(relation.target())(item, [], role));
    }
    return data;
  };
}
