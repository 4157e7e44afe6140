import { modelBlock, native } from "./prisma-blocks.js";
import { membershipsModel, perTenantUnique, tenantBackLines, tenantIndexPrefix, tenantLines, uniqueOnColumn } from "./prisma-tenancy.js";
import { accountTokensModel, invitationsModel, recoveryCodesModel, sessionsModel } from "./prisma-accounts.js";
import { fieldType } from "../model/field-types.js";
import { tenantColumn } from "../model/declaration.js";
import { caseInsensitiveEmailMarker, caseInsensitiveMarker } from "../migrate/case-insensitive-email.js";
import { ownerIndexMarker } from "../migrate/owner-indexes.js";
import { textIndexMarker, textTableName, trigramIndexName } from "../migrate/text-indexes.js";
import { kindOf, relationKindNames, relationsOfKind } from "../model/relations/kinds.js";
import type { DatabaseModel, FieldModel, ProjectModel, ResourceModel, UserModel } from "../model/types.js";

/**
 * The Prisma schema of the generated project. Field names stay snake_case as in the specs (they are
 * the JSON keys too), model names are the resources' class names, tables their snake plural.
 * Every relation is named, so two belongsTo to the same target never confuse Prisma.
 */

export interface FieldDefault {
  type: FieldModel["type"];
  value: unknown;
}

interface PrismaFieldInput {
  field: FieldModel;
  max?: number;
  precision?: number;
  scale?: number;
  default?: unknown;
}

/** The complete Prisma schema of a project: what migrations diff and the Prisma client is generated from. */
export function buildPrismaSchema(project: ProjectModel): string {
  const { database, resources, user } = project;
  const blocks = [
    generatorBlock(database),
    ...resources.map((resource) => resourceModel(database, resource, project, resource.fields.map(inputOf))),
    ...resources.flatMap((resource) => relationModels(database, resource)),
    ...authModels(database, user, user.extraFields.map(inputOf), resources, project),
    ...(project.mail || project.auth.mfa ? [accountTokensModel(database)] : []),
    ...(project.auth.mfa ? [recoveryCodesModel()] : []),
    ...(project.auth.acceptsInvitations ? [invitationsModel(database, project.tenancy?.resource.names.pascal)] : []),
    ...(project.tenancy ? [membershipsModel(database, project)] : []),
    eventsModel(database, project.tenancy !== undefined),
    deliveriesModel(database),
    lanesModel(database),
    jobsModel(database, project.tenancy !== undefined),
    ...(project.files ? [uploadsModel(database)] : []),
    // Request counts live in PostgreSQL, shared by every instance; SQLite's live in memory.
    ...(project.rateLimit && database.dialect.sharedRequestCounts ? [rateLimitsModel()] : []),
  ];
  return `${blocks.join("\n\n")}\n`;
}

function inputOf(field: FieldModel): PrismaFieldInput {
  return { field, ...field.column };
}

function generatorBlock(database: DatabaseModel): string {
  return [
    "generator client {",
    '  provider            = "prisma-client"',
    '  output              = "../src/prisma-client"',
    '  engineType          = "client"',
    '  moduleFormat        = "esm"',
    '  importFileExtension = "js"',
    "}",
    "",
    "datasource db {",
    `  provider = "${database.provider}"`,
    '  url      = env("DATABASE_URL")',
    "}",
  ].join("\n");
}

function resourceModel(
  database: DatabaseModel,
  resource: ResourceModel,
  project: ProjectModel,
  inputs: PrismaFieldInput[],
): string {
  const resources = project.resources;
  const lines: string[][] = [
    ["id", "Int", "@id @default(autoincrement())"],
    ["hash", "String", `@unique${native(database, "@db.VarChar(20)")}`],
    ...tenantLines(resource),
  ];
  for (const input of inputs) lines.push(scalarLine(database, input, resource.table, resource));
  lines.push(...tenantBackLines(resource, project));
  for (const relation of resource.relations) lines.push(...kindOf(relation).prisma.fields(resource, relation));
  // Prisma declares both sides of a relation: each kind's lines here, for every resource's relations.
  for (const kind of relationKindNames)
    for (const source of resources)
      for (const relation of relationsOfKind(source.relations, kind)) lines.push(...kindOf(relation).prisma.fieldsOn(resource, source, relation));
  lines.push(...timestampLines(database, resource.softDelete, ownerIndexMarkerOf(resource)));

  // A declared index leads with deleted_at on soft-deleting resources: lists read live rows only
  // (deleted_at IS NULL), and an index without it would lose to the order index there.
  // A tenanted table's lead with tenant_id: every read of it is within one tenant.
  const lead = tenantIndexPrefix(resource);
  const declared = resource.fields.filter((field) => field.indexed).map((field) => `@@index([${lead}${resource.softDelete ? "deleted_at, " : ""}${field.name}])`);
  const indexes = [
    ...resource.relations.flatMap((relation) => kindOf(relation).prisma.indexes(relation)),
    ...perTenantUnique(resource),
    ...declared,
    `@@index([${lead}${resource.softDelete ? "deleted_at, " : ""}created_at, id])`,
    `@@map("${resource.table}")`,
  ];
  return modelBlock(resource.names.pascal, lines, indexes);
}

/** The models a resource's relations have of their own (pivot tables). */
function relationModels(database: DatabaseModel, resource: ResourceModel): string[] {
  const scalar = (field: FieldModel, table: string) => scalarLine(database, inputOf(field), table);
  return resource.relations
    .flatMap((relation) => kindOf(relation).prisma.models(resource, relation, scalar))
    .map((model) => modelBlock(model.name, model.lines, model.attributes));
}

/** The list side of every relation that points at the built-in users (Prisma requires both sides). */
function usersBackRelations(resources: ResourceModel[]): string[][] {
  return resources.flatMap((source) => source.relations.flatMap((relation) => kindOf(relation).prisma.fieldsOnUsers(source, relation)));
}

/** `resource`: the resource the column is of (a tenanted one's unique fields are unique per tenant). */
function scalarLine(database: DatabaseModel, input: PrismaFieldInput, table: string, resource?: ResourceModel): string[] {
  const { field } = input;
  const optional = field.nullable ? "?" : "";
  const unique = uniqueOnColumn(resource, field);
  const attributes = [
    unique ? "@unique" : "",
    input.default !== undefined ? `@default(${prismaDefault(field, input.default)})` : "",
    database.dialect.nativeTypes ? nativeType(input) : "",
  ].filter(Boolean);
  // An enum is a string column; its values live in a doc comment, where the migration planner
  // reads them back from the migrated snapshot (a value removed needs --accept-data-loss).
  // A unique e-mail is unique regardless of case: an index the migration planner writes from this line.
  const doc =
    field.type === "enum"
      ? `values: ${field.values.join(" | ")}`
      : field.unique && fieldType(field.type).uniqueIgnoresCase
        ? caseInsensitiveMarker(table, field.name, unique ? undefined : tenantColumn)
        : undefined;
  return [field.name, `${prismaType(field)}${optional}`, attributes.join(" "), ...(doc ? [doc] : []), ...textIndexDoc(database, table, field, resource)];
}

/** A field `?search=` or a substring filter reads: its trigram index, which the migration planner writes from this line. */
function textIndexDoc(database: DatabaseModel, table: string, field: FieldModel, resource?: ResourceModel): string[] {
  if (!resource?.textIndexed.includes(field.name)) return [];
  return [textIndexMarker(database.provider === "postgresql" ? trigramIndexName(table, field.name) : textTableName(table))];
}

/** An owned resource's lists: one owner's records in list order, from an index of the owner key (owner-indexes.ts). */
function ownerIndexMarkerOf(resource: ResourceModel): string | undefined {
  const owner = resource.owner;
  if (owner === undefined) return undefined;
  const key = owner.through === undefined ? owner.column : resource.belongsTo.find((relation) => relation.name === owner.through)?.foreignKey;
  return key === undefined ? undefined : ownerIndexMarker(resource.table, key, resource.softDelete);
}

function prismaType(field: FieldModel): string {
  return fieldType(field.type).prisma.type;
}

function nativeType(input: PrismaFieldInput): string {
  return fieldType(input.field.type).prisma.postgres({ ...input, name: input.field.name, values: input.field.values });
}

function prismaDefault(field: FieldModel, value: unknown): string {
  return fieldType(field.type).prismaDefault(value);
}

function timestampLines(database: DatabaseModel, softDelete: boolean, createdAtDoc?: string): string[][] {
  const timestamp = native(database, "@db.Timestamptz(3)");
  const lines = [
    ["created_at", "DateTime", `@default(now())${timestamp}`, ...(createdAtDoc ? [createdAtDoc] : [])],
    ["updated_at", "DateTime", `@updatedAt${timestamp}`],
  ];
  if (softDelete) lines.push(["deleted_at", "DateTime?", timestamp.trim()]);
  return lines;
}

function authModels(database: DatabaseModel, user: UserModel, inputs: PrismaFieldInput[], resources: ResourceModel[], project: ProjectModel): string[] {
  const timestamp = native(database, "@db.Timestamptz(3)");
  const userModel = modelBlock(
    "User",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["hash", "String", `@unique${native(database, "@db.VarChar(20)")}`],
      ["name", "String", native(database, "@db.VarChar(255)").trim()],
      ["email", "String", `@unique${native(database, "@db.VarChar(255)")}`, caseInsensitiveEmailMarker],
      ["password", "String", native(database, "@db.VarChar(255)").trim()],
      // A string, not an enum: a role removed from the specs must not make a migration fail on the users holding it.
      ["role", "String", `@default("${user.defaultRole}")${native(database, "@db.VarChar(40)")}`],
      // Tokens issued before this instant are refused: a password change ends every earlier session.
      ["sessions_from", "DateTime?", timestamp.trim()],
      // auth.mfa: the sealed TOTP secret (and one being set up), since when, the last step used.
      ...(project.auth.mfa
        ? [
            ["mfa_secret", "String?", native(database, "@db.VarChar(255)").trim()],
            ["mfa_pending", "String?", native(database, "@db.VarChar(255)").trim()],
            ["mfa_enabled_at", "DateTime?", timestamp.trim()],
            ["mfa_last_step", "Int?", ""],
          ]
        : []),
      ...inputs.map((input) => scalarLine(database, input, "users")),
      ...usersBackRelations(resources),
      ...(project.tenancy ? [["hashapi_memberships", "HashapiMembership[]", ""]] : []),
      ["created_at", "DateTime", `@default(now())${timestamp}`],
      ["updated_at", "DateTime", `@updatedAt${timestamp}`],
    ],
    ['@@map("users")'],
  );
  const revokedTokens = modelBlock(
    "RevokedToken",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["jti", "String", `@unique${native(database, "@db.VarChar(64)")}`],
      ["expires_at", "DateTime", timestamp.trim()],
    ],
    ["@@index([expires_at])", '@@map("revoked_tokens")'],
  );
  const loginThrottles = modelBlock(
    "LoginThrottle",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["key", "String", `@unique${native(database, "@db.VarChar(320)")}`],
      ["attempts", "Int", ""],
      ["reset_at", "DateTime", timestamp.trim()],
    ],
    ["@@index([reset_at])", '@@map("login_throttles")'],
  );
  return [userModel, revokedTokens, loginThrottles, sessionsModel(database)];
}



/**
 * The outbox (runtime data/outbox.ts): each committed write's event, appended in the write's
 * own transaction. No foreign keys: an event outlives its record (a hard delete keeps its history)
 * and its actor. Read by record (the history route) and by age (retention).
 */
/** `tenanted`: each event carries its record's tenant (none for global records and users). */
function eventsModel(database: DatabaseModel, tenanted: boolean): string {
  const timestamp = native(database, "@db.Timestamptz(3)");
  return modelBlock(
    "HashapiEvent",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["type", "String", native(database, "@db.VarChar(200)").trim()],
      ["record_hash", "String", native(database, "@db.VarChar(20)").trim()],
      ["actor_hash", "String?", native(database, "@db.VarChar(20)").trim()],
      ["actor_name", "String?", native(database, "@db.VarChar(255)").trim()],
      ["changes", "String", native(database, "@db.Text").trim()],
      ...(tenanted ? [["tenant_id", "Int?", ""]] : []),
      // What wrote it when not a request: `seed` (npm run db:seed) or `script` (user:create);
      // receivers skip those unless they ask for seeds.
      ["origin", "String?", native(database, "@db.VarChar(10)").trim()],
      // Set once its deliveries exist (events/deliveries.ts): a flag, not a position, because
      // transactions commit out of id order.
      ["fanned_out", "Boolean", "@default(false)"],
      ["created_at", "DateTime", timestamp.trim()],
    ],
    // actor_hash, id: a caller's last write, which says whether a read replica has it yet (db/replicas.ts).
    ["@@index([record_hash, id])", "@@index([actor_hash, id])", "@@index([fanned_out, id])", "@@index([created_at])", ...(tenanted ? ["@@index([tenant_id, id])"] : []), '@@map("hashapi_events")'],
  );
}

/**
 * One event's delivery to one receiver (a webhook of hashapi.yaml): its state, attempts and lease
 * (events/deliveries.ts). `hash` is its public id on the deliveries routes.
 */
function deliveriesModel(database: DatabaseModel): string {
  const timestamp = native(database, "@db.Timestamptz(3)");
  return modelBlock(
    "HashapiDelivery",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["hash", "String", `@unique${native(database, "@db.VarChar(20)")}`],
      ["event_id", "Int", ""],
      ["receiver", "String", native(database, "@db.VarChar(200)").trim()],
      ["record_hash", "String", native(database, "@db.VarChar(20)").trim()],
      ["status", "String", native(database, "@db.VarChar(10)").trim()],
      ["attempts", "Int", "@default(0)"],
      ["next_attempt_at", "DateTime", timestamp.trim()],
      ["locked_until", "DateTime?", timestamp.trim()],
      ["last_status", "Int?", ""],
      ["last_error", "String?", native(database, "@db.VarChar(500)").trim()],
      ["delivered_at", "DateTime?", timestamp.trim()],
      ["created_at", "DateTime", timestamp.trim()],
      ["updated_at", "DateTime", timestamp.trim()],
    ],
    // receiver, record_hash, status, event_id: a lane's pending deliveries in order, past its delivered ones.
    ["@@unique([event_id, receiver])", "@@index([status, next_attempt_at])", "@@index([receiver, record_hash, status, event_id])", '@@map("hashapi_deliveries")'],
  );
}

/**
 * A receiver's deliveries of one record wait in that record's lane (runtime events/lanes.ts):
 * one row while any is pending, leased by the worker that works it. `next_attempt_at` is when it is
 * due, or its lease's end while leased: one index finds both.
 */
function lanesModel(database: DatabaseModel): string {
  const timestamp = native(database, "@db.Timestamptz(3)");
  return modelBlock(
    "HashapiLane",
    [
      ["receiver", "String", native(database, "@db.VarChar(200)").trim()],
      ["record_hash", "String", native(database, "@db.VarChar(20)").trim()],
      ["next_attempt_at", "DateTime", timestamp.trim()],
      ["lease", "String?", native(database, "@db.VarChar(36)").trim()],
      // Moved on by every fan-out that adds to the lane: a worker closes it only at the version it read.
      ["version", "Int", "@default(0)"],
    ],
    ["@@id([receiver, record_hash])", "@@index([receiver, next_attempt_at])", '@@map("hashapi_lanes")'],
  );
}

/**
 * Durable jobs (runtime jobs/): enqueued in the transaction of the code that asks for them,
 * run by whichever worker claims them (`lease`), retried, and kept failed once their attempts are
 * spent (the dead letters, listed and retried at /api/jobs). `key` makes an enqueue happen once
 * (a schedule's tick, a caller's own key); while running, `run_at` is the lease's end.
 */
/** `tenanted`: a job enqueued by a tenant's write runs in that tenant (its reads are the tenant's). */
function jobsModel(database: DatabaseModel, tenanted: boolean): string {
  const timestamp = native(database, "@db.Timestamptz(3)");
  return modelBlock(
    "HashapiJob",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["hash", "String", `@unique${native(database, "@db.VarChar(20)")}`],
      ["name", "String", native(database, "@db.VarChar(60)").trim()],
      ["payload", "String", native(database, "@db.Text").trim()],
      ["key", "String?", `@unique${native(database, "@db.VarChar(200)")}`],
      ...(tenanted ? [["tenant_id", "Int?", ""]] : []),
      ["status", "String", native(database, "@db.VarChar(10)").trim()],
      ["attempts", "Int", "@default(0)"],
      ["run_at", "DateTime", timestamp.trim()],
      ["lease", "String?", native(database, "@db.VarChar(36)").trim()],
      ["last_error", "String?", native(database, "@db.VarChar(500)").trim()],
      ["finished_at", "DateTime?", timestamp.trim()],
      ["created_at", "DateTime", timestamp.trim()],
      ["updated_at", "DateTime", timestamp.trim()],
    ],
    ["@@index([status, run_at])", "@@index([finished_at])", '@@map("hashapi_jobs")'],
  );
}

/**
 * Every stored file and every upload on its way (runtime files/uploads.ts): pending, receiving,
 * ready, attached to a record (`prefix` names its resource, which survives a rename; `record_id`
 * its row), or being removed. What no record took is swept once its grace is over.
 */
function uploadsModel(database: DatabaseModel): string {
  const timestamp = native(database, "@db.Timestamptz(3)").trim();
  return modelBlock(
    "HashapiUpload",
    [
      ["id", "Int", "@id @default(autoincrement())"],
      ["token", "String", `@unique${native(database, "@db.VarChar(40)")}`],
      ["key", "String", `@unique${native(database, "@db.VarChar(40)")}`],
      ["prefix", "String", native(database, "@db.VarChar(3)").trim()],
      ["field", "String", native(database, "@db.VarChar(100)").trim()],
      ["uploader_id", "Int?", ""],
      ["tenant_id", "Int?", ""],
      ["name", "String", native(database, "@db.VarChar(255)").trim()],
      ["size", "Int", ""],
      ["type", "String", native(database, "@db.VarChar(255)").trim()],
      ["state", "String", native(database, "@db.VarChar(10)").trim()],
      ["record_id", "Int?", ""],
      ["created_at", "DateTime", timestamp],
      ["expires_at", "DateTime", timestamp],
    ],
    ["@@index([state, created_at])", "@@index([prefix, record_id])", '@@map("hashapi_uploads")'],
  );
}

/**
 * The request counts of `rateLimit` on PostgreSQL (runtime http/request-limits.ts), in the layout
 * rate-limiter-flexible reads and writes: a key per caller and limit, its points, and when the
 * window ends (milliseconds since the epoch). Expired rows are deleted by the library.
 */
function rateLimitsModel(): string {
  return modelBlock(
    "HashapiRateLimit",
    [
      ["key", "String", "@id @db.VarChar(255)"],
      ["points", "Int", "@default(0)"],
      ["expire", "BigInt?", ""],
    ],
    ['@@map("hashapi_rate_limits")'],
  );
}
