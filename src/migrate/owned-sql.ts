import { dialectOf } from "../dialects/index.js";
import { caselessIndexes, caselessIndexSql, dropCaselessIndexSql, rebuildsTable, recreateCaselessIndexSql } from "./case-insensitive-email.js";
import { ownerIndexes, ownerIndexObject } from "./owner-indexes.js";
import type { Provider } from "./prisma-diff.js";
import { textIndexes, textIndexObject } from "./text-indexes.js";
import type { OwnedObject } from "./owned-object.js";

export type { OwnedObject };

/**
 * What hashapi's migrations own beside Prisma's diff: indexes on e-mails regardless of case,
 * trigram indexes, owners' partial indexes. Each is declared by a doc line of the schema
 * (marked-fields.ts), so the last migrated snapshot says what the database has and the new schema
 * what it should have; Prisma's diff never sees them, so it never drops them.
 */
export function ownedObjects(schema: string | null, provider: Provider): OwnedObject[] {
  return [
    ...caselessIndexes(schema).map((index) => ({
      id: `caseless ${index.name} ${index.table}(${index.within ?? ""},${index.column})`,
      table: index.table,
      names: [index.name],
      create: caselessIndexSql(index, provider),
      recreate: recreateCaselessIndexSql(index),
      drop: dropCaselessIndexSql(index),
    })),
    ...textIndexes(schema).map((index) => textIndexObject(index, provider)),
    ...ownerIndexes(schema).map(ownerIndexObject),
  ];
}

/** Statements before Prisma's diff (drops: a column SQLite drops must be free of them) and after. */
export interface OwnedChanges {
  readonly before: string[];
  readonly after: string[];
}

/**
 * What brings the database's owned objects from `from`'s (the last migrated schema, renames carried
 * out) to `schema`'s: drops of what is no longer wanted first, then, after the diff (`diffSql`),
 * what is new, and on SQLite what a rebuilt table lost.
 */
export function ownedChanges(from: string | null, schema: string, provider: Provider, diffSql: readonly string[]): OwnedChanges {
  const had = ownedObjects(from, provider);
  const wanted = ownedObjects(schema, provider);
  const rebuilt = (table: string) => dialectOf(provider).alterRebuildsTables && diffSql.some((sql) => rebuildsTable(sql, table));
  const before = had.filter((old) => !wanted.some((object) => object.id === old.id)).map((old) => old.drop);
  const after: string[] = [];
  const needs = new Set<string>();
  for (const object of wanted) {
    const made = !had.some((old) => old.id === object.id) ? object.create : rebuilt(object.table) ? object.recreate : undefined;
    if (made === undefined) continue;
    after.push(made);
    if (object.needs) needs.add(object.needs);
  }
  return { before, after: [...needs, ...after] };
}
