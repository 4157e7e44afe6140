import { listSurface } from "./list-surface.js";
import { evolutionOf } from "./evolution.js";
import { historyRoute, manyToManyRoutes, routesOf } from "./routes.js";
import { actionTable } from "./actions.js";
import { blindDeletes, destroyRoles } from "./blind-deletes.js";
import type { ProjectSpec, ResourceSpec, TenancySpec, ValidSpecs, WebhookSpec } from "../spec/types.js";
import { authModel, mailModel, writeOnlyUserColumns } from "./account-model.js";
import { defaultCollection, derivePrefix, withArticle, pluralize, splitWords, toCamel, toKebab, toPascal, toSnake } from "./naming.js";
import { dialectOf } from "../dialects/index.js";
import { projectPackages } from "./project-packages.js";
import { withFiles } from "./files-model.js";
import { exampleHash } from "./hash-format.js";
import { declarationOf } from "./declaration.js";
import { examplesOf } from "./factory-examples.js";
import { fieldModel } from "./field-model.js";
import { payloadValidation } from "./payload-model.js";
import { relationModelsOf } from "./relation-models.js";
import { kindOf, relationsOfKind } from "./relations/kinds.js";
import { fieldType } from "./field-types.js";
import { tenancyModel, tenantActionRoles, tenantOf } from "./tenant-model.js";
import type {
  ActionModel,
  ActionName,
  Names,
  ProjectModel,
  ReferenceModel,
  OwnerModel,
  RelationModel,
  ResourceModel,
  ResourceCore,
  ResourceRef,
  SerializedKey,
  SerializedRelation,
  UserModel,
  WebhookModel,
  RateLimitModel,
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
    actions: new Map(specs.resources.map((spec) => [spec.name, actionsOf(spec, refs.get(spec.name)!, destroyRoles(specs, spec, blind), specs.project.tenancy)])),
    ...(specs.project.tenancy ? { tenancy: specs.project.tenancy } : {}),
  };
  const resources = specs.resources.map((spec) => buildResource(spec, context));

  const managers = specs.project.auth.manageUsers;
  const user: UserModel = {
    prefix: "USR",
    extraFields: specs.project.auth.user.fields.map(fieldModel),
    caseless: ["email", ...specs.project.auth.user.fields.filter((field) => field.unique && fieldType(field.type).uniqueIgnoresCase).map((field) => field.name)],
    defaultRole: specs.project.auth.defaultRole,
    writeOnly: writeOnlyUserColumns(specs.project),
    ...usersPointedAt(specs.resources, refs),
    ...(managers ? { managed: managedUsers(specs.project, managers, context) } : {}),
  };
  const model: ProjectModel = {
    name: specs.project.name,
    source: specsLabel,
    database: databaseModel(specs.project),
    deploy: specs.project.deploy,
    auth: authModel(specs.project),
    ...(specs.project.mail ? { mail: mailModel(specs.project.mail) } : {}),
    pagination: { ...specs.project.pagination },
    resources,
    user,
    evolution: evolutionOf(specs),
    out: specs.project.out,
    ...(specs.project.tenancy ? { tenancy: tenancyModel(specs.project.tenancy, refs.get(specs.project.tenancy.resource)!, byName.get(specs.project.tenancy.resource)!, specs.project.auth.roles) } : {}),
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
  return withFiles(model, specs.project.storage, resources);
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
      ...(project?.tenant !== undefined ? { tenant: project.tenant } : {}), ...(project?.uploadMegabytes !== undefined ? { uploadMegabytes: project.uploadMegabytes } : {}),
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

/** The database as templates lay it out: its name and default URL, its text in the project's files. */
function databaseModel(project: ProjectSpec): ProjectModel["database"] {
  const dialect = dialectOf(project.database);
  const text = dialect.projectText;
  return {
    provider: dialect.provider,
    defaultUrl: dialect.defaultUrl,
    dialect,
    files: {
      ...text.readme(project.name),
      prismaAdapterImport: text.prismaAdapterImport,
      prismaAdapter: text.prismaAdapter,
      envSettings: text.envSettings,
      dockerfileSetup: text.dockerfileSetup,
    },
    packages: projectPackages(text),
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
      { name: "password", type: "string", min: project.auth.passwords.min, max: 1024 },
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
  tenancy?: TenancySpec;
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
    tenantsTs: webhook.tenants ? JSON.stringify(webhook.tenants) : null,
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
function actionsOf(spec: ResourceSpec, ref: ResourceRef, destroy: string[] | undefined, tenancy?: TenancySpec): Record<ActionName, ActionModel> {
  const publicActions = new Set(spec.auth?.public ?? []);
  return Object.fromEntries(
    actionTable.map(({ name, softDeleteOnly }): [ActionName, ActionModel] => {
      const roles = tenantActionRoles(spec, tenancy, name, name === "destroy" ? destroy : spec.auth?.roles?.[name]);
      return [name, { name, enabled: !softDeleteOnly || ref.softDelete, public: publicActions.has(name), ...(roles ? { roles } : {}) }];
    }),
  ) as Record<ActionName, ActionModel>;
}

/** writeOnly: columns no filter or sort may compare (the users' password). */
function buildResource(spec: ResourceSpec, context: BuildContext, writeOnly: readonly string[] = []): ResourceModel {
  const { refs, specs, specsLabel } = context;
  const ref = refs.get(spec.name)!;
  const fields = spec.fields.map(fieldModel);
  const relationModels = relationModelsOf(spec, refs, specs);
  const belongsTo = relationsOfKind(relationModels, "belongsTo");
  const belongsToMany = relationsOfKind(relationModels, "belongsToMany");
  // The built-in users' resource (/api/users) is built from a spec of its own, outside the specs' actions.
  const actions = context.actions.get(spec.name) ?? actionsOf(spec, ref, spec.auth?.roles?.destroy);
  const owner = ownerOf(spec, specs);
  const tenant = tenantOf(spec, context.tenancy, context.refs, userRef.name);
  const core: ResourceCore = {
    ...(owner ? { owner } : {}),
    ...(tenant ? { tenant } : {}),
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
    belongsToMany,
    referencedBy: context.references.get(spec.name) ?? [],
    eagerLoad: spec.eagerLoad ?? [],
    audit: auditOf(spec.audit),
    // What no caller may compare, sort by, search or load: hidden means hidden in every query form.
    ...listSurface(fields, relationModels, new Set([...writeOnly, ...hiddenNames(spec)])),
    publicIdKey: ref.publicIdKey,
    actions,
    routes: [
      ...routesOf(ref.collection, actions, spec.owner),
      ...(spec.audit ? [historyRoute(ref.collection, actions, spec.owner)] : []),
      // A belongsToMany's routes are open to whom the related resource's list is.
      ...belongsToMany.flatMap((relation) => manyToManyRoutes(ref.collection, relation.name, actions, context.actions.get(relation.target.name)!.index)),
    ],
    ...payloadValidation(spec, belongsTo, owner, refs, specs),
    seed: spec.seed ? { by: spec.fields.find((field) => field.unique)!.name, rows: spec.seed } : undefined,
    exampleHash: exampleHash(ref.prefix),
  };
  const serializer = serializerKeys(spec, core);
  return { ...core, serializer, examples: examplesOf(core, specs), declaration: declarationOf({ ...core, serializer }) };
}

/** A relation among the output keys: its key is its name. */
function serializedRelation(relation: RelationModel): SerializedKey {
  // A relation's kind and model always agree; TypeScript cannot pair them across a union.
  return { kind: relation.kind, key: relation.name, relation } as SerializedRelation;
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
    // Some kinds are always output (a belongsTo as its hash when not loaded); the others only when eager.
    ...resource.relations.filter((relation) => kindOf(relation).unloaded !== undefined || relation.eager).map(serializedRelation),
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

