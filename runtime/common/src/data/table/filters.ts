// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { columnComparison, type LinkedCondition, type ListCondition } from "../list-conditions.js";
import { textMatchOperators } from "../list-operators.js";
import { textIndexQuery, textIndexTable } from "../text-index.js";
import { linkedFrom } from "../relations/belongs-to-many.js";
import { kindOf } from "../relations/kinds.js";
import type { Binder } from "../../db/sql.js";
import { encodeColumn, qualified, relationOf, type TableContext } from "./context.js";
import { fromClause } from "./spec.js";
import type { CountOptions } from "./options.js";
import { scopeConditions } from "./reach.js";

/*
 * The one place a list query's conditions become SQL: the WHERE of a list or a count is live rows,
 * the code's exact matches (`where`, `related`: `eq` conditions), the query's condition tree and the caller's reach, ANDed, every value
 * bound through one Binder (a placeholder per use).
 */

/** ` WHERE …` of a read filtered by `options` (empty when nothing narrows it). */
export function whereClause(
  context: TableContext,
  options: CountOptions<object>,
  values: Binder,
): string {
  const conditions: string[] = [];
  if (context.spec.softDelete && !options.withTrashed)
    conditions.push(`${context.alias}."deleted_at" IS NULL`);
  else if (context.spec.softDelete && options.withTrashed === "only")
    conditions.push(`${context.alias}."deleted_at" IS NOT NULL`);
  for (const [column, value] of Object.entries(options.where ?? {}))
    if (value !== undefined)
      conditions.push(conditionSql(context, { column, op: "eq", value }, values));
  for (const [relation, hash] of Object.entries(options.related ?? {}))
    conditions.push(conditionSql(context, { relation, op: "eq", value: hash }, values));
  for (const condition of options.conditions ?? [])
    conditions.push(conditionSql(context, condition, values));
  const query = textIndexQueryOf(context, options.conditions);
  if (query !== undefined)
    conditions.push(
      context.sql.dialect.textIndexTable!.narrowing(
        `${context.alias}."id"`,
        textIndexTable(context.spec.name),
        values.add(query),
      ),
    );
  if (options.scope) conditions.push(...scopeConditions(context, options.scope, values));
  return conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
}

/**
 * Where the database's trigram index is a table of its own (SQLite's FTS5), the FTS5 query whose
 * rows every row the conditions keep is among (data/text-index.ts); undefined where there is no
 * such table or it narrows none of them. The exact conditions still decide.
 */
export function textIndexQueryOf(
  context: TableContext,
  conditions: readonly ListCondition[] | undefined,
): string | undefined {
  const { textIndexed } = context.spec;
  if (context.sql.dialect.textIndexTable === undefined || !textIndexed?.length) return undefined;
  return textIndexQuery(conditions ?? [], new Set(textIndexed));
}

/** The root table of a list or count, its FTS5 narrowing (if any) driving the statement. */
export function listFrom(context: TableContext, options: CountOptions<object>): string {
  const driving =
    textIndexQueryOf(context, options.conditions) === undefined
      ? ""
      : context.sql.dialect.textIndexTable!.driving;
  return `${fromClause(context.spec)}${driving}`;
}

/** Whether `options` narrow the rows at all (beyond live ones). */
export function narrows(options: CountOptions<object>): boolean {
  return (
    Object.keys(options.where ?? {}).length > 0 ||
    Object.keys(options.related ?? {}).length > 0 ||
    (options.conditions?.length ?? 0) > 0 ||
    options.withTrashed === "only" ||
    options.scope !== undefined
  );
}

/** One condition of the tree as SQL, its values bound through `values`. */
export function conditionSql(
  context: TableContext,
  condition: ListCondition,
  values: Binder,
): string {
  if ("all" in condition) return group(context, condition.all, " AND ", "TRUE", values);
  if ("any" in condition) return group(context, condition.any, " OR ", "FALSE", values);
  if ("linkedFrom" in condition) return linkedFromSql(context, condition.linkedFrom, values);
  if ("relation" in condition) return relationSql(context, condition, values);
  const { column, op } = condition;
  // Text matches compare text: a pattern is bound as text whatever the column's kind.
  const text = textMatchOperators.has(op);
  return columnComparison(context.sql.dialect, qualified(context, column), condition, (value) =>
    values.add(text ? value : encodeColumn(context, column, value)),
  );
}

function group(
  context: TableContext,
  conditions: readonly ListCondition[],
  separator: string,
  empty: string,
  values: Binder,
): string {
  if (conditions.length === 0) return empty;
  const parts = conditions.map((condition) => conditionSql(context, condition, values));
  return parts.length === 1 ? parts[0]! : `(${parts.join(separator)})`;
}

/** A relation by hashes (`eq`, `in`) or its absence (`null`), as its kind filters (relations/<kind>.ts). */
function relationSql(
  context: TableContext,
  condition: Extract<ListCondition, { relation: string }>,
  values: Binder,
): string {
  const { relation: name, op, value } = condition;
  const relation = relationOf(context, name);
  const filter = kindOf(relation).filter;
  if (!filter)
    throw new Error(`${context.spec.name} cannot be filtered by its ${relation.kind} ${name}`);
  return filter(context, relation, op, value, values);
}

/** This table's rows that row `ownId` of another table links to through its relation. */
function linkedFromSql(
  context: TableContext,
  from: LinkedCondition["linkedFrom"],
  values: Binder,
): string {
  if (from.relation.target() !== context.spec)
    throw new Error(`That belongsToMany does not point at ${context.spec.name}`);
  return linkedFrom(from.relation, `${context.alias}."id"`, values.add(from.ownId));
}
