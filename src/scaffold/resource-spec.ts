import { Document, isMap } from "yaml";
import { defaultCollection } from "../model/naming.js";
import type { FieldFlag } from "./fields-flag.js";

const schemaComment = " yaml-language-server: $schema=../node_modules/hashapi/schema/spec.schema.json";

/** A relation from `--belongs-to` (required) or `--belongs-to-many`: its name, the resource it points at. */
export interface BelongsToFlag {
  name: string;
  resource: string;
  type?: "belongsTo" | "belongsToMany";
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
            belongsTo.map((relation) => [
              relation.name,
              relation.type === "belongsToMany" ? { type: "belongsToMany", resource: relation.resource } : { type: "belongsTo", resource: relation.resource, required: true },
            ]),
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
