import { substringOperators } from "../spec/field-checks.js";
import { kindOf } from "./relations/kinds.js";
import type { FieldModel, RelationModel, ResourceModel } from "./types.js";

/** What a list offers, leaving out what no caller may see (`unseen`): relations to load, sorts, filters, search. */
export function listSurface(fields: readonly FieldModel[], relations: readonly RelationModel[], unseen: ReadonlySet<string>): Pick<ResourceModel, "withable" | "sortable" | "filters" | "search" | "textIndexed"> {
  const readsSubstrings = (field: FieldModel) => field.search || field.operators.some((operator) => substringOperators.includes(operator));
  return {
    textIndexed: fields.filter((field) => field.textIndex && !unseen.has(field.name) && readsSubstrings(field)).map((field) => field.name),
    withable: relations.map((relation) => relation.name).filter((name) => !unseen.has(name)),
    sortable: [...fields.filter((field) => field.sortable).map((field) => field.name), "created_at", "updated_at"].filter((name) => !unseen.has(name)),
    filters: [
      ...fields.flatMap((field) =>
        field.filter && !unseen.has(field.name) ? [{ name: field.name, kind: field.filter, operators: field.operators, ...(field.filter === "enum" ? { values: field.values } : {}), ...(field.visibleTo ? { visibleTo: field.visibleTo } : {}) }] : [],
      ),
      ...relations.flatMap((relation) => {
        const operators = unseen.has(relation.name) ? undefined : kindOf(relation).filterOperators;
        return operators ? [{ name: relation.name, kind: "relation" as const, operators }] : [];
      }),
    ],
    search: fields.filter((field) => field.search && !unseen.has(field.name)).map((field) => field.name),
  };
}
