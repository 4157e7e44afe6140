/** The spec language (docs/spec-format.md) as TypeScript, after validation and defaults. */

import type { Provider } from "../dialects/index.js";
import type { FieldType } from "../model/field-types.js";
import type { FilterOperator } from "../model/list-operators.js";

export type { FieldType };
export type { ActionName } from "../model/actions.js";
import type { ActionName } from "../model/actions.js";

/** `set:` of a field or relation: when the server sets it, and which roles may send a value of their own. */
export type ServerSet = "create" | "write" | { on: "create" | "write"; bypass?: string[] };

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** Roles that see the field (absent from the others' responses). */
  visibleTo?: string[];
  /** Roles that may send the field (422 "prohibited" for the others). */
  writableBy?: string[];
  /** date and datetime: the server sets it to the current time, on create or on every write. */
  set?: ServerSet;
  /** List filter operators: every one of the type (true, the default), these, or none (false). */
  filter?: boolean | FilterOperator[];
  /** Included in `?search=`. */
  search?: boolean;
  /** A database index on the column, for filters that would otherwise scan. */
  index?: boolean;
  /** string, text, email: a trigram index for contains and search (default on where they apply; false turns it off). */
  textIndex?: boolean;
  max?: number;
  min?: number;
  length?: number;
  pattern?: string;
  /** A UNIQUE index; with tenancy, within each tenant unless `global`. */
  unique?: boolean | "global";
  nullable?: boolean;
  default?: unknown;
  values?: string[];
  precision?: number;
  scale?: number;
  /** The field's previous name: the migration renames its column instead of dropping it. */
  renamedFrom?: string;
  /** What existing rows get once when the field becomes required (the default when absent). */
  backfill?: unknown;
  /** A valid value for the generated tests and seed data, where the rules cannot say how to make one. */
  example?: unknown;
  /** file: the extensions its content may be (Laravel's `mimes`). */
  mimes?: string[];
  /** file: the media types its content may be, `image/*` allowed (Laravel's `mimetypes`). */
  mimetypes?: string[];
  /** file: an image (jpeg, png, gif, bmp, webp), served inline (Laravel's `image`). */
  image?: boolean;
  /** file: an image's pixel bounds (Laravel's `dimensions`). */
  dimensions?: Partial<Record<"min_width" | "max_width" | "min_height" | "max_height" | "width" | "height", number>>;
}

export interface RelationSpec {
  name: string;
  type: "belongsTo" | "hasMany" | "belongsToMany";
  /** belongsToMany: fields of each link (the pivot table's own columns). */
  pivot?: FieldSpec[];
  resource: string;
  required?: boolean;
  onDelete?: "restrict" | "cascade" | "setNull";
  inverse?: string;
  /** belongsTo: the relation's previous name; its foreign key column is renamed. */
  renamedFrom?: string;
  /** belongsTo User: set by the server to the caller on create, or on every write (spec-format "Fields the server sets"). */
  set?: ServerSet;
}

export interface ResourceSpec {
  /** The file as the user named it, for messages: `specs/patient.yaml`. */
  file: string;
  name: string;
  collection?: string;
  prefix?: string;
  /** The resource's previous name: the migration renames its table. */
  renamedFrom?: string;
  softDelete?: boolean;
  /** The history route, and how long the resource's events are kept (spec-format "Events, audit trail, webhooks"). */
  audit?: boolean | { retainDays: number };
  fields: FieldSpec[];
  rules?: { create?: Record<string, string[]>; update?: Record<string, string[]> };
  relations?: RelationSpec[];
  eagerLoad?: string[];
  /** Fixed records `npm run db:seed` upserts by the first unique field (field name → value). */
  seed?: Record<string, unknown>[];
  serializer?: { publicId?: "hash" | "public_id"; fields?: string[]; hidden?: string[] };
  auth?: { public?: ActionName[]; roles?: Partial<Record<ActionName, string[]>> };
  /** Record ownership: the belongsTo path to the owning user, and the roles that act on every record. */
  owner?: { relation: string; bypass?: string[] };
  /** With hashapi.yaml's `tenancy`: whose tenant the records are (spec-format "Tenants"). */
  tenant?: TenantSpec;
  /** Per action, requests per caller per window on top of hashapi.yaml's `rateLimit`. */
  rateLimit?: Partial<Record<ActionName, number>>;
}

export interface ProjectSpec {
  name: string;
  database: Provider;
  /** `rolling`: changes the running build cannot survive migrate in two steps, expand and contract. */
  deploy: "restart" | "rolling";
  /** The generated project's folder, relative to the folder that holds the specs folder. */
  out: string;
  auth: {
    /** Most privileged first; `[user]` when hashapi.yaml lists none. */
    roles: string[];
    defaultRole: string;
    /** Where the roles come from, for messages: `tenancy.roles` for a tenanted resource's (spec/tenant-checks.ts). */
    rolesAt?: string;
    /** hashapi.yaml lists roles (a resource may then limit actions to some of them). */
    declaresRoles: boolean;
    /** `auth.users.manage`: the roles that manage users through /api/users; undefined: no such routes. */
    manageUsers?: string[];
    ttl: number;
    refreshTtl: number;
    user: { fields: FieldSpec[] };
    /** `auth.signup`: people make their own accounts; undefined: only managers and the CLI do. */
    signup?: { role: string; verify: boolean };
    /** `auth.passwords`: the fewest characters of a new password. */
    passwords: { min: number };
    /** `auth.mfa`: two-factor authentication; undefined: none. */
    mfa?: { required: string[]; optional: boolean };
    /** `auth.tokens`: how long the mailed links work, in minutes. */
    tokens: { signupMinutes: number; resetMinutes: number; invitationDays: number };
    /** `auth.invitations`: roles that may invite; undefined: no invitations. */
    invitations?: string[];
  };
  /** `storage:`: where files go, its defaults applied (used when a resource has a file field). */
  storage: StorageSpec;
  /** `mail:`: how mail leaves; undefined: the service sends none. */
  mail?: MailSpec;
  /** `tenancy:`: many organizations in one service; undefined: none. */
  tenancy?: TenancySpec;
  pagination: { defaultPerPage: number; maxPerPage: number };
  /** Receivers of the events of committed writes (spec-format "Events, audit trail, webhooks"). */
  webhooks: WebhookSpec[];
  /** Requests per caller per window (docs/api-contract.md §9); undefined: no project-wide limit. */
  rateLimit?: RateLimitSpec;
  /** Durable jobs, by name (spec-format "Jobs and schedules"). */
  jobs: Record<string, JobSpec>;
  /** Jobs enqueued on a cron schedule. */
  schedules: ScheduleSpec[];
}

/** A resource's `tenant:`: the caller's tenant, a belongsTo chain's, or shared by every tenant. */
export type TenantSpec = true | "global" | { via: string; nullable?: boolean };

/** hashapi.yaml's `tenancy`, its defaults applied. */
export interface TenancySpec {
  /** The resource whose records are the tenants. */
  resource: string;
  /** Roles within one tenant, most privileged first (the first is the owner role). */
  roles: string[];
  /** Tenant roles that invite, re-role and remove members. */
  manage: string[];
  /** Platform roles that act in any tenant as its first role. */
  bypass: string[];
  /** Platform roles that may create a tenant; undefined: every one. */
  create?: string[];
  /** Adopting tenancy on stored records: the public id of the tenant they all go to. */
  adopt?: string;
}

/** hashapi.yaml's `storage`, its defaults applied: each text value literal or `${VARIABLE}`. */
export interface StorageSpec {
  driver: string;
  bucket: string;
  endpoint: string;
  region: string;
  folder: string;
  urlTtlSeconds: number;
  uploadTtlSeconds: number;
  orphanHours: number;
  concurrentUploads: number;
  idleSeconds: number;
}

/** hashapi.yaml's `mail`, its defaults applied. */
export interface MailSpec {
  from: string;
  /** `${NAME}` (read at start-up) or a literal transport (log:, file:<folder>, smtp://…). */
  transport: string;
  links: { verifyEmail: string; resetPassword: string; acceptInvitation: string; confirmEmail: string };
  limits: { perEmail: number; perClient: number; windowSeconds: number };
}

/** A job of hashapi.yaml's `jobs`. */
export interface JobSpec {
  attempts?: number;
  timeoutSeconds?: number;
  concurrency?: number;
}

/** One of hashapi.yaml's `schedules`. */
export interface ScheduleSpec {
  name: string;
  cron: string;
  job: string;
  timezone?: string;
  payload?: unknown;
}

/** hashapi.yaml's `rateLimit`. */
export interface RateLimitSpec {
  windowSeconds?: number;
  anonymous?: number;
  signedIn?: number;
  roles?: Record<string, number>;
  /** With tenancy: per tenant, its members' requests in it together. */
  tenant?: number;
  /** Megabytes of files per caller per window (spec-format "Files"). */
  uploadMegabytes?: number;
}

/** One webhook of hashapi.yaml: `${NAME}` values are read from the environment at start-up. */
export interface WebhookSpec {
  name: string;
  url: string;
  secret: string;
  /** Event types or patterns: `ticket.created`, `comment.*`, `*`. */
  events: string[];
  /** The role whose view of the record is sent; the first role when absent. */
  as?: string;
  retryHours?: number;
  /** Also send what seeds and scripts write. */
  seeds?: boolean;
  /** With tenancy: only events of these tenants (public ids, or `${NAME}`). */
  tenants?: string[];
  /** Records whose events go at once, per process. */
  concurrency?: number;
}

export interface ValidSpecs {
  project: ProjectSpec;
  resources: ResourceSpec[];
}

/** A problem with a spec file, where it is (errors.ts: what every stage reports). */
export type { Problem } from "../errors.js";
