import { parseRule } from "../spec/rules.js";
import type { FieldSpec, ResourceSpec } from "../spec/types.js";
import { owningSide } from "./relations/belongs-to-many.js";
import type { BelongsToModel, OwnerModel, ResourceModel, ResourceRef } from "./types.js";
import {
  addManyRelations,
  buildActionValidation,
  deriveRules,
  type Action,
  type ActionValidation,
  type ParsedRule,
  type PayloadField,
  type PayloadRelation,
} from "./validation.js";

/**
 * What a resource's create and update accept (the same JSON Schemas the validators compile and
 * openapi.json publishes), and each belongsToMany's attach body (its pivot's fields).
 */
export function payloadValidation(
  spec: ResourceSpec,
  belongsTo: readonly BelongsToModel[],
  owner: OwnerModel | undefined,
  refs: Map<string, ResourceRef>,
  specs: Map<string, ResourceSpec>,
): Pick<ResourceModel, "validation" | "pivotPayloads"> {
  const payloadFields = spec.fields.map(payloadField);
  const payloadRelations: PayloadRelation[] = belongsTo.map((relation) => ({
    name: relation.name,
    targetResource: relation.target.name,
    targetPrefix: relation.target.prefix,
    required: relation.required,
    // A direct owner, or a relation the server sets (`set:`), comes from the token when the payload leaves it out.
    ...(relation.name === owner?.payloadKey || relation.setByCaller ? { setFromToken: true } : {}),
  }));
  const manyPayload = (spec.relations ?? [])
    .filter((relation) => relation.type === "belongsToMany")
    .map((relation) => {
      const pivotFields = owningSide(spec, relation, specs).relation.pivot?.map(payloadField) ?? [];
      // An attach's body is a create of the pivot's fields.
      const pivot = buildActionValidation("create", pivotFields, [], deriveRules("create", pivotFields, []));
      return { name: relation.name, targetPrefix: refs.get(relation.resource)!.prefix, pivotFields, pivot };
    });
  const validationFor = (action: Action) =>
    addManyRelations(buildActionValidation(action, payloadFields, payloadRelations, rulesFor(spec, action, payloadFields, payloadRelations)), manyPayload);
  return {
    validation: partialUpdate(validationFor("create"), validationFor("update")),
    pivotPayloads: manyPayload.map(({ name, pivot }) => ({ name, validation: pivot })),
  };
}

export function payloadField(spec: FieldSpec): PayloadField {
  return {
    name: spec.name,
    type: spec.type,
    nullable: spec.nullable ?? false,
    // The server fills a `set:` field when a payload leaves it out, as a default would.
    hasDefault: spec.default !== undefined || spec.set !== undefined,
    unique: spec.unique !== undefined && spec.unique !== false,
    // A file's max and min are kilobytes of its bytes (files/file-rules.ts), not its token's length.
    ...(spec.max !== undefined && spec.type !== "file" ? { max: spec.max } : {}),
    ...(spec.min !== undefined && spec.type !== "file" ? { min: spec.min } : {}),
    ...(spec.length !== undefined ? { length: spec.length } : {}),
    ...(spec.pattern !== undefined ? { pattern: spec.pattern } : {}),
    ...(spec.values !== undefined ? { values: spec.values } : {}),
    ...(spec.precision !== undefined ? { precision: spec.precision } : {}),
    ...(spec.scale !== undefined ? { scale: spec.scale } : {}),
    ...(spec.example !== undefined ? { example: spec.example } : {}),
  };
}


export function rulesFor(
  spec: ResourceSpec,
  action: Action,
  fields: PayloadField[],
  relations: PayloadRelation[],
): Map<string, ParsedRule[]> {
  const explicit = spec.rules?.[action];
  if (explicit === undefined) return deriveRules(action, fields, relations);
  return new Map(Object.entries(explicit).map(([key, rules]) => [key, rules.map(parseRule)]));
}


function partialUpdate(create: ActionValidation, update: ActionValidation): ResourceModel["validation"] {
  const sameKeys =
    create.payload.length === update.payload.length &&
    create.payload.every((key, index) => {
      const other = update.payload[index]!;
      return other.key === key.key && other.tsType === key.tsType && other.optional;
    });
  return { create, update, updateIsPartialCreate: sameKeys };
}
