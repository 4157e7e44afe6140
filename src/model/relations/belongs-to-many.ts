import { checkField } from "../../spec/field-checks.js";
import type { RelationSpec, ResourceSpec } from "../../spec/types.js";
import { nestedTypeName, pivotTypeName } from "../client-names.js";
import { fieldModel } from "../field-model.js";
import type { JsonSchema } from "../json-schema.js";
import type { FilterOperator } from "../list-operators.js";
import { toPascal } from "../naming.js";
import type { BelongsToManyModel } from "../types.js";
import type { RelationKind, TargetCheck } from "./kind.js";

/** A belongsToMany filters by the related records' hashes: linked to this one, or to any of these. */
export const manyOperators: readonly FilterOperator[] = ["eq", "in"];

/**
 * Records linked through a pivot table, with fields of their own on each link. The side without
 * `inverse` owns the pivot (its name, its fields); the inverse side reads it with the keys swapped.
 */
export const belongsToMany: RelationKind<"belongsToMany"> = {
  checkOptions(relation, at, source) {
    const problems = [];
    if (relation.name === "restore") problems.push(source.problem(at, `"restore" is the path of a restore; choose another relation name`, "key"));
    for (const option of ["required", "onDelete"] as const) {
      if (relation[option] !== undefined) problems.push(source.problem([...at, option], `"${option}" applies to belongsTo only; a belongsToMany's links are removed with either record`, "key"));
    }
    if (relation.pivot !== undefined && relation.inverse !== undefined) problems.push(source.problem([...at, "pivot"], `the pivot fields belong to the side without inverse (${relation.resource}.${relation.inverse}); declare them there`, "key"));
    for (const field of relation.pivot ?? []) {
      if (["hash", "id", "pivot"].includes(field.name) || field.name.endsWith("_id")) problems.push(source.problem([...at, "pivot", field.name], `"${field.name}" is reserved in a pivot (its keys and the related record's hash); choose another name`, "key"));
      if (field.unique) problems.push(source.problem([...at, "pivot", field.name, "unique"], "a pivot field cannot be unique"));
      if (field.index) problems.push(source.problem([...at, "pivot", field.name, "index"], "a pivot field takes no index of its own (the pivot is read by its keys)"));
      problems.push(...checkField(source, [...at, "pivot"], field, "pivot"));
    }
    return problems;
  },

  mayPointAtUsers: false,

  checkTarget: (check) => (check.target && check.relation.inverse !== undefined ? checkManyInverse(check) : []),

  build(relation, { spec, refs, specs, eager }) {
    const owning = relation.inverse === undefined;
    const { spec: ownerSpec, relation: ownerRelation } = owningSide(spec, relation, specs);
    const owner = refs.get(ownerSpec.name)!;
    const related = refs.get(ownerRelation.resource)!;
    // Keys `<owner>_id` and `<target>_id` (`related_<target>_id` when a resource relates to itself).
    const ownerKey = `${owner.names.snake}_id`;
    const relatedKey = related.name === owner.name ? `related_${related.names.snake}_id` : `${related.names.snake}_id`;
    return {
      kind: "belongsToMany",
      name: relation.name,
      label: relation.name.replaceAll("_", " "),
      target: refs.get(relation.resource)!,
      pivotTable: `${owner.table}_${ownerRelation.name}`,
      pivotModel: `${owner.names.pascal}${toPascal(ownerRelation.name)}`,
      ownKey: owning ? ownerKey : relatedKey,
      otherKey: owning ? relatedKey : ownerKey,
      pivotFields: (ownerRelation.pivot ?? []).map(fieldModel),
      owning,
      eager,
    };
  },

  // The records linked to one (or any of several) of the related records.
  filterOperators: manyOperators,

  eventKeys: (relation) => [relation.name, ...(relation.pivot ?? []).map((field) => `${relation.name}.${field.name}`)],

  repository: (relation) => {
    const pivotColumns = relation.pivotFields.map((field) => `${field.name}: "${field.kind}"`).join(", ");
    return {
      row: `${relation.name}?: (${relation.target.names.pascal}Row${relation.pivotFields.length > 0 ? " & { pivot: Record<string, unknown> }" : ""})[]`,
      table: `{ kind: "belongsToMany", pivot: "${relation.pivotTable}", ownKey: "${relation.ownKey}", otherKey: "${relation.otherKey}", target: () => ${relation.target.names.camel}Table${pivotColumns ? `, pivotColumns: { ${pivotColumns} }` : ""} }`,
    };
  },

  prisma: {
    fields: () => [],
    // The list side of each key of an owned pivot that points at `model`.
    fieldsOn: (model, source, relation) =>
      !relation.owning
        ? []
        : ([[relation.ownKey, source.name], [relation.otherKey, relation.target.name]] as const)
            .filter(([, target]) => target === model.name)
            .map(([key]) => [`${relation.pivotTable}_by_${key}`, `${relation.pivotModel}[]`, `@relation("${relation.pivotModel}_${key}")`]),
    fieldsOnUsers: () => [],
    indexes: () => [],
    /**
     * The pivot table: the two ids as a composite primary key (which also indexes the owning side),
     * an index on the other id, foreign keys that remove the links with either record, and the
     * pivot's own fields.
     */
    models(owner, relation, scalarLine) {
      if (!relation.owning) return [];
      const side = (key: string, target: string) => [key.slice(0, -"_id".length), target, `@relation("${relation.pivotModel}_${key}", fields: [${key}], references: [id], onDelete: Cascade)`];
      const lines = [
        [relation.ownKey, "Int", ""],
        [relation.otherKey, "Int", ""],
        ...relation.pivotFields.map((field) => scalarLine(field, relation.pivotTable)),
        side(relation.ownKey, owner.names.pascal),
        side(relation.otherKey, relation.target.names.pascal),
      ];
      return [{ name: relation.pivotModel, lines, attributes: [`@@id([${relation.ownKey}, ${relation.otherKey}])`, `@@index([${relation.otherKey}])`, `@@map("${relation.pivotTable}")`] }];
    },
  },

  loaded: {
    openApi: (resource, relation, target, record) => ({ items: linkedRecordSchema(relation, record()), rest: `GET /api/${resource.collection}/{hash}/${relation.name}` }),
    clientType: (resource, relation) =>
      relation.pivotFields.length > 0
        ? `(${nestedTypeName(relation.target)} & { pivot: ${pivotTypeName(resource.names.pascal, relation.name)} })[]`
        : `${nestedTypeName(relation.target)}[]`,
  },
};

/** A record read through a belongsToMany: the related record, with its link's `pivot` when the relation has fields. */
export function linkedRecordSchema(relation: BelongsToManyModel, record: JsonSchema): JsonSchema {
  if (relation.pivotFields.length === 0) return record;
  const pivot: JsonSchema = {
    type: "object",
    properties: Object.fromEntries(relation.pivotFields.map((field) => [field.name, field.outputSchema])),
    required: relation.pivotFields.map((field) => field.name),
    additionalProperties: false,
    description: "the link's own fields",
  };
  return { ...record, properties: { ...record.properties, pivot }, required: [...(record.required ?? []), "pivot"] };
}

/** The side of a belongsToMany that owns its pivot (the one without inverse), and its resource. */
export function owningSide(spec: ResourceSpec, relation: RelationSpec, specs: ReadonlyMap<string, ResourceSpec>): { spec: ResourceSpec; relation: RelationSpec } {
  if (relation.inverse === undefined) return { spec, relation };
  const owner = specs.get(relation.resource)!;
  return { spec: owner, relation: (owner.relations ?? []).find((candidate) => candidate.name === relation.inverse)! };
}

/** A belongsToMany's `inverse`: the other resource's belongsToMany back here, which owns the pivot. */
function checkManyInverse({ spec, source, relation, target }: TargetCheck) {
  const at = ["relations", relation.name, "inverse"];
  const other = (target!.spec.relations ?? []).find((candidate) => candidate.name === relation.inverse);
  const name = target!.spec.name;
  if (!other || other.type !== "belongsToMany" || other.resource !== spec.name) return [source.problem(at, `${name} has no belongsToMany "${relation.inverse}" pointing to ${spec.name}`)];
  if (other.inverse !== undefined) return [source.problem(at, `${name}.${relation.inverse} has an inverse too: exactly one side of a belongsToMany (the one that owns the pivot table) goes without inverse`)];
  return [];
}
