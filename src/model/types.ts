import type { DatabaseModel } from "./database-model.js";
import type { FilterKind, FilterOperator } from "./list-operators.js";
import type { SchemaEvolution } from "./schema-evolution.js";
import type { FieldType, FieldTypeDescriptor } from "./field-types.js";
import type { ActionValidation } from "./validation.js";
import type { JsonSchema } from "./json-schema.js";
import type { AuthModel, MailModel } from "./auth-types.js";
import type { OwnerModel, TenancyModel, TenantModel } from "./access-types.js";
import type { Names, ResourceRef } from "./refs.js";
import type { FileRulesModel, FilesModel } from "./files-model.js";

export type { FileRulesModel, FilesModel };

export type { Names, OwnerModel, ResourceRef, TenancyModel, TenantModel };

export type { AuthModel, MailModel };

export type { DatabaseModel };

/**
 * The normalized, fully resolved representation of a specs folder. Templates receive only this: every
 * name in every case, every decision (types, rules, schemas, relation sides) is made here, so that a
 * template only lays values out.
 */
export interface ProjectModel {
  name: string;
  /** Spec label that headers of project-wide files name, e.g. `specs/`. */
  source: string;
  database: DatabaseModel;
  /** `deploy:` in hashapi.yaml: `rolling` splits changes the running build cannot survive (src/migrate/expand-contract.ts). */
  deploy: "restart" | "rolling";
  auth: AuthModel;
  /** hashapi.yaml's `mail:`; undefined: the service sends no mail (and has no password reset). */
  mail?: MailModel;
  pagination: { defaultPerPage: number; maxPerPage: number };
  resources: ResourceModel[];
  user: UserModel;
  /** Renames and fills for the next migration (src/model/evolution.ts). */
  evolution: SchemaEvolution;
  /** hashapi.yaml's `out:`, relative to the folder that holds the specs folder (src/pipeline/output-dir.ts). */
  out: string;
  /** hashapi.yaml's `webhooks`, as `src/config.ts` reads them from the environment at start-up. */
  webhooks: WebhookModel[];
  /** hashapi.yaml's `tenancy`; undefined in a project without tenants. */
  tenancy?: TenancyModel;
  /** Request limits (hashapi.yaml and resources' `rateLimit`); absent when none is declared. */
  rateLimit?: RateLimitModel;
  /** hashapi.yaml's jobs, as the generated src/jobs.ts declares them (runtime jobs/). */
  jobs: JobModel[];
  schedules: ScheduleModel[];
  /** File fields' storage (hashapi.yaml `storage:`); absent when no resource has a file field. */
  files?: FilesModel;
}

export interface JobModel {
  name: string;
  /** Its handler's binding in the generated src/jobs.ts (`send-digest` → `job_send_digest`: names hold no `_`, so it is unique). */
  binding: string;
  attempts: number;
  timeoutMs: number;
  concurrency: number;
}

export interface ScheduleModel {
  name: string;
  cron: string;
  timezone: string;
  job: string;
  /** The payload as JSON text (null when none). */
  payloadJson: string;
}

/** Requests per caller per window: project-wide, per role, and per resource action. */
export interface RateLimitModel {
  windowSeconds: number;
  anonymous?: number;
  signedIn?: number;
  roles: Record<string, number>;
  /** With tenancy: per tenant, its members' requests in it together. */
  tenant?: number;
  /** `<collection>.<action>` → its own limit. */
  routes: Record<string, number>;
  /** Megabytes of files per caller per window. */
  uploadMegabytes?: number;
}

/** One webhook receiver: where it is and how it signs, read from the environment at start-up. */
export interface WebhookModel {
  name: string;
  /** The environment variable holding the URL, or the URL itself. */
  url: { env: string } | { literal: string };
  /** The environment variable holding the signing secret. */
  secretEnv: string;
  events: string[];
  /** The role whose view of the record is sent. */
  as: string;
  retryHours: number;
  /** Also sent what seeds and scripts write. */
  seeds: boolean;
  /** Records whose events go at once, per process. */
  concurrency: number;
  /** With tenancy: the tenants it hears (public ids or `${NAME}`), as TypeScript; null: every tenant. */
  tenantsTs: string | null;
}


export type { FieldType };

/** How a value travels between JSON and the database (the runtime's ColumnKind). */
export type ValueKind = FieldTypeDescriptor["kind"];

export interface FieldModel {
  name: string;
  /** The name as Laravel prints it in messages: "weight kg". */
  label: string;
  type: FieldType;
  kind: ValueKind;
  nullable: boolean;
  unique: boolean;
  /** `unique: global` in a tenanted project: unique across every tenant, not within each. */
  uniqueAcrossTenants?: true;
  /** `index: true`: the column has an index of its own (prisma-schema.ts declares it). */
  indexed: boolean;
  hasDefault: boolean;
  /** TypeScript type of the value in JSON output, e.g. `string | null`. */
  tsType: string;
  /** JSON Schema of the value as output. */
  outputSchema: JsonSchema;
  values: string[];
  /** What the column is declared with, as the spec gave it (src/emit/prisma-schema.ts reads it). */
  column: { max?: number; precision?: number; scale?: number; default?: unknown };
  /** Decimal places of a decimal's output string; 0 for other types. */
  scale: number;
  /** How `?name=value` parses on a list; undefined when the field cannot be filtered (its type, or `filter: false`). */
  filter: FieldTypeDescriptor["filter"];
  /** The list filter operators it takes (none when it cannot be filtered); `narrowed` when its spec chose them. */
  operators: FilterOperator[];
  narrowed: boolean;
  /** Included in `?search=`. */
  search: boolean;
  /** A trigram index for `contains` and `?search=` where the field takes them (`textIndex: false` in the spec: none). */
  textIndex: boolean;
  sortable: boolean;
  /** Roles that see it; undefined: every caller who sees the record. */
  visibleTo?: string[];
  /** Roles that may send it; undefined: every caller who may write the record. */
  writableBy?: string[];
  /** `type: file`: its rules, as the runtime reads them (files/file-rules.ts). */
  file?: FileRulesModel;
  /** `set:` (dates and datetimes): the server sets the current time on create, or on every write; only `bypass` roles may send one. */
  setByServer?: { on: "create" | "write"; bypass: string[] };
}


/**
 * A relation of a resource, by kind: belongsTo (a foreign key here), hasMany (the other side's
 * belongsTo), belongsToMany (a pivot table). Each kind's model is its entry here; its module
 * (src/model/relations/<kind>.ts, beside the runtime's data/relations/<kind>.ts) says what it
 * means at every stage.
 */
export interface RelationModels {
  belongsTo: BelongsToModel;
  hasMany: HasManyModel;
  belongsToMany: BelongsToManyModel;
}
export type RelationKindName = keyof RelationModels;
export type RelationModel = RelationModels[RelationKindName];

export interface BelongsToModel {
  kind: "belongsTo";
  name: string;
  label: string;
  /** Internal column, never output: `doctor_id`. */
  foreignKey: string;
  target: ResourceRef;
  required: boolean;
  onDelete: "restrict" | "cascade" | "setNull";
  eager: boolean;
  /** `set:`: the server sets it to the caller on create, or on every write; only `bypass` roles may name another user. */
  setByCaller?: { on: "create" | "write"; bypass: string[] };
}

export interface HasManyModel {
  kind: "hasMany";
  name: string;
  target: ResourceRef;
  /** The belongsTo on the target that points back here. */
  inverse: string;
  /** That belongsTo's column on the target: `patient_id`. */
  foreignKey: string;
  eager: boolean;
}

/**
 * A many-to-many relation through a pivot table. The side without `inverse` owns the pivot (its
 * name, its fields); the inverse side reads the same table with the keys swapped.
 */
export interface BelongsToManyModel {
  kind: "belongsToMany";
  name: string;
  label: string;
  target: ResourceRef;
  /** The pivot table: the owning side's table and relation, `doctors_specialties`. */
  pivotTable: string;
  /** The pivot's Prisma model: `DoctorSpecialties`. */
  pivotModel: string;
  /** This side's id column in the pivot (`doctor_id`), and the target's (`specialty_id`). */
  ownKey: string;
  otherKey: string;
  /** The pivot's own fields (`since`), output as `pivot` on each related record. */
  pivotFields: FieldModel[];
  /** Whether this side declares the pivot (it has no `inverse`). */
  owning: boolean;
  eager: boolean;
}

/** Someone else's belongsTo that points at this resource: what a delete must respect. */
export interface ReferenceModel {
  resource: ResourceRef;
  relation: string;
  foreignKey: string;
  onDelete: "restrict" | "cascade" | "setNull";
}

export type { ActionName } from "./actions.js";
import type { ActionName } from "./actions.js";
import type { RouteModel } from "./route-model.js";
export type { RouteModel } from "./route-model.js";

export interface ActionModel {
  name: ActionName;
  enabled: boolean;
  public: boolean;
  /** auth.roles of the action: the roles that may perform it; undefined: every signed-in user. */
  roles?: string[];
}

export interface ResourceModel {
  name: string;
  names: Names;
  /** Spec file label, e.g. `specs/patient.yaml`. */
  source: string;
  collection: string;
  table: string;
  prefix: string;
  softDelete: boolean;
  fields: FieldModel[];
  /**
   * Every relation, kind by kind in the order of relations/kinds.ts (belongsTo, hasMany,
   * belongsToMany), each in spec order: the order `?with=`, filters and the output list them. The
   * two arrays below are its views for what only those kinds do (foreign keys here; links).
   */
  relations: RelationModel[];
  belongsTo: BelongsToModel[];
  belongsToMany: BelongsToManyModel[];
  referencedBy: ReferenceModel[];
  eagerLoad: string[];
  /** `audit:` its history route, and the days its events are kept (null: for ever); null without. */
  audit: { retainDays: number | null } | null;
  /** Relations a client may ask for with `?with=` (all declared relations). */
  withable: string[];
  sortable: string[];
  /**
   * List filters: how their query-string values parse, the operators each takes, and the roles that
   * may use it when only those see the field (visibleTo; the service refuses it to the others).
   */
  filters: { name: string; kind: FilterKind; values?: string[]; operators: readonly FilterOperator[]; visibleTo?: string[] }[];
  /** The fields `?search=` looks in. */
  search: string[];
  /**
   * The fields with a trigram index (src/migrate/text-indexes.ts): those `?search=` or a substring
   * filter reads, unless their spec says `textIndex: false`.
   */
  textIndexed: string[];
  publicIdKey: "hash" | "public_id";
  /** Output keys in order, as the serializer writes them. */
  serializer: SerializedKey[];
  actions: Record<ActionName, ActionModel>;
  /** Its HTTP routes, for the generated README. */
  routes: RouteModel[];
  /** `owner:`: whose records these are; undefined when every caller reaches every record. */
  owner?: OwnerModel;
  /** With tenancy: whose tenant the records are; undefined in a project without tenants. */
  tenant?: TenantModel;
  validation: {
    create: ActionValidation;
    update: ActionValidation;
    /** The update payload is exactly the create payload with every key optional: typed as Partial<…>. */
    updateIsPartialCreate: boolean;
  };
  /** Per belongsToMany, the body of its attach route (`PUT …/{relation}/{hash}`): the pivot's fields. */
  pivotPayloads: { name: string; validation: ActionValidation }[];
  /** What the resource's table declaration and runtime descriptor lay out (runtime/common/src/resource). */
  declaration: DeclarationModel;
  /** The spec's `seed:` rows and the unique field `npm run db:seed` upserts them by; undefined without. */
  seed: { by: string; rows: Record<string, unknown>[] } | undefined;
  /**
   * What the generated tests' payloads need beyond the runtime's example values (base/examples.ts):
   * the relations a create fills with the related resource's factory, and the field an update changes.
   */
  examples: {
    /**
     * `unlessMaking`: an optional relation the ownership runs through that leads back here; left out
     * when a record of its target is already being made (the factories' `making` list).
     */
    relations: { key: string; target: ResourceRef; unlessMaking: boolean }[];
    update: { key: string; unique: boolean } | null;
    /** Each belongsToMany the link tests exercise, and the related resources to import (this one aside). */
    links: { name: string; target: ResourceRef }[];
    linkImports: ResourceRef[];
  };
  exampleHash: string;
}

export type SerializedKey =
  | { kind: "publicId"; key: string }
  | { kind: "field"; key: string; field: FieldModel }
  | SerializedRelation
  | { kind: "timestamp"; key: "created_at" | "updated_at" | "deleted_at" };

/** A relation among a record's output keys, as its kind. */
export type SerializedRelation = { [K in RelationKindName]: { kind: K; key: string; relation: RelationModels[K] } }[RelationKindName];

export interface UserModel {
  prefix: "USR";
  extraFields: FieldModel[];
  /** Columns unique regardless of case: the e-mail, and unique `email` user fields. */
  caseless: string[];
  /** Columns beside the password that writes may set and no read selects (sessions_from, the second factor's). */
  writeOnly: { name: string; kind: "string" | "datetime" | "integer" }[];
  /** The role column's default: what a user created without a role gets, and existing users on the migration that adds it. */
  defaultRole: string;
  /** What deleting a user does to the records pointing at them (onDelete cascade, setNull): their events. */
  cascadeTo: { target: ResourceRef; foreignKey: string }[];
  nullOnDelete: { target: ResourceRef; foreignKey: string }[];
  /** The resources of cascadeTo and nullOnDelete, once each (user.repository.ts imports their tables). */
  pointing: ResourceRef[];
  /**
   * `auth.users.manage`: /api/users, the users as a resource for the managing roles (every action's
   * roles); built like a resource, but not one of `resources` (its table, schema and migrations
   * are the built-in users'). Undefined without it.
   */
  managed?: ResourceModel;
}

/** A resource as the runtime library reads it: plain data, laid out by its `.repository.ts` and `.resource.ts`. */
export interface DeclarationModel {
  /** `type: file` fields and their rules (runtime files/file-rules.ts FileRules). */
  files?: Record<string, FileRulesModel>;
  /** Stored columns beyond id, hash and the timestamps: fields, then foreign keys. */
  columns: Record<string, ValueKind>;
  /** Tables whose live rows refuse this one's deletion (their belongsTo here is onDelete: restrict). */
  restrictedBy: { target: ResourceRef; foreignKey: string }[];
  /**
   * What a delete does to the tables pointing here (onDelete: cascade, setNull): a soft delete does
   * it itself, a hard delete leaves it to the database's foreign keys and records its events.
   */
  cascadeTo: { target: ResourceRef; foreignKey: string }[];
  nullOnDelete: { target: ResourceRef; foreignKey: string }[];
  /** Unique field → its "has already been taken" message; undefined when none is unique. */
  unique: Record<string, string> | undefined;
  /** With tenancy: the unique fields unique across every tenant (`unique: global`); the others are per tenant. */
  uniqueAcrossTenants: string[] | undefined;
  /** Unique fields whose uniqueness ignores case (e-mails), compared lower-cased. */
  caseless: string[];
  /** Text columns with a trigram index (ResourceModel.textIndexed). */
  textIndexed: string[];
  /** belongsTo payload key → its "The selected … is invalid." message; undefined without belongsTo. */
  exists: Record<string, string> | undefined;
  filters: Record<string, ResourceModel["filters"][number]["kind"]>;
  /** The values an enum filter accepts, by field; undefined without enum filters. */
  filterValues: Record<string, string[]> | undefined;
  /** The operators of the fields whose spec narrowed them; undefined when none did. */
  filterOperators: Record<string, readonly FilterOperator[]> | undefined;
  /** Output keys in order (loaded hasMany relations follow them), and each decimal's scale. */
  output: { keys: string[]; scales: Record<string, number> | undefined };
  publicActions: ActionName[];
  owner: OwnerModel | undefined;
  /** With tenancy: `column` holds the tenant's id (`id` on the tenant resource), or the records are `global`. */
  tenant: { column: string } | { global: true } | undefined;
  /** The column the table declaration names as its rows' tenant (data/table/spec.ts tenantColumn). */
  tenantColumn: string | undefined;
  /** Fields only some roles see (visibleTo), and those only some roles may send (writableBy). */
  visibleTo: Record<string, string[]> | undefined;
  writableBy: Record<string, string[]> | undefined;
  /** What the server sets (`set:`), by payload key: a belongsTo User to the caller, a date or datetime to the current time. */
  setByServer: Record<string, { on: "create" | "write"; bypass: string[]; from: "caller" | "clock" }> | undefined;
  /** auth.roles: per action, the roles that may perform it; undefined when no action is limited. */
  roles: Partial<Record<ActionName, string[]>> | undefined;
  /** Other resources the table declaration names, once each: their table, and their row type when a relation reads it. */
  related: { target: ResourceRef; row: boolean }[];
  /** Per relation, its key of the repository's row type and its entry in the table's `relations`. */
  relations: { name: string; row: string; table: string }[];
}

/** A resource before what is derived from the rest of it: its output keys, test examples and declaration. */
export type ResourceCore = Omit<ResourceModel, "serializer" | "examples" | "declaration">;
