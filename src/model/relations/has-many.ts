import { toSnake } from "../naming.js";
import { nestedTypeName } from "../client-names.js";
import type { RelationSpec, ResourceSpec } from "../../spec/types.js";
import type { SpecSource } from "../../spec/source.js";
import type { RelationKind } from "./kind.js";

/** The target's records whose belongsTo (`inverse`) points at this one: read-only, loaded on demand. */
export const hasMany: RelationKind<"hasMany"> = {
  checkOptions(relation, at, source) {
    const problems = [];
    if (relation.pivot !== undefined) problems.push(source.problem([...at, "pivot"], `"pivot" applies to belongsToMany only`, "key"));
    for (const option of ["required", "onDelete"] as const) {
      if (relation[option] !== undefined) problems.push(source.problem([...at, option], `"${option}" applies to belongsTo only; set it on the other side`, "key"));
    }
    return problems;
  },

  mayPointAtUsers: false,

  // A belongsTo on the target with an unknown resource is reported there; its mirror is not checked.
  checkTarget: ({ spec, source, relation, target, targetComplete }) => (target && targetComplete ? checkInverse(spec, source, relation, target.spec) : []),

  build(relation, { spec, refs, specs, eager }) {
    const inverse = relation.inverse ?? inverseOf(spec.name, specs.get(relation.resource)!);
    return {
      kind: "hasMany",
      name: relation.name,
      target: refs.get(relation.resource)!,
      inverse,
      // The belongsTo's column on the target, named like every belongsTo's.
      foreignKey: `${inverse}_id`,
      eager,
    };
  },

  filterOperators: undefined,

  // Its writes are the other side's: its events record nothing of its own.
  eventKeys: () => [],

  repository: (relation) => ({
    row: `${relation.name}?: ${relation.target.names.pascal}Row[]`,
    table: `{ kind: "hasMany", foreignKey: "${relation.foreignKey}", target: () => ${relation.target.names.camel}Table }`,
  }),

  prisma: {
    // Declared by the belongsTo it mirrors (see belongs-to.ts `fieldsOn`).
    fields: () => [],
    fieldsOn: () => [],
    fieldsOnUsers: () => [],
    indexes: () => [],
    models: () => [],
  },

  loaded: {
    openApi: (_resource, _relation, target, record) => ({ items: record(), rest: `GET /api/${target.collection} filtered by this record` }),
    clientType: (_resource, relation) => `${nestedTypeName(relation.target)}[]`,
  },
};

/** The one belongsTo on the target that points back to the owner (validation made sure there is one). */
function inverseOf(owner: string, target: ResourceSpec): string {
  return (target.relations ?? []).find((relation) => relation.type === "belongsTo" && relation.resource === owner)!.name;
}

function checkInverse(spec: ResourceSpec, source: SpecSource, relation: RelationSpec, target: ResourceSpec) {
  const candidates = (target.relations ?? []).filter((other) => other.type === "belongsTo" && other.resource === spec.name);
  const at = ["relations", relation.name];
  if (relation.inverse !== undefined) {
    return candidates.some((candidate) => candidate.name === relation.inverse)
      ? []
      : [source.problem([...at, "inverse"], `${target.name} has no belongsTo "${relation.inverse}" pointing to ${spec.name}`)];
  }
  if (candidates.length === 0) {
    return [
      source.problem(
        [...at, "resource"],
        `hasMany needs a matching belongsTo on ${target.name}: add relations: { ${toSnake(spec.name)}: { type: belongsTo, resource: ${spec.name} } } to ${target.file}`,
      ),
    ];
  }
  if (candidates.length > 1) {
    return [source.problem(at, `${target.name} has several belongsTo to ${spec.name} (${candidates.map((candidate) => candidate.name).join(", ")}); name the one this hasMany mirrors with inverse:`, "key")];
  }
  return [];
}
