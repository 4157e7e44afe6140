// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { kindNoun, parseQueryValue, queryBoolean } from "../data/column-codec.js";
import {
  isFilterOperator,
  listOperators,
  maxListValues,
  maxMatchText,
  operatorsOf,
  textMatchOperators,
  type FilterKind,
  type FilterOperator,
} from "../data/list-operators.js";

/** What the list options say about filtering (see ListSpec in list-query.ts). */
export interface FilterSpec {
  readonly filters: Readonly<Record<string, FilterKind>>;
  readonly values?: Readonly<Record<string, readonly string[]>>;
  readonly operators?: Readonly<Record<string, readonly FilterOperator[]>>;
}

/** `filter[field]` or `filter[field][op]`: brackets without brackets inside. */
const bracketKey = /^filter\[([^[\]]*)\](?:\[([^[\]]*)\])?$/;

export function label(name: string): string {
  return name.replaceAll("_", " ");
}

/** The operators a field takes: its kind's, or the narrower list its spec declares. */
export function operatorsOfField(spec: FilterSpec, field: string): readonly FilterOperator[] {
  const narrowed =
    spec.operators && Object.hasOwn(spec.operators, field) ? spec.operators[field] : undefined;
  return narrowed ?? operatorsOf[spec.filters[field]!];
}

/** A `filter[…]` key read as field and operator, or undefined when it is not written that way. */
export function bracketFilter(key: string): { field: string; operator: string } | undefined {
  const match = bracketKey.exec(key);
  return match ? { field: match[1]!, operator: match[2] ?? "eq" } : undefined;
}

/**
 * One filter parameter's value, parsed as its field's kind parses it (column-codec.ts, as in
 * payloads), or the message of why it is not one. `eq` gives one value; a list for in/nin/between, a boolean for null.
 */
export function filterOperand(
  spec: FilterSpec,
  field: string,
  op: FilterOperator,
  raw: string,
): { value: unknown } | { problem: string } {
  const kind = spec.filters[field]!;
  const name = label(field);
  if (op === "null") {
    const value = queryBoolean(raw);
    if (value !== undefined) return { value };
    return { problem: `The ${name} filter (null) must be true or false.` };
  }
  if (textMatchOperators.has(op)) {
    if (raw === "") return { problem: `The ${name} filter (${op}) must not be empty.` };
    if (raw.length > maxMatchText)
      return {
        problem: `The ${name} filter (${op}) must not be greater than ${maxMatchText} characters.`,
      };
    const text = parseQueryValue("string", raw);
    return text === undefined
      ? { problem: `The ${name} filter (${op}) is not valid text.` }
      : { value: text };
  }
  const one = (text: string): unknown => {
    if (kind === "enum") return spec.values?.[field]?.includes(text) ? text : undefined;
    return parseQueryValue(kind, text);
  };
  const invalid =
    kind === "enum"
      ? `The selected ${name} is invalid.`
      : `The ${name} filter is not a valid ${kindNoun(kind)}.`;
  if (!listOperators.has(op)) {
    const value = one(raw);
    return value === undefined ? { problem: invalid } : { value };
  }
  const parts = raw.split(",");
  if (op === "between" && parts.length !== 2)
    return { problem: `The ${name} filter (between) must be two values separated by a comma.` };
  if (parts.length > maxListValues)
    return { problem: `The ${name} filter (${op}) may list at most ${maxListValues} values.` };
  const values = parts.map(one);
  if (values.some((value) => value === undefined)) return { problem: invalid };
  if (op === "between" && compare(values[0], values[1]) > 0)
    return { problem: `The ${name} filter (between) must not start above its end.` };
  return { value: values };
}

/** Order of two parsed values of one kind (numbers, exact decimals as text, dates). */
function compare(low: unknown, high: unknown): number {
  if (low instanceof Date && high instanceof Date) return low.getTime() - high.getTime();
  return Number(low) - Number(high);
}

/** Why `operator` does not apply to `field`, or undefined when it does. */
export function operatorProblem(
  spec: FilterSpec,
  field: string,
  operator: string,
): string | undefined {
  const allowed = operatorsOfField(spec, field);
  if (isFilterOperator(operator) && allowed.includes(operator)) return undefined;
  return `The ${label(field)} filter operator "${operator}" is not one of: ${allowed.join(", ")}.`;
}
