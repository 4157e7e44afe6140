import type { JsonSchema } from "../model/json-schema.js";
import type { BelongsToModel, FieldModel, ProjectModel, ResourceModel } from "../model/types.js";
import type { ActionValidation } from "../model/validation.js";
import type {
  Access,
  AdminField,
  AdminFieldType,
  AdminInput,
  AdminLink,
  AdminManifest,
  AdminResource,
} from "./admin-types.js";

/**
 * The admin's manifest (src/admin/admin.json): every resource as its pages need it, for every role.
 * GET /api/admin/manifest narrows it to the caller's role (runtime admin/admin-manifest.ts); the
 * pages (runtime admin/) lay it out. Only what the model decided is here: labels, inputs from the
 * compiled payload schemas, the filter operators, who may do what.
 */
export function buildAdminManifest(model: ProjectModel): AdminManifest {
  const managed = model.user.managed ? [adminResource(model.user.managed)] : [];
  const { tenancy } = model;
  return {
    title: model.name,
    roles: model.auth.roles,
    mfa: model.auth.mfa !== undefined,
    reset: model.mail !== undefined,
    resources: [...model.resources.map(adminResource), ...managed],
    extras: {
      ...(model.auth.inviters.length > 0 ? { invitations: model.auth.inviters } : {}),
      ...(model.webhooks.length > 0 ? { deliveries: model.auth.roles[0] } : {}),
      // /api/jobs exists with a job of the project's, of files' (release, sweep) or of mail's.
      ...(model.jobs.length > 0 || hasFiles(model) || model.mail ? { jobs: model.auth.roles[0] } : {}),
      ...(tenancy
        ? {
            tenancy: {
              collection: tenancy.resource.collection,
              label: capitalized(tenancy.resource.names.label),
              roles: tenancy.roles,
              manage: tenancy.manage,
            },
          }
        : {}),
    },
  };
}

function hasFiles(model: ProjectModel): boolean {
  return model.resources.some((resource) => resource.declaration.files !== undefined);
}

function adminResource(resource: ResourceModel): AdminResource {
  const fields = [
    ...resource.fields.map((field) => fieldOf(resource, field)),
    ...resource.belongsTo.map((relation) => relationOf(resource, relation)),
    ...payloadOnly(resource),
  ];
  const tenant = resource.tenant?.kind;
  return {
    collection: resource.collection,
    ...(tenant === "member" || tenant === "self" ? { tenant } : {}),
    label: capitalized(resource.names.pluralLabel),
    singular: resource.names.label,
    prefix: resource.prefix,
    idKey: resource.publicIdKey,
    softDelete: resource.softDelete,
    audit: resource.audit !== null,
    search: resource.search.length > 0,
    titles: titlesOf(resource),
    actions: actionsOf(resource),
    fields,
    links: linksOf(resource),
    references: resource.referencedBy.map((reference) => ({
      collection: reference.resource.collection,
      label: capitalized(reference.resource.names.pluralLabel),
      onDelete: reference.onDelete,
    })),
    uploads: resource.declaration.files !== undefined,
  };
}

/** Who may take each enabled action. */
function actionsOf(resource: ResourceModel): AdminResource["actions"] {
  const actions: Record<string, Access> = {};
  for (const action of Object.values(resource.actions)) {
    if (!action.enabled) continue;
    actions[action.name] = action.public ? "public" : (action.roles ?? "all");
  }
  return actions;
}

/** Names a record: searchable text first, then any text field, each only as the role sees it. */
function titlesOf(resource: ResourceModel): string[] {
  const texts = resource.fields.filter((field) => field.filter === "string" && field.type !== "text");
  const searched = texts.filter((field) => field.search);
  return [...new Set([...searched, ...texts].map((field) => field.name))];
}

const inputTypes: Partial<Record<FieldModel["type"], AdminFieldType>> = { json: "json", file: "file" };

function fieldOf(resource: ResourceModel, field: FieldModel): AdminField {
  const type: AdminFieldType =
    field.name === "password" ? "password" : (inputTypes[field.type] ?? (field.type as AdminFieldType));
  const output = resource.serializer.some((key) => key.key === field.name);
  return {
    key: field.name,
    label: capitalized(field.label),
    type,
    ...(field.values.length > 0 ? { values: field.values } : {}),
    ...(field.nullable ? { nullable: true as const } : {}),
    output,
    ...(field.visibleTo ? { visibleTo: field.visibleTo } : {}),
    ...writers(field.writableBy, field.setByServer?.bypass),
    ...inputs(resource, field.name),
    ...(field.sortable && resource.sortable.includes(field.name) ? { sortable: true as const } : {}),
    ...operatorsOf(resource, field.name),
    ...(field.file ? { file: fileInput(field) } : {}),
  };
}

function relationOf(resource: ResourceModel, relation: BelongsToModel): AdminField {
  return {
    key: relation.name,
    label: capitalized(relation.label),
    type: "belongsTo",
    target: relation.target.collection,
    ...(relation.required ? {} : { nullable: true as const }),
    output: resource.serializer.some((key) => key.key === relation.name),
    ...writers(undefined, relation.setByCaller?.bypass),
    ...inputs(resource, relation.name),
    ...operatorsOf(resource, relation.name),
  };
}

/** Payload keys that are neither a field nor a belongsTo (a user's password). */
function payloadOnly(resource: ResourceModel): AdminField[] {
  const known = new Set([...resource.fields.map((field) => field.name), ...resource.belongsTo.map((relation) => relation.name)]);
  const links = new Set(resource.belongsToMany.map((relation) => relation.name));
  const keys = [...new Set([...resource.validation.create.keys, ...resource.validation.update.keys])];
  return keys
    .filter((key) => !known.has(key) && !links.has(key))
    .map((key) => ({
      key,
      label: capitalized(key.replaceAll("_", " ")),
      type: key === "password" ? "password" : "string",
      output: false,
      ...inputs(resource, key),
    }));
}

/** Roles that may write a value: its `writableBy`, or only its bypass roles when the server sets it. */
function writers(writableBy: string[] | undefined, bypass: string[] | undefined): Pick<AdminField, "writableBy"> {
  if (bypass) return { writableBy: writableBy ? writableBy.filter((role) => bypass.includes(role)) : bypass };
  return writableBy ? { writableBy } : {};
}

function inputs(resource: ResourceModel, key: string): Pick<AdminField, "create" | "update"> {
  const create = inputOf(resource.validation.create, key);
  const update = inputOf(resource.validation.update, key);
  return { ...(create ? { create } : {}), ...(update ? { update } : {}) };
}

/** An input's bounds, read from the payload schema the validator compiles. */
export function inputOf(validation: ActionValidation, key: string): AdminInput | undefined {
  if (!validation.keys.includes(key)) return undefined;
  const schema = (validation.schema.properties?.[key] ?? {}) as JsonSchema & Record<string, unknown>;
  const required = (validation.schema.required ?? []).includes(key);
  const input: Record<string, unknown> = required ? { required: true } : {};
  for (const [from, to] of [
    ["minLength", "minLength"],
    ["maxLength", "maxLength"],
    ["minimum", "min"],
    ["maximum", "max"],
  ] as const)
    if (typeof schema[from] === "number") input[to] = schema[from];
  const decimal = schema["x-decimal"] as { scale: number } | undefined;
  if (decimal) input.step = decimal.scale === 0 ? "1" : `0.${"0".repeat(decimal.scale - 1)}1`;
  else if (schema.type === "integer" || (Array.isArray(schema.type) && schema.type.includes("integer"))) input.step = "1";
  if (typeof schema.pattern === "string" && !/^\^[A-Z]+_/.test(schema.pattern)) input.pattern = schema.pattern;
  return input as AdminInput;
}

function operatorsOf(resource: ResourceModel, key: string): Pick<AdminField, "operators"> {
  const filter = resource.filters.find((candidate) => candidate.name === key);
  return filter ? { operators: [...filter.operators] } : {};
}

function fileInput(field: FieldModel): NonNullable<AdminField["file"]> {
  const rules = field.file!;
  const accept = [...(rules.mimetypes ?? []), ...(rules.mimes ?? []).map((extension) => `.${extension}`)];
  if (accept.length === 0 && rules.image) accept.push("image/*");
  return { accept: accept.join(","), maxKb: Math.floor(rules.maxBytes / 1024) };
}

function linksOf(resource: ResourceModel): AdminLink[] {
  const links: AdminLink[] = [];
  for (const relation of resource.relations) {
    if (relation.kind === "hasMany")
      links.push({ key: relation.name, label: capitalized(relation.name.replaceAll("_", " ")), kind: "hasMany", target: relation.target.collection, inverse: relation.inverse });
    else if (relation.kind === "belongsToMany") {
      const pivot = resource.pivotPayloads.find((payload) => payload.name === relation.name);
      links.push({
        key: relation.name,
        label: capitalized(relation.label),
        kind: "belongsToMany",
        target: relation.target.collection,
        pivot: relation.pivotFields.map((field) => ({
          key: field.name,
          label: capitalized(field.label),
          type: (inputTypes[field.type] ?? field.type) as AdminFieldType,
          ...(field.values.length > 0 ? { values: field.values } : {}),
          ...(field.nullable ? { nullable: true as const } : {}),
          output: true,
          ...(pivot ? { create: inputOf(pivot.validation, field.name) ?? {} } : {}),
        })),
      });
    }
  }
  return links;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
