import { Document, isMap, parseDocument, type Node } from "yaml";
import { defaultCollection } from "../model/naming.js";
import type { FieldFlag } from "./fields-flag.js";

const schemaComment = " yaml-language-server: $schema=../node_modules/hashapi/schema/spec.schema.json";

/** A relation from `--belongs-to` (required), `--belongs-to-many` or `--has-many`: its name, the resource it points at. */
export interface BelongsToFlag {
  name: string;
  resource: string;
  type?: "belongsTo" | "belongsToMany" | "hasMany";
}

/** A relation's entry in a spec, as add-resource writes it. */
function relationEntry(relation: BelongsToFlag): Record<string, unknown> {
  if (relation.type === "belongsToMany" || relation.type === "hasMany") return { type: relation.type, resource: relation.resource };
  return { type: "belongsTo", resource: relation.resource, required: true };
}

/**
 * An existing spec with a hasMany relation added (the other side of a new resource's belongsTo):
 * one line inserted after its last relation, indented like them, or a `relations:` section appended;
 * every other byte as its author wrote it. Undefined when it has a relation of that name.
 */
export function withHasMany(text: string, relation: string, resource: string): string | undefined {
  const document = parseDocument(text);
  if (document.hasIn(["relations", relation])) return undefined;
  const entry = `${relation}: { type: hasMany, resource: ${resource} }`;
  const relations = document.get("relations", true);
  if (isMap(relations) && !relations.flow && relations.items.length > 0) {
    const first = relations.items[0]!.key as Node;
    const last = relations.items.at(-1)!.value as Node;
    const lineStart = text.lastIndexOf("\n", first.range![0] - 1) + 1;
    const indent = text.slice(lineStart, first.range![0]);
    const newline = text.indexOf("\n", last.range![1] - 1);
    const at = newline === -1 ? text.length : newline;
    return `${text.slice(0, at)}\n${indent}${entry}${text.slice(at)}`;
  }
  if (relations === undefined) return `${text.endsWith("\n") ? text : `${text}\n`}relations:\n  ${entry}\n`;
  // An empty or flow-style section: written anew through the YAML library.
  const node = document.createNode({ type: "hasMany", resource });
  node.flow = true;
  document.setIn(["relations", relation], node);
  return document.toString({ lineWidth: 0 });
}

/** The YAML of a new resource spec built from `--fields` (and `--belongs-to`). */
export function resourceSpecFromFields(name: string, fields: FieldFlag[], belongsTo: BelongsToFlag[] = []): string {
  const document = new Document({
    name,
    fields: Object.fromEntries(
      fields.map((field) => {
        const { values, ...options } = field.options;
        return [field.name, { type: field.type, ...(typeof values === "string" ? { values: values.split("|") } : {}), ...options }];
      }),
    ),
    ...(belongsTo.length > 0
      ? {
          relations: Object.fromEntries(
            belongsTo.map((relation) => [relation.name, relationEntry(relation)]),
          ),
        }
      : {}),
  });
  document.commentBefore = schemaComment;
  for (const section of ["fields", "relations"]) {
    const node = document.get(section);
    if (isMap(node)) for (const item of node.items) if (isMap(item.value)) item.value.flow = true;
  }
  return document.toString({ lineWidth: 0 });
}

/** A commented starting point when no fields were given: every section explained where it stands. */
export function resourceSpecTemplate(name: string): string {
  return `#${schemaComment}
# The ${name} resource. Every key is explained in hashapi's README, section "Spec format".
name: ${name}
# collection: ${defaultCollection(name)}   # URL segment; this is the default (kebab-case plural of the name)
# prefix: ABC                 # public id prefix, three letters; default: derived from the name
# softDelete: true            # DELETE marks deleted_at; POST /<collection>/<hash>/restore undoes it
fields:
  name: { type: string, max: 120 }
  # email: { type: email, unique: true }
  # status: { type: enum, values: [active, inactive], default: active }
  # notes: { type: text, nullable: true }
# relations:
#   author: { type: belongsTo, resource: Author, required: true }
# rules:                      # Laravel rules per action; default: derived from the fields
#   create:
#     name: [required, string, max:120]
# auth:
#   public: [index, show]     # actions that need no bearer token
`;
}
