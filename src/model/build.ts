import { filterOperators, operatorsOf, type FilterOperator } from "./list-operators.js";
import { evolutionOf } from "./evolution.js";
import { historyRoute, manyToManyRoutes, routesOf } from "./routes.js";
import { actionTable } from "./actions.js";
import { blindDeletes, destroyRoles } from "./blind-deletes.js";
import { setByServer } from "../spec/access-checks.js";
import type { FieldSpec, ProjectSpec, RelationSpec, ResourceSpec, ValidSpecs, WebhookSpec } from "../spec/types.js";
import { parseRule } from "../spec/rules.js";
import { defaultCollection, derivePrefix, withArticle, pluralize, splitWords, toCamel, toKebab, toPascal, toSnake } from "./naming.js";
import { exampleHash } from "./hash-format.js";
import { exampleValue, type PropertySchema } from "./example-values.js";
import { fieldType } from "./field-types.js";
import { laravelMessage } from "./laravel-messages.js";
import { fieldOutputSchema, tsTypeOf } from "./output-schema.js";
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
import type {
  ActionModel,
  BelongsToManyModel,
  ActionName,
  BelongsToModel,
  DeclarationModel,
  FieldModel,
  HasManyModel,
  Names,
  ProjectModel,
  ReferenceModel,
  OwnerModel,
  RelationModel,
  ResourceModel,
  ResourceRef,
  SerializedKey,
  UserModel,
  WebhookModel,
  RateLimitModel,
  ValueKind,
} from "./types.js";


/**
 * Builds the one normalized model from validated specs. Validation has already guaranteed that every
 * reference resolves, so this stage never reports user errors: a failure here is a hashapi bug.
 */
export function buildModel(specs: ValidSpecs, specsLabel: string): ProjectModel {
  const refs = new Map(specs.resources.map((spec) => [spec.name, resourceRef(spec)]));
  // The built-in users, which any resource may point at with a belongsTo.
  refs.set(userRef.name, userRef);
  const byName = new Map(specs.resources.map((spec) => [spec.name, spec]));
  const blind = blindDeletes(specs);
  // What a resource needs to know of the others is read from the specs first, so that each
  // resource is then built whole, once: who points at it, and the related resources' actions.
  const context: BuildContext = {
    refs,
    specs: byName,
    specsLabel,
    references: referencesOf(specs.resources, refs),
    actions: new Map(specs.resources.map((spec) => [spec.name, actionsOf(spec, refs.get(spec.name)!, destroyRoles(specs, spec, blind))])),
  };
  const resources = specs.resources.map((spec) => buildResource(spec, context));

  const database = databaseModel(specs.project);
  const managers = specs.project.auth.manageUsers;
  const user: UserModel = {
    prefix: "USR",
    extraFields: specs.project.auth.user.fields.map(fieldModel),
    caseless: ["email", ...specs.project.auth.user.fields.filter((field) => field.unique && fieldType(field.type).uniqueIgnoresCase).map((field) => field.name)],
    defaultRole: specs.project.auth.defaultRole,
    ...usersPointedAt(specs.resources, refs),
    ...(managers ? { managed: managedUsers(specs.project, managers, context) } : {}),
  };
  const model: ProjectModel = {
    name: specs.project.name,
    source: specsLabel,
    database,
    auth: { ttl: specs.project.auth.ttl, refreshTtl: specs.project.auth.refreshTtl, roles: specs.project.auth.roles, defaultRole: specs.project.auth.defaultRole, declaresRoles: specs.project.auth.declaresRoles },
    pagination: { ...specs.project.pagination },
    resources,
    user,
    evolution: evolutionOf(specs),
    out: specs.project.out,
    webhooks: specs.project.webhooks.map((webhook) => webhookModel(webhook, specs.project.auth.roles[0]!)),
    jobs: Object.entries(specs.project.jobs).map(([name, job]) => ({
      name,
      binding: `job_${name.replaceAll("-", "_")}`,
      attempts: job.attempts ?? 10,
      timeoutMs: (job.timeoutSeconds ?? 300) * 1000,
      concurrency: job.concurrency ?? 4,
    })),
    schedules: specs.project.schedules.map((schedule) => ({
      name: schedule.name,
      cron: schedule.cron,
      timezone: schedule.timezone ?? "UTC",
      job: schedule.job,
      payloadJson: JSON.stringify(schedule.payload ?? null),
    })),
    ...rateLimitModel(specs, resources),
  };
  return model;
}

/** hashapi.yaml's and the resources' `rateLimit`, as the runtime counts them (http/request-limits.ts). */
function rateLimitModel(specs: ValidSpecs, resources: readonly ResourceModel[]): { rateLimit?: RateLimitModel } {
  const project = specs.project.rateLimit;
  const routes: Record<string, number> = {};
  specs.resources.forEach((spec, index) => {
    for (const [action, points] of Object.entries(spec.rateLimit ?? {})) routes[`${resources[index]!.collection}.${action}`] = points;
  });
  if (!project && Object.keys(routes).length === 0) return {};
  return {
    rateLimit: {
      windowSeconds: project?.windowSeconds ?? 60,
      ...(project?.anonymous !== undefined ? { anonymous: project.anonymous } : {}),
      ...(project?.signedIn !== undefined ? { signedIn: project.signedIn } : {}),
      roles: { ...project?.roles },
      routes,
    },
  };
}

export function namesOf(name: string): Names {
  const plural = pluralize(name);
  return {
    pascal: toPascal(name),
    camel: toCamel(name),
    kebab: toKebab(name),
    snake: toSnake(name),
    label: splitWords(name).join(" ").toLowerCase(),
    aLabel: withArticle(splitWords(name).join(" ").toLowerCase()),
    pluralPascal: toPascal(plural),
    pluralCamel: toCamel(plural),
    pluralKebab: toKebab(plural),
    pluralSnake: toSnake(plural),
    pluralLabel: splitWords(plural).join(" ").toLowerCase(),
  };
}

/** The built-in users (src/auth): a belongsTo target like a resource's, read through src/resources/user/user.repository.ts. */
export const userRef: ResourceRef = {
  name: "User",
  names: namesOf("User"),
  prefix: "USR",
  collection: "users",
  table: "users",
  publicIdKey: "hash",
  softDelete: false,
  builtIn: true,
};

/** `owner:` as the runtime applies it: the column holding the owner's id, on this table or on the parent's. */
function ownerOf(spec: ResourceSpec, specs: Map<string, ResourceSpec>): OwnerModel | undefined {
  if (!spec.owner) return undefined;
  const [first, second] = spec.owner.relation.split(".") as [string, string | undefined];
  const bypass = spec.owner.bypass ?? [];
  if (second === undefined) return { column: `${first}_id`, payloadKey: first, bypass };
  void specs;
  return { through: first, column: `${second}_id`, bypass };
}

function resourceRef(spec: ResourceSpec): ResourceRef {
  const names = namesOf(spec.name);
  return {
    name: spec.name,
    names,
    prefix: spec.prefix ?? derivePrefix(spec.name)!,
    collection: spec.collection ?? defaultCollection(spec.name),
    table: names.pluralSnake,
    publicIdKey: spec.serializer?.publicId ?? "hash",
    softDelete: spec.softDelete ?? false,
  };
}

function databaseModel(project: ProjectSpec): ProjectModel["database"] {
  const provider = project.database;
  return {
    provider,
    isSqlite: provider === "sqlite",
    isPostgresql: provider === "postgresql",
    defaultUrl: provider === "sqlite" ? "file:./data/app.db" : "postgresql://localhost:5432/app",
  };
}

/** How a field is filtered and searched on lists: its type's operators, narrowed or turned off by its spec. */
function filterOptions(spec: FieldSpec): Pick<FieldModel, "filter" | "operators" | "narrowed" | "search"> {
  const kind = spec.filter === false ? undefined : fieldType(spec.type).filter;
  const narrowed = Array.isArray(spec.filter);
  const operators = kind === undefined ? [] : narrowed ? filterOperators.filter((operator) => (spec.filter as FilterOperator[]).includes(operator)) : [...operatorsOf[kind]];
  return { filter: kind, operators, narrowed: kind !== undefined && narrowed, search: spec.search === true };
}

function fieldModel(spec: FieldSpec): FieldModel {
  const field: FieldModel = {
    name: spec.name,
    label: spec.name.replaceAll("_", " "),
    type: spec.type,
    kind: fieldType(spec.type).kind,
    nullable: spec.nullable ?? false,
    unique: spec.unique ?? false,
    indexed: spec.index === true,
    // The server fills a `set:` field when a payload leaves it out, as a default would.
    hasDefault: spec.default !== undefined || spec.set !== undefined,
    tsType: "",
    outputSchema: {},
    values: spec.values ?? [],
    column: {
      ...(spec.max !== undefined ? { max: spec.max } : {}),
      ...(spec.precision !== undefined ? { precision: spec.precision } : {}),
      ...(spec.scale !== undefined ? { scale: spec.scale } : {}),
      ...(spec.default !== undefined ? { default: spec.default } : {}),
    },
    scale: spec.type === "decimal" ? (spec.scale ?? 2) : 0,
    ...filterOptions(spec),
    sortable: fieldType(spec.type).sortable,
    ...(spec.visibleTo ? { visibleTo: spec.visibleTo } : {}),
    ...(spec.writableBy ? { writableBy: spec.writableBy } : {}),
    ...(spec.set !== undefined ? { setByServer: setByServer(spec)! } : {}),
  };
  field.tsType = tsTypeOf(field);
  field.outputSchema = fieldOutputSchema(field, spec);
  return field;
}

function payloadField(spec: FieldSpec): PayloadField {
  return {
    name: spec.name,
    type: spec.type,
    nullable: spec.nullable ?? false,
    // The server fills a `set:` field when a payload leaves it out, as a default would.
    hasDefault: spec.default !== undefined || spec.set !== undefined,
    unique: spec.unique ?? false,
    ...(spec.max !== undefined ? { max: spec.max } : {}),
    ...(spec.min !== undefined ? { min: spec.min } : {}),
    ...(spec.length !== undefined ? { length: spec.length } : {}),
    ...(spec.pattern !== undefined ? { pattern: spec.pattern } : {}),
    ...(spec.values !== undefined ? { values: spec.values } : {}),
    ...(spec.precision !== undefined ? { precision: spec.precision } : {}),
    ...(spec.scale !== undefined ? { scale: spec.scale } : {}),
    ...(spec.example !== undefined ? { example: spec.example } : {}),
  };
}

/**
 * `auth.users.manage`: the built-in users as a resource of their own, built from a spec like any
 * other (so its validation, list options, routes and openapi.json entries come from the same code),
 * served at /api/users by the runtime's UsersService. Output like /api/auth/me: never the password.
 */
function managedUsers(project: ProjectSpec, managers: string[], context: BuildContext): ResourceModel {
  const userFields = project.auth.user.fields;
  const spec: ResourceSpec = {
    file: "hashapi.yaml",
    name: userRef.name,
    fields: [
      { name: "name", type: "string", max: 255 },
      { name: "email", type: "email", max: 255, unique: true },
      { name: "password", type: "string", min: 8, max: 1024 },
      { name: "role", type: "enum", values: project.auth.roles, default: project.auth.defaultRole },
      ...userFields,
    ],
    serializer: { fields: ["name", "email", "role", ...userFields.map((field) => field.name)] },
    auth: { roles: Object.fromEntries(actionTable.filter(({ softDeleteOnly }) => !softDeleteOnly).map(({ name }) => [name, managers])) },
  };
  // A password is written, never read: neither a filter nor a sort may compare it.
  return buildResource(spec, context, ["password"]);
}

/** What building one resource reads of the whole project (see buildModel). */
interface BuildContext {
  refs: Map<string, ResourceRef>;
  specs: Map<string, ResourceSpec>;
  specsLabel: string;
  /** Per resource, the belongsTo of others that point at it (the built-in users keep none). */
  references: Map<string, ReferenceModel[]>;
  actions: Map<string, Record<ActionName, ActionModel>>;
}

/** What a user's delete does to the records pointing at them (recorded as their events), and their resources. */
function usersPointedAt(specs: readonly ResourceSpec[], refs: Map<string, ResourceRef>): Pick<UserModel, "cascadeTo" | "nullOnDelete" | "pointing"> {
  const cascadeTo = pointingAtUsers(specs, refs, "cascade");
  const nullOnDelete = pointingAtUsers(specs, refs, "setNull");
  const pointing = [...cascadeTo, ...nullOnDelete].map((entry) => entry.target);
  return { cascadeTo, nullOnDelete, pointing: pointing.filter((target, index) => pointing.findIndex((other) => other.name === target.name) === index) };
}

/** The belongsTo relations to the built-in users whose onDelete is `onDelete`. */
function pointingAtUsers(
  specs: readonly ResourceSpec[],
  refs: Map<string, ResourceRef>,
  onDelete: "cascade" | "setNull",
): { target: ResourceRef; foreignKey: string }[] {
  return specs.flatMap((source) =>
    (source.relations ?? [])
      .filter((relation) => relation.type === "belongsTo" && relation.resource === "User" && relation.onDelete === onDelete)
      .map((relation) => ({ target: refs.get(source.name)!, foreignKey: `${relation.name}_id` })),
  );
}

/** A webhook as config.ts reads it: `${NAME}` values by their variable's name. */
function webhookModel(webhook: WebhookSpec, firstRole: string): WebhookModel {
  const variable = (value: string) => /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(value)?.[1];
  const urlVariable = variable(webhook.url);
  return {
    name: webhook.name,
    url: urlVariable === undefined ? { literal: webhook.url } : { env: urlVariable },
    secretEnv: variable(webhook.secret)!,
    events: webhook.events,
    as: webhook.as ?? firstRole,
    retryHours: webhook.retryHours ?? 24,
    seeds: webhook.seeds ?? false,
    concurrency: webhook.concurrency ?? 16,
  };
}

/** `audit: true` or `{ retainDays: N }`: the history route and how long events are kept. */
function auditOf(audit: ResourceSpec["audit"]): ResourceModel["audit"] {
  if (audit === undefined || audit === false) return null;
  return { retainDays: audit === true ? null : audit.retainDays };
}

/** Every resource's belongsTo, as the target sees it: in spec order, sources in order. */
function referencesOf(specs: readonly ResourceSpec[], refs: Map<string, ResourceRef>): Map<string, ReferenceModel[]> {
  const references = new Map<string, ReferenceModel[]>(specs.map((spec) => [spec.name, []]));
  for (const source of specs)
    for (const relation of source.relations ?? []) {
      if (relation.type !== "belongsTo") continue;
      // The built-in users keep no list of what points at them (they are deleted by SQL only).
      references.get(relation.resource)?.push({ resource: refs.get(source.name)!, relation: relation.name, foreignKey: `${relation.name}_id`, onDelete: relation.onDelete ?? "restrict" });
    }
  return references;
}

/** destroy: the roles that may delete, once those a refusal would tell what they cannot read are out (blind-deletes.ts). */
function actionsOf(spec: ResourceSpec, ref: ResourceRef, destroy: string[] | undefined): Record<ActionName, ActionModel> {
  const publicActions = new Set(spec.auth?.public ?? []);
  return Object.fromEntries(
    actionTable.map(({ name, softDeleteOnly }): [ActionName, ActionModel] => {
      const roles = name === "destroy" ? destroy : spec.auth?.roles?.[name];
      return [name, { name, enabled: !softDeleteOnly || ref.softDelete, public: publicActions.has(name), ...(roles ? { roles } : {}) }];
    }),
  ) as Record<ActionName, ActionModel>;
}

/** writeOnly: columns no filter or sort may compare (the users' password). */
function buildResource(spec: ResourceSpec, context: BuildContext, writeOnly: readonly string[] = []): ResourceModel {
  const { refs, specs, specsLabel } = context;
  const ref = refs.get(spec.name)!;
  const eagerLoad = spec.eagerLoad ?? [];
  // What no caller may compare, sort by, search or load: hidden means hidden in every query form.
  const unseen = new Set([...writeOnly, ...hiddenNames(spec)]);
  const fields = spec.fields.map(fieldModel);
  const relations = spec.relations ?? [];

  const belongsTo: BelongsToModel[] = relations
    .filter((relation) => relation.type === "belongsTo")
    .map((relation) => ({
      kind: "belongsTo" as const,
      name: relation.name,
      label: relation.name.replaceAll("_", " "),
      foreignKey: `${relation.name}_id`,
      target: refs.get(relation.resource)!,
      required: relation.required ?? false,
      onDelete: relation.onDelete ?? "restrict",
      eager: eagerLoad.includes(relation.name),
      ...(relation.set !== undefined ? { setByCaller: setByServer(relation)! } : {}),
    }));
  const hasMany: HasManyModel[] = relations
    .filter((relation) => relation.type === "hasMany")
    .map((relation) => {
      const inverse = relation.inverse ?? inverseOf(spec.name, specs.get(relation.resource)!);
      return {
        kind: "hasMany" as const,
        name: relation.name,
        target: refs.get(relation.resource)!,
        inverse,
        // The belongsTo's column on the target, named like every belongsTo's (see above).
        foreignKey: `${inverse}_id`,
        eager: eagerLoad.includes(relation.name),
      };
    });

  const belongsToMany = relations
    .filter((relation) => relation.type === "belongsToMany")
    .map((relation) => manyToMany(spec, relation, refs, specs, eagerLoad));
  const relationModels: RelationModel[] = [...belongsTo, ...hasMany, ...belongsToMany];

  // The built-in users' resource (/api/users) is built from a spec of its own, outside the specs' actions.
  const actions = context.actions.get(spec.name) ?? actionsOf(spec, ref, spec.auth?.roles?.destroy);

  const owner = ownerOf(spec, specs);
  const payloadFields = spec.fields.map(payloadField);
  const payloadRelations: PayloadRelation[] = belongsTo.map((relation) => ({
    name: relation.name,
    targetResource: relation.target.name,
    targetPrefix: relation.target.prefix,
    required: relation.required,
    // A direct owner, or a relation the server sets (`set:`), comes from the token when the payload leaves it out.
    ...(relation.name === owner?.payloadKey || relation.setByCaller ? { setFromToken: true } : {}),
  }));
  const manyPayload = relations
    .filter((relation) => relation.type === "belongsToMany")
    .map((relation) => {
      const pivotFields = owningSide(spec, relation, specs).relation.pivot?.map(payloadField) ?? [];
      // An attach's body is a create of the pivot's fields.
      const pivot = buildActionValidation("create", pivotFields, [], deriveRules("create", pivotFields, []));
      return { name: relation.name, targetPrefix: refs.get(relation.resource)!.prefix, pivotFields, pivot };
    });
  const validationFor = (action: Action) =>
    addManyRelations(buildActionValidation(action, payloadFields, payloadRelations, rulesFor(spec, action, payloadFields, payloadRelations)), manyPayload);

  const core: ResourceCore = {
    ...(owner ? { owner } : {}),
    name: spec.name,
    names: ref.names,
    source: `${specsLabel}${spec.file.slice(spec.file.lastIndexOf("/") + 1)}`,
    collection: ref.collection,
    table: ref.table,
    prefix: ref.prefix,
    softDelete: ref.softDelete,
    fields,
    relations: relationModels,
    belongsTo,
    hasMany,
    belongsToMany,
    referencedBy: context.references.get(spec.name) ?? [],
    eagerLoad,
    audit: auditOf(spec.audit),
    withable: relationModels.map((relation) => relation.name).filter((name) => !unseen.has(name)),
    sortable: [...fields.filter((field) => field.sortable).map((field) => field.name), "created_at", "updated_at"].filter((name) => !unseen.has(name)),
    filters: [
      ...fields.flatMap((field) =>
        field.filter && !unseen.has(field.name) ? [{ name: field.name, kind: field.filter, operators: field.operators, ...(field.filter === "enum" ? { values: field.values } : {}), ...(field.visibleTo ? { visibleTo: field.visibleTo } : {}) }] : [],
      ),
      ...relationModels.flatMap((relation) => {
        const operators = unseen.has(relation.name) ? undefined : relationOperators(relation);
        return operators ? [{ name: relation.name, kind: "relation" as const, operators }] : [];
      }),
    ],
    search: fields.filter((field) => field.search && !unseen.has(field.name)).map((field) => field.name),
    publicIdKey: ref.publicIdKey,
    actions,
    routes: [
      ...routesOf(ref.collection, actions, spec.owner),
      ...(spec.audit ? [historyRoute(ref.collection, actions, spec.owner)] : []),
      // A belongsToMany's routes are open to whom the related resource's list is.
      ...belongsToMany.flatMap((relation) => manyToManyRoutes(ref.collection, relation.name, actions, context.actions.get(relation.target.name)!.index)),
    ],
    validation: partialUpdate(validationFor("create"), validationFor("update")),
    pivotPayloads: manyPayload.map(({ name, pivot }) => ({ name, validation: pivot })),
    seed: spec.seed ? { by: spec.fields.find((field) => field.unique)!.name, rows: spec.seed } : undefined,
    exampleHash: exampleHash(ref.prefix),
  };
  const serializer = serializerKeys(spec, core);
  return { ...core, serializer, examples: examplesOf(core, specs), declaration: declarationOf({ ...core, serializer }) };
}

/** A resource before what is derived from the rest of it: its output keys, test examples and declaration. */
type ResourceCore = Omit<ResourceModel, "serializer" | "examples" | "declaration">;

function partialUpdate(create: ActionValidation, update: ActionValidation): ResourceModel["validation"] {
  const sameKeys =
    create.payload.length === update.payload.length &&
    create.payload.every((key, index) => {
      const other = update.payload[index]!;
      return other.key === key.key && other.tsType === key.tsType && other.optional;
    });
  return { create, update, updateIsPartialCreate: sameKeys };
}

/** The data the runtime library needs, decided here so that templates only lay it out. */
function declarationOf(resource: ResourceCore & Pick<ResourceModel, "serializer">): DeclarationModel {
  const columns: Record<string, ValueKind> = {};
  for (const field of resource.fields) columns[field.name] = field.kind;
  for (const relation of resource.belongsTo) columns[relation.foreignKey] = "integer";
  const scales: Record<string, number> = {};
  for (const field of resource.fields) if (field.kind === "decimal") scales[field.name] = field.scale;
  const referencing = (onDelete: BelongsToModel["onDelete"]) =>
    resource.referencedBy
      .filter((reference) => reference.onDelete === onDelete)
      .map((reference) => ({ target: reference.resource, foreignKey: reference.foreignKey }));
  const restrictedBy = referencing("restrict");
  // A soft delete applies cascade and setNull itself; a hard delete leaves them to the database's
  // foreign keys and records their events from these (runtime lib/events/cascade-events.ts).
  const cascadeTo = referencing("cascade");
  const nullOnDelete = referencing("setNull");
  const read = resource.relations.map((relation) => relation.target);
  const pointing = [...restrictedBy, ...cascadeTo, ...nullOnDelete].map((entry) => entry.target);
  return {
    columns,
    restrictedBy,
    cascadeTo,
    nullOnDelete,
    caseless: resource.fields.filter((field) => field.unique && fieldType(field.type).uniqueIgnoresCase).map((field) => field.name),
    unique: nonEmpty(
      Object.fromEntries(
        resource.fields.filter((field) => field.unique).map((field) => [field.name, laravelMessage("unique", field.name)]),
      ),
    ),
    exists: nonEmpty(
      Object.fromEntries(resource.belongsTo.map((relation) => [relation.name, laravelMessage("exists", relation.name)])),
    ),
    filters: Object.fromEntries(resource.filters.map((filter) => [filter.name, filter.kind])),
    filterValues: nonEmpty(Object.fromEntries(resource.filters.flatMap((filter) => (filter.values ? [[filter.name, filter.values]] : [])))),
    filterOperators: nonEmpty(
      Object.fromEntries([
        ...resource.fields.flatMap((field) => (field.narrowed ? [[field.name, field.operators] as const] : [])),
        ...resource.belongsToMany.flatMap((relation) => (resource.filters.some((filter) => filter.name === relation.name) ? [[relation.name, manyOperators] as const] : [])),
      ]),
    ),
    output: {
      // hasMany relations are output whenever loaded, after these keys.
      keys: resource.serializer.filter((entry) => entry.kind !== "hasMany" && entry.kind !== "belongsToMany").map((entry) => entry.key),
      scales: nonEmpty(scales),
    },
    publicActions: Object.values(resource.actions)
      .filter((action) => action.public)
      .map((action) => action.name),
    owner: resource.owner,
    visibleTo: nonEmpty(Object.fromEntries(resource.fields.flatMap((field) => (field.visibleTo ? [[field.name, field.visibleTo]] : [])))),
    writableBy: nonEmpty(Object.fromEntries(resource.fields.flatMap((field) => (field.writableBy ? [[field.name, field.writableBy]] : [])))),
    setByServer: nonEmpty(
      Object.fromEntries([
        ...resource.belongsTo.flatMap((relation) => (relation.setByCaller ? [[relation.name, { ...relation.setByCaller, from: "caller" as const }]] : [])),
        ...resource.fields.flatMap((field) => (field.setByServer ? [[field.name, { ...field.setByServer, from: "clock" as const }]] : [])),
      ]),
    ),
    roles: nonEmpty(Object.fromEntries(Object.values(resource.actions).flatMap((action) => (action.roles && action.enabled ? [[action.name, action.roles]] : [])))),
    related: relatedOf(resource, read, pointing),
  };
}

/** Undefined for an empty map: the declaration leaves out what is empty. */
function nonEmpty<T>(record: Record<string, T>): Record<string, T> | undefined {
  return Object.keys(record).length > 0 ? record : undefined;
}

/** Each other resource once, in order of first mention; `row` when a relation (not only a restriction) reads it. */
function relatedOf(resource: ResourceCore, read: ResourceRef[], restricting: ResourceRef[]): DeclarationModel["related"] {
  const related: DeclarationModel["related"] = [];
  for (const [target, row] of [...read.map((ref) => [ref, true] as const), ...restricting.map((ref) => [ref, false] as const)]) {
    if (target.name === resource.name) continue;
    const known = related.find((entry) => entry.target.name === target.name);
    if (known) known.row ||= row;
    else related.push({ target, row });
  }
  return related;
}

/**
 * What the generated tests' factories make: every payload value, and a record for each belongsTo of
 * the create payload, made by the target's factory. An optional relation that could lead back here
 * (a comment's optional ticket whose ticket needs a comment) is left out: factories calling each
 * other would never end (required cycles are refused by validate). One the ownership runs through is
 * kept but marked `unlessMaking`: the factory leaves it out while its target is already being made.
 */
function examplesOf(resource: ResourceCore, specs: ReadonlyMap<string, ResourceSpec>): ResourceModel["examples"] {
  const relations = resource.validation.create.keys.flatMap((key) => {
    const relation = resource.belongsTo.find((candidate) => candidate.name === key);
    if (!relation) return [];
    // The parent an ownership runs through is needed on every create, required or not.
    const ownedThrough = resource.owner?.through === relation.name;
    const leadsBack = !relation.required && reachesByBelongsTo(relation.target.name, resource.name, specs);
    if (leadsBack && !ownedThrough) return [];
    // An ownership parent that leads back (a ticket owned through a comment that needs a ticket) is
    // made for the record under test and left out of records made for one of its own parents.
    return [{ key, target: relation.target, unlessMaking: leadsBack }];
  });
  // The field the update test changes: one the rules can make values for, not a relation, and not
  // unique where another will do.
  const properties = resource.validation.update.schema.properties ?? {};
  const updatable = resource.validation.update.keys.filter(
    (key) =>
      !resource.belongsTo.some((relation) => relation.name === key) &&
      !resource.belongsToMany.some((relation) => relation.name === key) &&
      !key.endsWith("_confirmation") &&
      !resource.validation.update.confirmed.includes(key) &&
      exampleValue(properties[key] as PropertySchema, key, 1) !== undefined,
  );
  const plain = updatable.find((key) => !resource.fields.find((field) => field.name === key)?.unique);
  const key = plain ?? updatable[0];
  const unique = resource.fields.some((field) => field.name === key && field.unique);
  const links = resource.belongsToMany.map((relation) => ({ name: relation.name, target: relation.target }));
  const linkImports = links
    .map((link) => link.target)
    .filter((target, index, all) => target.name !== resource.name && all.findIndex((other) => other.name === target.name) === index);
  return { relations, update: key === undefined ? null : { key, unique }, links, linkImports };
}

/** Whether `to` is `from` or a resource `from`'s belongsTo relations lead to, at any depth. */
function reachesByBelongsTo(from: string, to: string, specs: ReadonlyMap<string, ResourceSpec>): boolean {
  const seen = new Set<string>();
  const visit = (name: string): boolean => {
    if (name === to) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return (specs.get(name)?.relations ?? []).some((relation) => relation.type === "belongsTo" && visit(relation.resource));
  };
  return visit(from);
}

function rulesFor(
  spec: ResourceSpec,
  action: Action,
  fields: PayloadField[],
  relations: PayloadRelation[],
): Map<string, ParsedRule[]> {
  const explicit = spec.rules?.[action];
  if (explicit === undefined) return deriveRules(action, fields, relations);
  return new Map(Object.entries(explicit).map(([key, rules]) => [key, rules.map(parseRule)]));
}

/** The side of a belongsToMany that owns its pivot (the one without inverse), and its resource. */
function owningSide(spec: ResourceSpec, relation: RelationSpec, specs: Map<string, ResourceSpec>): { spec: ResourceSpec; relation: RelationSpec } {
  if (relation.inverse === undefined) return { spec, relation };
  const owner = specs.get(relation.resource)!;
  return { spec: owner, relation: (owner.relations ?? []).find((candidate) => candidate.name === relation.inverse)! };
}

/** A belongsToMany filters by the related records' hashes: linked to this one, or to any of these. */
const manyOperators: readonly FilterOperator[] = ["eq", "in"];

/**
 * A belongsToMany as both sides read it: the owning side (no `inverse`) names the pivot table
 * `<its table>_<relation>` and declares its fields; its keys are `<owner>_id` and `<target>_id`
 * (`related_<target>_id` when a resource relates to itself). The inverse side swaps the keys.
 */
function manyToMany(
  spec: ResourceSpec,
  relation: RelationSpec,
  refs: Map<string, ResourceRef>,
  specs: Map<string, ResourceSpec>,
  eagerLoad: string[],
): BelongsToManyModel {
  const target = refs.get(relation.resource)!;
  const owning = relation.inverse === undefined;
  const { spec: ownerSpec, relation: ownerRelation } = owningSide(spec, relation, specs);
  const owner = refs.get(ownerSpec.name)!;
  const related = refs.get(ownerRelation.resource)!;
  const ownerKey = `${owner.names.snake}_id`;
  const relatedKey = related.name === owner.name ? `related_${related.names.snake}_id` : `${related.names.snake}_id`;
  return {
    kind: "belongsToMany",
    name: relation.name,
    label: relation.name.replaceAll("_", " "),
    target,
    pivotTable: `${owner.table}_${ownerRelation.name}`,
    pivotModel: `${owner.names.pascal}${toPascal(ownerRelation.name)}`,
    ownKey: owning ? ownerKey : relatedKey,
    otherKey: owning ? relatedKey : ownerKey,
    pivotFields: (ownerRelation.pivot ?? []).map(fieldModel),
    owning,
    eager: eagerLoad.includes(relation.name),
  };
}

/** The one belongsTo on the target that points back to the owner (validation made sure there is one). */
function inverseOf(owner: string, target: ResourceSpec): string {
  return (target.relations ?? []).find((relation) => relation.type === "belongsTo" && relation.resource === owner)!.name;
}

function serializedRelation(relation: RelationModel): SerializedKey {
  switch (relation.kind) {
    case "belongsTo":
      return { kind: "belongsTo", key: relation.name, relation };
    case "hasMany":
      return { kind: "hasMany", key: relation.name, relation };
    case "belongsToMany":
      return { kind: "belongsToMany", key: relation.name, relation };
  }
}

/** The filter operators `?filter[<relation>]` takes: by hash for belongsTo, through the pivot for belongsToMany, none for hasMany. */
function relationOperators(relation: RelationModel): readonly FilterOperator[] | undefined {
  switch (relation.kind) {
    case "belongsTo":
      return operatorsOf.relation;
    case "belongsToMany":
      // The records linked to one (or any of several) of the related records.
      return manyOperators;
    case "hasMany":
      return undefined;
  }
}

/**
 * The names a resource's records never show to anyone: `serializer.hidden`, and what a
 * `serializer.fields` list leaves out (fields, relations, timestamps).
 */
function hiddenNames(spec: ResourceSpec): string[] {
  const hidden = spec.serializer?.hidden ?? [];
  const listed = spec.serializer?.fields;
  if (listed === undefined) return [...hidden];
  const all = [...spec.fields.map((field) => field.name), ...(spec.relations ?? []).map((relation) => relation.name), "created_at", "updated_at"];
  return [...hidden, ...all.filter((name) => !listed.includes(name))];
}

/** Output keys in the order the serializer writes them: identifier, fields, relations, timestamps. */
function serializerKeys(spec: ResourceSpec, resource: ResourceCore): SerializedKey[] {
  const all: SerializedKey[] = [
    { kind: "publicId", key: resource.publicIdKey },
    ...resource.fields.map((field): SerializedKey => ({ kind: "field", key: field.name, field })),
    // A belongsTo is always output (as its hash when not loaded); a list of records only when eager.
    ...resource.relations.filter((relation) => relation.kind === "belongsTo" || relation.eager).map(serializedRelation),
    { kind: "timestamp", key: "created_at" },
    { kind: "timestamp", key: "updated_at" },
    // Laravel's SoftDeletes outputs deleted_at (null while live); `?with_trashed=true` relies on it.
    ...(resource.softDelete ? [{ kind: "timestamp", key: "deleted_at" } as const] : []),
  ];
  const hidden = new Set(spec.serializer?.hidden ?? []);
  const listed = spec.serializer?.fields;
  const chosen =
    listed === undefined
      ? all
      : [all[0]!, ...listed.flatMap((key) => all.filter((entry) => entry.kind !== "publicId" && entry.key === key))];
  return chosen.filter((entry) => !hidden.has(entry.key));
}

