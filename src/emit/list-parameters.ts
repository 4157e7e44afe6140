import { anyHashPattern } from "../model/public-names.js";
import { plainScalarSchema, type JsonSchema } from "../model/json-schema.js";
import { listOperators, maxListValues, maxMatchText, maxQueryText, maxSearchWords, textMatchOperators, type FilterOperator } from "../model/list-operators.js";
import type { ResourceModel } from "../model/types.js";

type Filter = ResourceModel["filters"][number];

/** An OpenAPI query parameter. */
export interface QueryParameter {
  name: string;
  in: "query";
  description?: string;
  schema: JsonSchema;
  /** The roles that may send it (a field only they see); the service answers 422 to the others. */
  "x-visible-to"?: string[];
}

/** What each operator does, as the parameter's description says it. */
const operatorNotes: Record<FilterOperator, string> = {
  eq: "equal to",
  ne: "not equal to (records without a value included)",
  gt: "greater than",
  gte: "greater than or equal to",
  lt: "less than",
  lte: "less than or equal to",
  between: "between two comma-separated values, both included",
  in: `one of up to ${maxListValues} comma-separated values`,
  nin: `none of up to ${maxListValues} comma-separated values (records without a value included)`,
  contains: "contains the text, case-insensitively",
  starts_with: "starts with the text, case-insensitively",
  ends_with: "ends with the text, case-insensitively",
  null: "true: has no value; false: has one",
};

/**
 * Every list filter as its own parameters (docs/spec-format.md "List queries"): the older exact
 * match `?field=`, then `filter[field]` and `filter[field][op]` for each operator the field takes,
 * each typed as the service parses it, so a generated client can type every one.
 */
export function filterParameters(filter: Filter): QueryParameter[] {
  const value = valueSchema(filter);
  const subject = filter.kind === "relation" ? " the related record's hash" : "";
  const parameters: QueryParameter[] = [{ name: filter.name, in: "query", description: `exact match on${subject || ` ${filter.name}`} (the older form of filter[${filter.name}])`, schema: value }];
  if (filter.operators.includes("eq")) parameters.push({ name: `filter[${filter.name}]`, in: "query", description: `${filter.name}: exact match${subject ? ` on${subject}` : ""}`, schema: value });
  for (const operator of filter.operators)
    parameters.push({ name: `filter[${filter.name}][${operator}]`, in: "query", description: `${filter.name}: ${operatorNotes[operator]}`, schema: operandSchema(filter, operator, value) });
  const roles = filter.visibleTo;
  if (roles === undefined) return parameters;
  const only = `; only for the roles ${roles.join(", ")} (the field is hidden from the others)`;
  return parameters.map((parameter) => ({ ...parameter, description: `${parameter.description}${only}`, "x-visible-to": roles }));
}

/** `?search=` and `?cursor=`, as the resource has them. */
export function searchAndCursorParameters(resource: ResourceModel): QueryParameter[] {
  return [
    ...(resource.search.length > 0
      ? [{ name: "search", in: "query" as const, description: `records where each of up to ${maxSearchWords} words (of up to ${maxMatchText} characters each) appears, case-insensitively, in ${resource.search.join(", ")}`, schema: { type: "string", maxLength: maxQueryText } }]
      : []),
    { name: "cursor", in: "query", description: "cursor pagination: empty for the first page, then meta.next_cursor or meta.prev_cursor (opaque; valid for the same query and caller only). Not with page.", schema: { type: "string", maxLength: maxQueryText } },
  ];
}

function operandSchema(filter: Filter, operator: FilterOperator, value: JsonSchema): JsonSchema {
  if (operator === "null") return { type: "boolean" };
  if (textMatchOperators.has(operator)) return { type: "string", minLength: 1, maxLength: maxMatchText };
  if (listOperators.has(operator)) return { type: "string", description: operator === "between" ? "low,high" : "comma-separated values" };
  return value;
}

function valueSchema(filter: Filter): JsonSchema {
  if (filter.values) return { type: "string", enum: [...filter.values] };
  if (filter.kind === "relation") return { type: "string", pattern: anyHashPattern };
  return plainScalarSchema(filter.kind) ?? { type: "string" };
}
