// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { quote } from "../../db/sql.js";
import {
  firstPerParent,
  nestedItem,
  nestedPage,
  loadNested,
  type NestedItems,
  type NestedStatements,
} from "../table/nested-items.js";
import type { HasManySpec } from "../table/spec.js";
import type { RelationKind } from "./kind.js";

/*
 * A hasMany relation: rows of another table whose `foreignKey` holds this row's id. Never joined
 * (a join would repeat the parent once per item and break its page); loaded for a whole page in
 * one statement, `foreignKey IN (the page's ids)`, ordered like a list, and handed to each parent.
 * Written from the other side (the items' belongsTo), and not filtered by.
 */

/** The statements that load the items of every parent of a page (the first ones of each). */
export function hasManyItems(
  relation: HasManySpec,
  items: NestedItems,
  parents: number,
): NestedStatements {
  const alias = quote(items.alias);
  const parent = `${alias}.${quote(relation.foreignKey)}`;
  return firstPerParent(
    items.columns,
    `${items.from}${items.joins} WHERE ${parent} IN (${items.parents})${items.reach}`,
    parent,
    alias,
    parents,
  );
}

export const hasMany: RelationKind<HasManySpec> = {
  joined: false,
  async loadPage(context, records, name, relation, scope, forOutput) {
    const page = nestedPage(context, records, name, relation.target(), scope, forOutput);
    if (page === undefined) return;
    const statements = page.statements(() => hasManyItems(relation, page.items, page.parents));
    await loadNested(context, page, statements, (row) => {
      const record = page.decode(row);
      return nestedItem(Number(record[relation.foreignKey]), record);
    });
  },
};
