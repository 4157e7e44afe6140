import type { CheckedResource } from "../../spec/checked.js";
import type { SpecSource } from "../../spec/source.js";
import type { Problem, RelationSpec, ResourceSpec } from "../../spec/types.js";
import type { JsonSchema } from "../json-schema.js";
import type { FilterOperator } from "../list-operators.js";
import type { FieldModel, RelationKindName, RelationModels, ResourceModel, ResourceRef } from "../types.js";

/**
 * What one relation kind means at every stage of the generator, in one module per kind (beside the
 * runtime's `data/relations/<kind>.ts`): the spec options it takes, the model it builds, how it
 * filters and is output, its Prisma lines, its openapi.json schemas and its typed-client types.
 * Shared code asks the kind (`relationKinds` in kinds.ts) and never names one. The stages' own
 * helpers reach a kind through the contexts below, so that a kind imports nothing above the model.
 */
export interface RelationKind<K extends RelationKindName> {
  /** Checks its options within its resource's file (`at`: where the relation is). */
  checkOptions(relation: RelationSpec, at: readonly string[], source: SpecSource): Problem[];
  /** Whether it may point at the built-in User (users list nothing back). */
  readonly mayPointAtUsers: boolean;
  /** Checks what it points at, across files: `target` is undefined for the built-in User. */
  checkTarget(check: TargetCheck): Problem[];
  /** Its model, from the spec. */
  build(relation: RelationSpec, context: RelationBuild): RelationModels[K];
  /** The operators `?filter[<relation>]` takes; undefined when it is no filter. */
  readonly filterOperators: readonly FilterOperator[] | undefined;
  /** The keys its events record: its own name, and its links' fields, when its writes record any. */
  eventKeys(relation: RelationSpec): string[];
  /** Output as a key of every record, loaded or not (its related hash when not); else only when loaded. */
  readonly unloaded?: UnloadedOutput<K>;
  /** The generated repository: its key of the row type, and its entry in the table's `relations`. */
  repository(relation: RelationModels[K]): { row: string; table: string };
  prisma: PrismaFacet<K>;
  /** What a loaded relation is: its openapi.json schema and its typed-client type. */
  loaded: LoadedOutput<K>;
}

export interface TargetCheck {
  spec: ResourceSpec;
  source: SpecSource;
  relation: RelationSpec;
  /** Undefined when it points at the built-in User. */
  target: CheckedResource | undefined;
  /** Whether every relation of the target points at a known resource (its own file reports the others). */
  targetComplete: boolean;
}

export interface RelationBuild {
  spec: ResourceSpec;
  refs: ReadonlyMap<string, ResourceRef>;
  specs: ReadonlyMap<string, ResourceSpec>;
  eager: boolean;
}

/** A relation output as a key of every record (see `RelationKind.unloaded`). */
export interface UnloadedOutput<K extends RelationKindName> {
  /** Its schema: the related hash, or the related record when eager (`nest`: in a top-level record). */
  openApi(relation: RelationModels[K], nest: boolean, loaded: () => JsonSchema): JsonSchema;
  /** Its example value in openapi.json (`target` undefined: the built-in users). */
  example(relation: RelationModels[K], nest: boolean, target: ResourceModel | undefined, loaded: () => unknown): unknown;
  /** Its type in the typed client's `<Resource>Nested`. */
  clientType(relation: RelationModels[K]): string;
}

export interface LoadedOutput<K extends RelationKindName> {
  /**
   * The schema of its key when a record nests it with `?with=`, for kinds output only when loaded
   * (`record`: the target's record schema, its own relations as hashes).
   */
  openApi?(resource: ResourceModel, relation: RelationModels[K], target: ResourceModel, record: () => JsonSchema): { items: JsonSchema; rest: string };
  /** Its type in the typed client's `<Resource>Loaded`. */
  clientType(resource: ResourceModel, relation: RelationModels[K]): string;
}

/** How the Prisma schema declares it; a scalar line is `[name, type, attributes, doc?]`. */
export interface PrismaFacet<K extends RelationKindName> {
  /** Its lines on its own model (a foreign key and its relation). */
  fields(owner: ResourceModel, relation: RelationModels[K]): string[][];
  /** Its lines on `model` when it belongs to `source` (Prisma declares both sides of a relation). */
  fieldsOn(model: ResourceModel, source: ResourceModel, relation: RelationModels[K]): string[][];
  /** Its lines on the built-in users' model. */
  fieldsOnUsers(source: ResourceModel, relation: RelationModels[K]): string[][];
  /** Its `@@index` attributes on its own model. */
  indexes(relation: RelationModels[K]): string[];
  /** Models of its own (a pivot table), given how a field's column is declared. */
  models(owner: ResourceModel, relation: RelationModels[K], scalarLine: (field: FieldModel, table: string) => string[]): PrismaModelBlock[];
}

export interface PrismaModelBlock {
  name: string;
  lines: string[][];
  attributes: string[];
}
