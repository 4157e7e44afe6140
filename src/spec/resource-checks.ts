import { dialectOf } from "../dialects/index.js";
import { projectClientNames, resourceClientNames } from "../model/client-names.js";
import { fieldType } from "../model/field-types.js";
import { defaultCollection, derivePrefix } from "../model/naming.js";
import { checkField, reservedFieldNames } from "./field-checks.js";
import { didYouMean } from "./problem.js";
import { checkRules } from "./rule-checks.js";
import { seedRuleProblems } from "./seed-rules.js";
import type { Problem, ProjectSpec } from "./types.js";

import type { CheckedResource } from "./checked.js";
import { checkEagerLoad } from "./eager-load-checks.js";
import { checkRelationOptions, checkRelationTargets, checkRequiredCycles } from "./relation-checks.js";

export { builtInUser, type CheckedResource } from "./checked.js";

/** The built-in User resource owns this prefix. */
const builtInPrefixes = new Map([["USR", "the built-in User"]]);

/** Models (and their tables) every project has: users, revoked tokens, login throttles. */
const builtInResources = new Map([
  ["User", "the built-in user of /api/auth (table users): give it fields under auth.user.fields in hashapi.yaml, or choose another name"],
  ["RevokedToken", "a table of the built-in authentication (revoked_tokens); choose another name"],
  ["LoginThrottle", "a table of the built-in authentication (login_throttles); choose another name"],
  ["HashapiRecoveryCode", "the table of the second factor's recovery codes (hashapi_recovery_codes); choose another name"],
  ["HashapiInvitation", "the table of the invitations (hashapi_invitations); choose another name"],
  ["HashapiSession", "the table of the users' sessions (hashapi_sessions); choose another name"],
  ["HashapiAccountToken", "the table of the account flows' links (hashapi_account_tokens); choose another name"],
  ["HashapiEvent", "the table of every write's events (hashapi_events); choose another name"],
  ["HashapiDelivery", "the table of the webhooks' deliveries (hashapi_deliveries); choose another name"],
  ["HashapiRateLimit", "the table of the request limits' counts (hashapi_rate_limits); choose another name"],
  ["HashapiInstance", "the table of the serving instances a contract step waits for (hashapi_instances); choose another name"],
  ["HashapiContract", "the table of the applied contract steps (hashapi_contracts); choose another name"],
]);

/**
 * Names a resource cannot take because the generated project already means something by them: a
 * model would clash with Prisma's scalar types, a record schema with openapi.json's own schemas, a
 * row type with a global the generated TypeScript uses.
 */
const reservedResourceNames: ReadonlyMap<string, string> = new Map([
  ...["String", "Boolean", "Int", "BigInt", "Float", "Decimal", "DateTime", "Json", "Bytes", "Unsupported", "Prisma", "PrismaClient"].map(
    (name) => [name, "a name Prisma reserves (its scalar types and client)"] as const,
  ),
  ...["Error", "ValidationError", "Message", "Links", "Meta", "CursorLinks", "CursorMeta", "Token", "LoginPayload", "RelatedUser", "AuthSession", "MfaChallenge", "AuthInvitation", "InvitationPayload", "AcceptInvitationPayload", "EmailPayload", "ResetPasswordPayload", "RegisterPayload", "TokenPayload", "ChangeEmailPayload", "MfaSetup", "MfaSetupPayload", "MfaConfirmPayload", "MfaRecoveryCodes", "MfaDisablePayload", "MfaVerifyPayload", "HashapiMember", "HashapiTenantMembership", "HashapiTenantInvitation"].map(
    (name) => [name, "the name of one of openapi.json's own schemas"] as const,
  ),
  ...["Array", "Date", "Function", "Map", "Number", "Object", "Promise", "Record", "RegExp", "Set", "Symbol", "Request", "Response"].map(
    (name) => [name, "a TypeScript global (or Express type) the generated code uses"] as const,
  ),
]);

/** Checks within one resource file. */
export function checkResource(resource: CheckedResource): Problem[] {
  const { spec, source } = resource;
  return [
    ...checkResourceName(resource),
    ...checkFieldNames(resource),
    ...checkRenames(resource),
    ...checkRelationOptions(resource),
    ...checkEagerLoad(resource),
    ...checkSerializer(resource),
    ...(spec.auth?.public ?? []).flatMap((action, index) =>
      action === "restore" && !spec.softDelete ? [source.problem(["auth", "public", index], '"restore" exists only for resources with softDelete: true')] : [],
    ),
    ...checkRules(source, spec),
    ...checkSeedRows(resource),
    ...seedRuleProblems(resource),
  ];
}

/** A name that is not the built-in resources', nor reserved, and long enough for a prefix. */
function checkResourceName({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  const builtIn = builtInResources.get(spec.name);
  if (builtIn) problems.push(source.problem(["name"], `"${spec.name}" is ${builtIn}`));
  // SQLite's trigram indexes are tables `hashapi_text_<table>_fts` (src/migrate/text-indexes.ts).
  if (spec.name.startsWith("HashapiText")) problems.push(source.problem(["name"], `"${spec.name}" would name a table hashapi_text_…, the names of the trigram indexes' tables; choose another name`));
  const reserved = reservedResourceNames.get(spec.name);
  if (reserved) problems.push(source.problem(["name"], `"${spec.name}" is ${reserved}; choose another name (e.g. ${spec.name}Entry)`));
  if (spec.prefix === undefined && derivePrefix(spec.name) === undefined) {
    problems.push(source.problem(["name"], `"${spec.name}" is too short to derive a public-id prefix from; set prefix: with three uppercase letters`));
  }
  return problems;
}

/** Each field: a name no column or relation of the resource takes already, and its own options. */
function checkFieldNames({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  const relationNames = new Set((spec.relations ?? []).map((relation) => relation.name));
  for (const field of spec.fields) {
    if (reservedFieldNames.has(field.name)) {
      problems.push(source.problem(["fields", field.name], `"${field.name}" is reserved (${[...reservedFieldNames].join(", ")}); choose another name`, "key"));
    }
    if (relationNames.has(field.name)) problems.push(source.problem(["fields", field.name], `"${field.name}" is also a relation name`, "key"));
    const relation = field.name.endsWith("_id") ? field.name.slice(0, -3) : undefined;
    if (relation && relationNames.has(relation)) {
      problems.push(source.problem(["fields", field.name], `"${field.name}" is the internal foreign key of relation "${relation}"; choose another name`, "key"));
    }
    problems.push(...checkField(source, ["fields"], field));
  }
  return problems;
}

/** serializer.fields and .hidden name what a record outputs; a hidden field is no search or filter. */
function checkSerializer({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  const outputKeys = [
    ...spec.fields.map((field) => field.name),
    ...(spec.relations ?? []).map((relation) => relation.name),
    "created_at",
    "updated_at",
    ...(spec.softDelete ? ["deleted_at"] : []),
  ];
  for (const list of ["fields", "hidden"] as const) {
    (spec.serializer?.[list] ?? []).forEach((name, index) => {
      if (!outputKeys.includes(name)) {
        problems.push(source.problem(["serializer", list, index], `unknown field or relation "${name}"${didYouMean(name, outputKeys)}`));
      }
    });
  }
  // A field no caller sees cannot be one callers search or filter by: its values would show through.
  const hidden = new Set(spec.serializer?.hidden ?? []);
  spec.fields.forEach((field) => {
    if (!hidden.has(field.name)) return;
    if (field.search === true)
      problems.push(source.problem(["fields", field.name, "search"], `"${field.name}" is hidden (serializer.hidden): a search over it would reveal its values; remove search: true or unhide it`));
    if (Array.isArray(field.filter))
      problems.push(source.problem(["fields", field.name, "filter"], `"${field.name}" is hidden (serializer.hidden): no filter may compare it; remove filter or unhide it`));
  });
  return problems;
}

/**
 * `seed:` rows: fixed records upserted by the resource's first unique field, so each row must give
 * it (and no two the same value); fields only (a relation's record has no hash before it exists),
 * each value of its field's type.
 */
function checkSeedRows({ spec, source }: CheckedResource): Problem[] {
  if (spec.seed === undefined) return [];
  const problems: Problem[] = [];
  const key = spec.fields.find((field) => field.unique);
  if (!key) return [source.problem(["seed"], `seed rows are upserted by a unique field, and ${spec.name} has none: give one field unique: true`)];
  const required = (spec.relations ?? []).filter((relation) => relation.type === "belongsTo" && relation.required);
  if (required.length > 0)
    problems.push(source.problem(["seed"], `seed rows hold fields only, and ${spec.name} requires ${required.map((relation) => `"${relation.name}"`).join(", ")}: create such records with npm run db:seed or the API`));
  const fields = new Map(spec.fields.map((field) => [field.name, field]));
  const seen = new Set<string>();
  spec.seed.forEach((row, index) => {
    for (const [name, value] of Object.entries(row)) {
      const field = fields.get(name);
      if (!field) {
        problems.push(source.problem(["seed", index, name], `unknown field "${name}"${didYouMean(name, [...fields.keys()])}`, "key"));
        continue;
      }
      const problem = value === null ? (field.nullable ? undefined : "null is not a value of a field that is not nullable") : fieldType(field.type).defaultProblem(value, field);
      if (problem) problems.push(source.problem(["seed", index, name], problem));
    }
    const value = row[key.name];
    if (value === undefined || value === null) problems.push(source.problem(["seed", index], `each seed row needs "${key.name}", the unique field it is upserted by`));
    else if (seen.has(JSON.stringify(value))) problems.push(source.problem(["seed", index, key.name], `another seed row has ${key.name} ${JSON.stringify(value)} too`));
    else seen.add(JSON.stringify(value));
  });
  return problems;
}

/**
 * renamedFrom keys (docs/spec-format.md, "Changing a live database"): each names a previous name
 * that nothing current still uses, and a renamed resource keeps its public ids only with a prefix
 * of its own (the default prefix follows the name).
 */
function checkRenames({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  if (spec.renamedFrom !== undefined) {
    if (spec.renamedFrom === spec.name) problems.push(source.problem(["renamedFrom"], "renamedFrom names the resource itself; give its previous name, or remove the key"));
    else if (spec.prefix === undefined) {
      const previous = derivePrefix(spec.renamedFrom);
      problems.push(source.problem(["renamedFrom"], `a renamed resource needs an explicit prefix, or the public ids of its records stop resolving: add prefix: ${previous ?? "<its current prefix>"}${previous ? ` (what ${spec.renamedFrom} had by default)` : ""}`));
    }
  }
  const fieldNames = new Set(spec.fields.map((field) => field.name));
  const renamedFields = new Map<string, string>();
  for (const field of spec.fields) {
    if (field.renamedFrom === undefined || field.renamedFrom === field.name) continue;
    const at = ["fields", field.name, "renamedFrom"];
    if (fieldNames.has(field.renamedFrom)) problems.push(source.problem(at, `"${field.renamedFrom}" is still a field of ${spec.name}; a column cannot be renamed into two`));
    else if (renamedFields.has(field.renamedFrom)) problems.push(source.problem(at, `"${renamedFields.get(field.renamedFrom)}" is renamed from "${field.renamedFrom}" too`));
    renamedFields.set(field.renamedFrom, field.name);
  }
  const relationNames = new Set((spec.relations ?? []).map((relation) => relation.name));
  for (const relation of spec.relations ?? []) {
    if (relation.renamedFrom === undefined) continue;
    const at = ["relations", relation.name, "renamedFrom"];
    if (relation.type !== "belongsTo") problems.push(source.problem(at, `"renamedFrom" applies to belongsTo only (a ${relation.type} has no column of its own)`, "key"));
    else if (relation.renamedFrom === relation.name) problems.push(source.problem(at, "renamedFrom names the relation itself; give its previous name, or remove the key"));
    else if (relationNames.has(relation.renamedFrom)) problems.push(source.problem(at, `"${relation.renamedFrom}" is still a relation of ${spec.name}`));
  }
  return problems;
}

/**
 * What the project's database cannot keep: SQLite converts a decimal's text to a 64-bit float and
 * keeps its first 15 significant digits, so a wider decimal would be stored with digits lost and
 * answered 201 (PostgreSQL's decimal(p, s) keeps them all).
 */
export function checkDatabaseLimits({ spec, source }: CheckedResource, project: ProjectSpec): Problem[] {
  const { decimalDigits, jsonDefaults, label } = dialectOf(project.database);
  return spec.fields.flatMap((field) => [
    ...(field.type === "decimal" && (field.precision ?? 10) > decimalDigits
      ? [source.problem(["fields", field.name, "precision"], `${label} keeps ${decimalDigits} significant digits of a decimal: precision ${field.precision} would lose digits. Use precision ${decimalDigits} or less, or database: postgresql`)]
      : []),
    // Prisma writes a json default into SQLite's CREATE TABLE unquoted (DEFAULT {"a":1}), which SQLite cannot read.
    ...(field.type === "json" && field.default !== undefined && field.default !== null && !jsonDefaults
      ? [source.problem(["fields", field.name, "default"], `a json field takes no default on ${label} (the migration Prisma writes for it does not run there): remove the default (the field is then required, or null when nullable), or use database: postgresql`)]
      : []),
  ]);
}

/** Checks across resources: names, collections, prefixes and relation targets. */
export function checkAcrossResources(resources: CheckedResource[], otherNames: readonly string[] = []): Problem[] {
  const problems: Problem[] = [];
  const byName = new Map<string, CheckedResource>();
  const byCollection = new Map<string, CheckedResource>();
  const byPrefix = new Map<string, CheckedResource>();

  for (const resource of resources) {
    const { spec, source } = resource;
    const sameName = byName.get(spec.name);
    if (sameName) {
      problems.push(source.problem(["name"], `resource "${spec.name}" is already defined in ${sameName.spec.file}`));
      continue;
    }
    byName.set(spec.name, resource);

    const collection = spec.collection ?? defaultCollection(spec.name);
    const sameCollection = byCollection.get(collection);
    if (sameCollection) {
      problems.push(source.problem([spec.collection ? "collection" : "name"], `collection "${collection}" is also used by ${sameCollection.spec.name} (${sameCollection.spec.file}); set collection: on one of them`));
    } else byCollection.set(collection, resource);

  }

  // Explicit prefixes are claimed first: a clash with one derived from a name is reported on the
  // derived one, the spec to change (changing a written prefix would change live public ids).
  const explicitFirst = [...resources.filter((resource) => resource.spec.prefix), ...resources.filter((resource) => !resource.spec.prefix)];
  for (const resource of explicitFirst) {
    const { spec, source } = resource;
    if (byName.get(spec.name) !== resource) continue;
    const prefix = spec.prefix ?? derivePrefix(spec.name);
    if (prefix === undefined) continue;
    const at = [spec.prefix ? "prefix" : "name"];
    const how = spec.prefix ? "" : " (derived from the name)";
    const builtIn = builtInPrefixes.get(prefix);
    const other = byPrefix.get(prefix);
    if (builtIn) problems.push(source.problem(at, `prefix "${prefix}"${how} is reserved for ${builtIn}; set an explicit prefix: with three other letters`));
    else if (other) {
      const fix = spec.prefix ? "choose three other letters for one of them" : "set prefix: with three other letters in this file";
      problems.push(source.problem(at, `prefix "${prefix}"${how} is also the prefix of ${other.spec.name} (${other.spec.file}); ${fix}`));
    } else byPrefix.set(prefix, resource);
  }

  problems.push(...checkRelationTargets(resources, byName, otherNames));
  problems.push(...checkRequiredCycles(resources));
  return problems;
}

/**
 * The typed client declares types named after each resource (src/model/client-names.ts): a resource
 * whose name makes one of them a second time (`PatientNested` beside `Patient`, or `CurrentUser`, or
 * with `auth.users.manage` one of /api/users' `UserNested`, `UserCreate`…) would not compile.
 * Refused here, naming both sides, rather than in the generated project's build.
 */
export function checkClientNames(resources: readonly CheckedResource[], managesUsers: boolean): Problem[] {
  const problems: Problem[] = [];
  const owners = new Map<string, string>(projectClientNames.map((name) => [name, "the client's own"]));
  if (managesUsers) for (const name of resourceClientNames("User", [], true)) owners.set(name, "/api/users'");
  const seen = new Set<string>();
  for (const { spec, source } of resources) {
    // Two resources of one name are checkAcrossResources' to report.
    if (seen.has(spec.name)) continue;
    seen.add(spec.name);
    const many = (spec.relations ?? []).filter((relation) => relation.type === "belongsToMany").map((relation) => relation.name);
    const names = resourceClientNames(spec.name, many);
    const taken = names.find((name) => owners.has(name));
    if (taken !== undefined) {
      problems.push(source.problem(["name"], `the typed client would declare "${taken}" twice (for ${spec.name}, and as ${owners.get(taken)} type); choose another name (e.g. ${spec.name}Entry)`));
      continue;
    }
    for (const name of names) owners.set(name, `${spec.name}'s`);
  }
  return problems;
}
