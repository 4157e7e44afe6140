import { setByServer } from "../../spec/set-by-server.js";
import { exampleHash, hashPattern } from "../hash-format.js";
import { hashTypeName, nestedTypeName } from "../client-names.js";
import type { JsonSchema } from "../json-schema.js";
import { operatorsOf } from "../list-operators.js";
import type { RelationKind } from "./kind.js";
import { prismaInverseName, prismaRelationName } from "./prisma-names.js";

const onDeleteActions = { restrict: "Restrict", cascade: "Cascade", setNull: "SetNull" } as const;

/** A foreign key here (`<name>_id`) to one record of the target, or of the built-in users. */
export const belongsTo: RelationKind<"belongsTo"> = {
  checkOptions(relation, at, source) {
    const problems = [];
    if (relation.pivot !== undefined) problems.push(source.problem([...at, "pivot"], `"pivot" applies to belongsToMany only`, "key"));
    if (relation.inverse !== undefined) problems.push(source.problem([...at, "inverse"], `"inverse" applies to hasMany only`, "key"));
    if (relation.onDelete === "setNull" && relation.required) {
      problems.push(source.problem([...at, "onDelete"], "setNull needs a relation that is not required (its column must accept NULL)"));
    }
    return problems;
  },

  mayPointAtUsers: true,

  checkTarget({ spec, source, relation, target }) {
    const eager = spec.eagerLoad?.includes(relation.name) ?? false;
    if (!target) {
      // A user is never shown to anonymous callers, so no record they may read can nest one.
      const publicReads = (spec.auth?.public ?? []).some((action) => action === "index" || action === "show");
      return eager && publicReads
        ? [source.problem(["eagerLoad", spec.eagerLoad!.indexOf(relation.name)], `"${relation.name}" is a user, which anonymous callers may not see: a resource with public reads cannot nest it in every response`)]
        : [];
    }
    return eager && relation.resource === spec.name ? [source.problem(["relations", relation.name, "resource"], "a resource cannot eager-load a relation to itself")] : [];
  },

  build(relation, { refs, eager }) {
    return {
      kind: "belongsTo",
      name: relation.name,
      label: relation.name.replaceAll("_", " "),
      foreignKey: `${relation.name}_id`,
      target: refs.get(relation.resource)!,
      required: relation.required ?? false,
      onDelete: relation.onDelete ?? "restrict",
      eager,
      ...(relation.set !== undefined ? { setByCaller: setByServer(relation)! } : {}),
    };
  },

  filterOperators: operatorsOf.relation,

  eventKeys: (relation) => [relation.name],

  unloaded: {
    openApi(relation, nest, loaded) {
      const hash: JsonSchema = { type: "string", pattern: hashPattern(relation.target.prefix) };
      // A nested record's own belongsTo are hashes only: built when nesting, so that a relation back
      // to the same resource (a review's parent review, A → B → A) ends there.
      const options: JsonSchema[] = !nest ? [hash] : relation.eager ? [loaded()] : [hash, loaded()];
      if (!relation.required) options.push({ type: "null" });
      const schema = options.length === 1 ? options[0]! : { anyOf: options };
      const set = relation.setByCaller;
      if (!set) return schema;
      // Set by the server from the caller (`set:`): read-only to clients, but for its bypass roles.
      const bypass = set.bypass.length > 0 ? `; the roles ${set.bypass.join(", ")} may name another user` : "";
      return { ...schema, readOnly: true, description: `Set by the server to the caller ${set.on === "write" ? "on every create and update" : "when the record is created"}${bypass}.` };
    },
    example(relation, nest, target, loaded) {
      if (!target) return relation.eager && nest ? { hash: exampleHash("USR"), name: "Ada Admin" } : exampleHash("USR");
      return relation.eager && nest ? loaded() : target.exampleHash;
    },
    clientType: (relation) => `${hashTypeName(relation.target)}${relation.required ? "" : " | null"}`,
  },

  repository: (relation) => ({
    row: `${relation.name}: ${relation.target.names.pascal}Row | { hash: string }${relation.required ? "" : " | null"}`,
    table: `{ kind: "belongsTo", foreignKey: "${relation.foreignKey}", target: () => ${relation.target.names.camel}Table }`,
  }),

  prisma: {
    fields(owner, relation) {
      const optional = relation.required ? "" : "?";
      const reference = `fields: [${relation.foreignKey}], references: [id], onDelete: ${onDeleteActions[relation.onDelete]}`;
      return [
        [relation.foreignKey, `Int${optional}`, ""],
        [relation.name, `${relation.target.names.pascal}${optional}`, `@relation("${prismaRelationName(owner, relation.name)}", ${reference})`],
      ];
    },
    fieldsOn(model, source, relation) {
      if (relation.target.builtIn || relation.target.name !== model.name) return [];
      // The list side: the hasMany that mirrors it when the target declares one.
      const declared = model.relations.find((candidate) => candidate.kind === "hasMany" && candidate.target.name === source.name && candidate.inverse === relation.name);
      return [[declared?.name ?? prismaInverseName(source, relation.name), `${source.names.pascal}[]`, `@relation("${prismaRelationName(source, relation.name)}")`]];
    },
    fieldsOnUsers: (source, relation) =>
      relation.target.builtIn ? [[prismaInverseName(source, relation.name), `${source.names.pascal}[]`, `@relation("${prismaRelationName(source, relation.name)}")`]] : [],
    indexes: (relation) => [`@@index([${relation.foreignKey}])`],
    models: () => [],
  },

  loaded: {
    clientType: (_resource, relation) => `${relation.target.builtIn ? "RelatedUser" : nestedTypeName(relation.target)}${relation.required ? "" : " | null"}`,
  },
};
