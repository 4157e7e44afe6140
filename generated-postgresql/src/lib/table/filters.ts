// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import {
  columnComparison,
  searchCondition,
  type LinkedCondition,
  type ListCondition,
  type SearchTerms,
} from "../list-conditions.js";
import { textMatchOperators } from "../list-operators.js";
import { linkedFrom, linkedToAny } from "../relations/belongs-to-many.js";
import { quote, type Binder } from "../sql.js";
import {
  belongsToManyOf,
  belongsToOf,
  encodeColumn,
  qualified,
  type TableContext,
} from "./context.js";
import type { CountOptions } from "./options.js";
import { scopeConditions } from "./reach.js";

/*
 * The WHERE of a list or a count: live rows, exact matches, relation hashes, operator filters,
 * `?search=` words and the caller's reach, ANDed, every value bound through one Binder.
 */

/**
 * The joins and ` WHERE …` of a read filtered by `options`. A list's read shape already joins every
 * belongsTo under its name; a count (`joinRelations`) joins the ones it filters by.
 */
export function filterClause(
  context: TableContext,
  options: CountOptions<object>,
  values: Binder,
  joinRelations: boolean,
): { joins: string; conditions: string } {
  const conditions: string[] = [];
  if (context.spec.softDelete && !options.withTrashed)
    conditions.push(`${context.alias}."deleted_at" IS NULL`);
  conditions.push(...exactMatches(context, options.where ?? {}, values));
  const related = relatedHashes(context, options.related ?? {}, values, joinRelations);
  conditions.push(...related.conditions);
  for (const condition of options.conditions ?? [])
    conditions.push(listCondition(context, condition, values));
  if (options.search && options.search.words.length > 0)
    conditions.push(searchWords(context, options.search, values));
  if (options.scope) conditions.push(...scopeConditions(context, options.scope, values));
  return {
    joins: related.joins.join(""),
    conditions: conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "",
  };
}

/** Whether `options` narrow the rows at all (beyond live ones). */
export function narrows(options: CountOptions<object>): boolean {
  return (
    Object.keys(options.where ?? {}).length > 0 ||
    Object.keys(options.related ?? {}).length > 0 ||
    (options.conditions?.length ?? 0) > 0 ||
    options.search !== undefined ||
    options.scope !== undefined
  );
}

function exactMatches(context: TableContext, where: object, values: Binder): string[] {
  return Object.entries(where)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) =>
      value === null
        ? `${qualified(context, column)} IS NULL`
        : `${qualified(context, column)} = ${values.add(encodeColumn(context, column, value))}`,
    );
}

/** belongsTo relation name → the related record's hash: matched on the relation's join. */
function relatedHashes(
  context: TableContext,
  related: Readonly<Record<string, string>>,
  values: Binder,
  joinRelations: boolean,
): { joins: string[]; conditions: string[] } {
  const joins: string[] = [];
  const conditions: string[] = [];
  for (const [name, hash] of Object.entries(related)) {
    const relation = belongsToOf(context, name);
    const alias = quote(name);
    if (joinRelations)
      joins.push(
        ` JOIN ${quote(relation.target().name)} AS ${alias} ON ${alias}."id" = ${context.alias}.${quote(relation.foreignKey)}`,
      );
    conditions.push(`${alias}."hash" = ${values.add(hash)}`);
  }
  return { joins, conditions };
}

function listCondition(context: TableContext, condition: ListCondition, values: Binder): string {
  if ("linkedFrom" in condition) return linkedFromCondition(context, condition.linkedFrom, values);
  if ("relation" in condition) {
    const hashes = () => (condition.value as readonly string[]).map((hash) => values.add(hash));
    if (Object.hasOwn(context.spec.belongsToMany, condition.relation)) {
      const relation = belongsToManyOf(context, condition.relation);
      return linkedToAny(relation, `${context.alias}."id"`, hashes());
    }
    const relation = belongsToOf(context, condition.relation);
    const foreignKey = `${context.alias}.${quote(relation.foreignKey)}`;
    return condition.op === "null"
      ? `${foreignKey} IS ${condition.value === true ? "" : "NOT "}NULL`
      : `${foreignKey} IN (SELECT "id" FROM ${quote(relation.target().name)} WHERE "hash" IN (${hashes().join(", ")}))`;
  }
  const { column } = condition;
  // Text matches compare text: a pattern is bound as text whatever the column's kind.
  const text = textMatchOperators.has(condition.op);
  return columnComparison(context.sql.dialect, qualified(context, column), condition, (value) =>
    values.add(text ? value : encodeColumn(context, column, value)),
  );
}

function searchWords(context: TableContext, search: SearchTerms, values: Binder): string {
  const columns = search.columns.map((name) => qualified(context, name));
  return searchCondition(context.sql.dialect, columns, search.words, (pattern) =>
    values.add(pattern),
  );
}

/** This table's rows that row `ownId` of another table links to through its relation. */
function linkedFromCondition(
  context: TableContext,
  from: LinkedCondition["linkedFrom"],
  values: Binder,
): string {
  if (from.relation.target() !== context.spec)
    throw new Error(`That belongsToMany does not point at ${context.spec.name}`);
  return linkedFrom(from.relation, `${context.alias}."id"`, values.add(from.ownId));
}
