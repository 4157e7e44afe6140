// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ManyToManySpec } from "../data/relations/belongs-to-many.js";
import { kindOf } from "../data/relations/kinds.js";
import { columnsOf, relationOfKind, type TableSpec } from "../data/table.js";
import { outputOf } from "../data/serialize.js";
import { isPublicIdKey, type ResourceDescriptor } from "./descriptor.js";
import { hiddenByRole, type Viewer } from "./field-access.js";
import { objectBuilder, type BuiltKey } from "../base/object-builder.js";
import { isRecord } from "../base/records.js";
import { fileMetadata, type Files } from "../files/files.js";
import type { FileRules } from "../files/file-rules.js";
import type { StoredFile } from "../files/uploads.js";

/** A record as the serializer reads it. */
type Row = Record<string, unknown>;

const asIs = (value: unknown) => value;

/** A record as output to a viewer (fields it may not see are left out, nested records too). */
export type Serializer = (
  row: object,
  relations?: readonly string[],
  role?: Viewer,
) => Record<string, unknown>;

/**
 * The output shape of a resource's records, from its allow-list: a column not listed is never
 * output; the internal id and foreign keys never are. Related records are serialized by their own
 * resource's serializer, one level deep, and appear only when loaded; otherwise a belongsTo is its hash.
 */
export function createSerializer(
  resource: ResourceDescriptor,
  serializerOf: (table: TableSpec) => Serializer,
  /** The service's files, whose URLs a response gives; without: metadata only (every other exit). */
  files?: Files,
): Serializer {
  const { table, output, scales = {} } = resource;
  const fileRules = resource.files ?? {};
  const hiddenFrom = hiddenByRole(resource.visibleTo);
  const kinds = columnsOf(table);
  // Each key's value: a column's (read as a named property: see objectBuilder), or a relation's.
  const write = output.map((key): BuiltKey<Row, readonly string[], Viewer> => {
    if (isPublicIdKey(key)) return { key, from: "hash", write: asIs };
    const relation = relationOfKind(table, key, "belongsTo");
    if (relation) {
      const serializer = lazySerializer(() => serializerOf(relation.target()));
      return {
        key,
        write: (row, relations, role) => {
          const related = row[key] as { hash: string } | null;
          if (related === null) return null;
          return relations.includes(key) ? serializer()(related, noRelations, role) : related.hash;
        },
      };
    }
    if (Object.hasOwn(fileRules, key))
      return { key, from: key, write: fileOutput(fileRules[key]!, files) };
    return { key, from: key, write: outputOf(kinds[key] ?? "", scales[key] ?? 0) ?? asIs };
  });
  const nestedLists = nestedListsOf(table, serializerOf);
  // What a role sees, decided once per role: its keys and their writers, built as one object.
  const plans = new Map<Viewer, RecordOutput>();
  // A page's records are all output for one role: the last plan is kept at hand.
  let last: { role: Viewer; plan: RecordOutput } | undefined;
  const planFor = (role: Viewer): RecordOutput => {
    if (last !== undefined && last.role === role) return last.plan;
    let plan = plans.get(role);
    if (plan === undefined) {
      const hidden = hiddenFrom(role);
      plan = objectBuilder(write.filter(({ key }) => !hidden?.has(key)));
      plans.set(role, plan);
    }
    last = { role, plan };
    return plan;
  };
  return (record, relations = [], role) => {
    const row = record as Record<string, unknown>;
    const data = planFor(role)(row, relations, role);
    // A record read through a belongsToMany's own route carries its link's output values.
    if (row.pivot instanceof PivotOutput) data.pivot = row.pivot.values;
    for (const { name, serializer, pivot } of nestedLists) {
      const items = row[name] as Record<string, unknown>[] | undefined;
      if (items !== undefined) {
        const serialize = serializer();
        data[name] = items.map((item) => nestedOutput(item, serialize, pivot, role));
      }
    }
    return data;
  };
}

/** A file field's output: `{ name, size, type, url }` with files, its metadata without. */
function fileOutput(rules: FileRules, files: Files | undefined): (value: unknown) => unknown {
  return (value) => {
    if (!isRecord(value)) return null;
    const stored = value as unknown as StoredFile;
    return files ? files.output(stored, rules) : fileMetadata(stored);
  };
}

/**
 * The relations output as nested lists when loaded: every kind a record's read does not join.
 * Their serializers, and a belongsToMany link's pivot output.
 */
function nestedListsOf(table: TableSpec, serializerOf: (table: TableSpec) => Serializer) {
  // Related serializers are looked up on first use: resources refer to each other in cycles.
  return Object.entries(table.relations)
    .filter(([, relation]) => !kindOf(relation).joined)
    .map(([name, relation]) => ({
      name,
      serializer: lazySerializer(() => serializerOf(relation.target())),
      pivot: relation.kind === "belongsToMany" ? pivotOutput(relation) : undefined,
    }));
}

/** A record's output for one role: its visible keys, each written, in output order. */
type RecordOutput = (
  row: Row,
  relations: readonly string[],
  role: Viewer,
) => Record<string, unknown>;

// A nested record's own relations are never loaded: one empty list for all of them.
const noRelations: readonly string[] = [];

/** A serializer found by `find` on first use, then kept. */
function lazySerializer(find: () => Serializer): () => Serializer {
  let found: Serializer | undefined;
  return () => (found ??= find());
}

/** One nested record as output: its own fields, and its link's values for a belongsToMany with any. */
function nestedOutput(
  item: Record<string, unknown>,
  serialize: Serializer,
  pivot: ReturnType<typeof pivotOutput> | undefined,
  role: Viewer,
): Record<string, unknown> {
  const output = serialize(item, noRelations, role);
  if (pivot === undefined) return output;
  const values = pivot(item.pivot);
  if (values) output.pivot = values;
  else if ("pivot" in output) delete output.pivot;
  return output;
}

/** A link's values ready for output (see pivotOutput), as a relation route puts them on a record. */
export class PivotOutput {
  constructor(readonly values: Record<string, unknown>) {}
}

/**
 * How one belongsToMany's pivot values are output: each column as its kind is (a decimal exactly
 * as stored: the table declaration holds no scale for it); undefined without pivot columns.
 */
export function pivotOutput(
  relation: ManyToManySpec,
): (values: unknown) => Record<string, unknown> | undefined {
  const exact = (value: unknown) => (value === null ? null : String(value));
  const columns = Object.entries(relation.pivotColumns ?? {}).map(
    ([column, kind]) =>
      [
        column,
        kind === "decimal" ? exact : (outputOf(kind, 0) ?? ((value: unknown) => value)),
      ] as const,
  );
  if (columns.length === 0) return () => undefined;
  const build = objectBuilder<Row, undefined, undefined>(
    columns.map(([column, write]) => ({
      key: column,
      from: column,
      write: (value) => write(value ?? null),
    })),
  );
  return (values) => (isRecord(values) ? build(values, undefined, undefined) : undefined);
}
