import { projectClientNames, resourceClientNames } from "../model/client-names.js";
import { fieldType } from "../model/field-types.js";
import { defaultCollection, derivePrefix, toSnake } from "../model/naming.js";
import { checkField, reservedFieldNames } from "./field-checks.js";
import { didYouMean } from "./problem.js";
import { checkRules } from "./rule-checks.js";
import type { SpecSource } from "./source.js";
import type { Problem, ProjectSpec, ResourceSpec } from "./types.js";

export interface CheckedResource {
  spec: ResourceSpec;
  source: SpecSource;
}

/** The built-in users' resource name, which a belongsTo may point at. */
export const builtInUser = "User";

/** The built-in User resource owns this prefix. */
const builtInPrefixes = new Map([["USR", "the built-in User"]]);

/** Models (and their tables) every project has: users, revoked tokens, login throttles. */
const builtInResources = new Map([
  ["User", "the built-in user of /api/auth (table users): give it fields under auth.user.fields in hashapi.yaml, or choose another name"],
  ["RevokedToken", "a table of the built-in authentication (revoked_tokens); choose another name"],
  ["LoginThrottle", "a table of the built-in authentication (login_throttles); choose another name"],
  ["HashapiEvent", "the table of every write's events (hashapi_events); choose another name"],
  ["HashapiDelivery", "the table of the webhooks' deliveries (hashapi_deliveries); choose another name"],
  ["HashapiRateLimit", "the table of the request limits' counts (hashapi_rate_limits); choose another name"],
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
  ...["Error", "ValidationError", "Message", "Links", "Meta", "CursorLinks", "CursorMeta", "Token", "LoginPayload", "RelatedUser"].map(
    (name) => [name, "the name of one of openapi.json's own schemas"] as const,
  ),
  ...["Array", "Date", "Function", "Map", "Number", "Object", "Promise", "Record", "RegExp", "Set", "Symbol", "Request", "Response"].map(
    (name) => [name, "a TypeScript global (or Express type) the generated code uses"] as const,
  ),
]);

/** Checks within one resource file. */
export function checkResource({ spec, source }: CheckedResource): Problem[] {
  const problems: Problem[] = [];
  const relationNames = new Set((spec.relations ?? []).map((relation) => relation.name));

  const builtIn = builtInResources.get(spec.name);
  if (builtIn) problems.push(source.problem(["name"], `"${spec.name}" is ${builtIn}`));
  const reserved = reservedResourceNames.get(spec.name);
  if (reserved) problems.push(source.problem(["name"], `"${spec.name}" is ${reserved}; choose another name (e.g. ${spec.name}Entry)`));
  if (spec.prefix === undefined && derivePrefix(spec.name) === undefined) {
    problems.push(source.problem(["name"], `"${spec.name}" is too short to derive a public-id prefix from; set prefix: with three uppercase letters`));
  }
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

  problems.push(...checkRenames({ spec, source }));

  for (const relation of spec.relations ?? []) {
    const at = ["relations", relation.name];
    if (reservedFieldNames.has(relation.name)) problems.push(source.problem(at, `"${relation.name}" is reserved; choose another relation name`, "key"));
    if (relation.type !== "belongsToMany" && relation.pivot !== undefined) problems.push(source.problem([...at, "pivot"], `"pivot" applies to belongsToMany only`, "key"));
    if (relation.type === "belongsToMany") {
      if (relation.name === "restore") problems.push(source.problem(at, `"restore" is the path of a restore; choose another relation name`, "key"));
      for (const option of ["required", "onDelete"] as const) {
        if (relation[option] !== undefined) problems.push(source.problem([...at, option], `"${option}" applies to belongsTo only; a belongsToMany's links are removed with either record`, "key"));
      }
      if (relation.pivot !== undefined && relation.inverse !== undefined) problems.push(source.problem([...at, "pivot"], `the pivot fields belong to the side without inverse (${relation.resource}.${relation.inverse}); declare them there`, "key"));
      for (const field of relation.pivot ?? []) {
        if (["hash", "id", "pivot"].includes(field.name) || field.name.endsWith("_id")) problems.push(source.problem([...at, "pivot", field.name], `"${field.name}" is reserved in a pivot (its keys and the related record's hash); choose another name`, "key"));
        if (field.unique) problems.push(source.problem([...at, "pivot", field.name, "unique"], "a pivot field cannot be unique"));
        if (field.index) problems.push(source.problem([...at, "pivot", field.name, "index"], "a pivot field takes no index of its own (the pivot is read by its keys)"));
        problems.push(...checkField(source, [...at, "pivot"], field));
      }
    } else if (relation.type === "hasMany") {
      for (const option of ["required", "onDelete"] as const) {
        if (relation[option] !== undefined) problems.push(source.problem([...at, option], `"${option}" applies to belongsTo only; set it on the other side`, "key"));
      }
    } else {
      if (relation.inverse !== undefined) problems.push(source.problem([...at, "inverse"], `"inverse" applies to hasMany only`, "key"));
      if (relation.onDelete === "setNull" && relation.required) {
        problems.push(source.problem([...at, "onDelete"], "setNull needs a relation that is not required (its column must accept NULL)"));
      }
    }
  }

  (spec.eagerLoad ?? []).forEach((name, index) => {
    if (!relationNames.has(name)) problems.push(source.problem(["eagerLoad", index], `unknown relation "${name}"${didYouMean(name, relationNames)}`));
  });

  const outputKeys = [
    ...spec.fields.map((field) => field.name),
    ...relationNames,
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

  // A relation no response shows (serializer.hidden, or left out of serializer.fields) cannot be
  // nested in every response: the runtime would output what openapi.json and the serializer hide.
  const listed = spec.serializer?.fields;
  (spec.eagerLoad ?? []).forEach((name, index) => {
    if (!relationNames.has(name)) return;
    if (hidden.has(name))
      problems.push(source.problem(["eagerLoad", index], `"${name}" is hidden (serializer.hidden): no response shows it, so none may nest it; remove it from eagerLoad or from serializer.hidden`));
    else if (listed !== undefined && !listed.includes(name))
      problems.push(source.problem(["eagerLoad", index], `"${name}" is not in serializer.fields: no response shows it, so none may nest it; add it to serializer.fields or remove it from eagerLoad`));
  });

  (spec.auth?.public ?? []).forEach((action, index) => {
    if (action === "restore" && !spec.softDelete) {
      problems.push(source.problem(["auth", "public", index], '"restore" exists only for resources with softDelete: true'));
    }
  });

  problems.push(...checkRules(source, spec));
  problems.push(...checkSeedRows({ spec, source }));
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

/** SQLite keeps this many significant digits of a decimal (it stores them as 64-bit floats). */
export const sqliteDecimalDigits = 15;

/**
 * What the project's database cannot keep: SQLite converts a decimal's text to a 64-bit float and
 * keeps its first 15 significant digits, so a wider decimal would be stored with digits lost and
 * answered 201 (PostgreSQL's decimal(p, s) keeps them all).
 */
export function checkDatabaseLimits({ spec, source }: CheckedResource, project: ProjectSpec): Problem[] {
  if (project.database !== "sqlite") return [];
  return spec.fields.flatMap((field) => [
    ...(field.type === "decimal" && (field.precision ?? 10) > sqliteDecimalDigits
      ? [source.problem(["fields", field.name, "precision"], `SQLite keeps ${sqliteDecimalDigits} significant digits of a decimal: precision ${field.precision} would lose digits. Use precision ${sqliteDecimalDigits} or less, or database: postgresql`)]
      : []),
    // Prisma writes a json default into SQLite's CREATE TABLE unquoted (DEFAULT {"a":1}), which SQLite cannot read.
    ...(field.type === "json" && field.default !== undefined && field.default !== null
      ? [source.problem(["fields", field.name, "default"], "a json field takes no default on SQLite (the migration Prisma writes for it does not run there): remove the default (the field is then required, or null when nullable), or use database: postgresql")]
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

  for (const { spec, source } of resources) {
    const renamedFrom = spec.renamedFrom;
    if (renamedFrom !== undefined && renamedFrom !== spec.name && byName.has(renamedFrom)) {
      problems.push(source.problem(["renamedFrom"], `"${renamedFrom}" is still a resource (${byName.get(renamedFrom)!.spec.file}); a table cannot be renamed into two`));
    }
    for (const relation of spec.relations ?? []) {
      const at = ["relations", relation.name];
      if (relation.resource === builtInUser) {
        // The built-in users: any resource may point at one; they list nothing back.
        if (relation.type !== "belongsTo") problems.push(source.problem([...at, "type"], `only a belongsTo may point at the built-in User: users list nothing back`));
        else if (spec.eagerLoad?.includes(relation.name) && (spec.auth?.public ?? []).some((action) => action === "index" || action === "show"))
          problems.push(source.problem(["eagerLoad", spec.eagerLoad.indexOf(relation.name)], `"${relation.name}" is a user, which anonymous callers may not see: a resource with public reads cannot nest it in every response`));
        continue;
      }
      const target = byName.get(relation.resource);
      if (!target) {
        // A resource whose own file has errors still exists: those errors are reported there.
        if (otherNames.includes(relation.resource)) continue;
        problems.push(source.problem([...at, "resource"], `unknown resource "${relation.resource}"${didYouMean(relation.resource, [...byName.keys(), ...otherNames])}`));
        continue;
      }
      // A belongsTo on the target with an unknown resource is reported there; its hasMany mirror is not checked.
      const targetHasUnknown = (target.spec.relations ?? []).some((other) => !byName.has(other.resource) && !otherNames.includes(other.resource));
      if (relation.type === "hasMany" && !targetHasUnknown) problems.push(...checkInverse(spec, source, relation, target.spec));
      if (relation.type === "belongsToMany" && relation.inverse !== undefined) problems.push(...checkManyInverse(spec, source, relation, target.spec));
      if (relation.type === "belongsTo" && spec.eagerLoad?.includes(relation.name) && relation.resource === spec.name) {
        problems.push(source.problem([...at, "resource"], "a resource cannot eager-load a relation to itself"));
      }
      problems.push(...checkPublicEagerLoad(spec, source, relation.name, target.spec));
    }
  }
  problems.push(...checkRequiredCycles(resources));
  return problems;
}

/**
 * Required belongsTo relations that lead back to where they start (a resource requiring itself, or
 * A requiring B requiring A): no record of any of them could be created first. Reported once per
 * cycle, at the relation of the first resource in spec order that starts it.
 */
function checkRequiredCycles(resources: readonly CheckedResource[]): Problem[] {
  const byName = new Map(resources.map((resource) => [resource.spec.name, resource]));
  const required = (name: string) => (byName.get(name)?.spec.relations ?? []).filter((relation) => relation.type === "belongsTo" && relation.required === true && byName.has(relation.resource));
  const problems: Problem[] = [];
  const reported = new Set<string>();
  for (const { spec, source } of resources)
    for (const start of required(spec.name)) {
      // A path of required relations from the target back to this resource, if any.
      const path = [spec.name, start.resource];
      const seen = new Set<string>();
      const back = (name: string): boolean => {
        if (name === spec.name) return true;
        if (seen.has(name)) return false;
        seen.add(name);
        for (const next of required(name)) {
          path.push(next.resource);
          if (back(next.resource)) return true;
          path.pop();
        }
        return false;
      };
      if (!back(start.resource)) continue;
      const cycle = [...new Set(path)].sort().join(",");
      if (reported.has(cycle)) continue;
      reported.add(cycle);
      problems.push(source.problem(["relations", start.name, "required"], `required relations lead back to ${spec.name} (${path.join(" → ")}): no record of ${path.length > 2 ? "any of them" : "it"} could be created first; make one of them optional`));
    }
  return problems;
}

/** A belongsToMany's `inverse`: the other resource's belongsToMany back here, which owns the pivot. */
function checkManyInverse(spec: ResourceSpec, source: SpecSource, relation: NonNullable<ResourceSpec["relations"]>[number], target: ResourceSpec): Problem[] {
  const at = ["relations", relation.name, "inverse"];
  const other = (target.relations ?? []).find((candidate) => candidate.name === relation.inverse);
  if (!other || other.type !== "belongsToMany" || other.resource !== spec.name) return [source.problem(at, `${target.name} has no belongsToMany "${relation.inverse}" pointing to ${spec.name}`)];
  if (other.inverse !== undefined) return [source.problem(at, `${target.name}.${relation.inverse} has an inverse too: exactly one side of a belongsToMany (the one that owns the pivot table) goes without inverse`)];
  return [];
}

function checkInverse(spec: ResourceSpec, source: SpecSource, relation: NonNullable<ResourceSpec["relations"]>[number], target: ResourceSpec): Problem[] {
  const candidates = (target.relations ?? []).filter((other) => other.type === "belongsTo" && other.resource === spec.name);
  const at = ["relations", relation.name];
  if (relation.inverse !== undefined) {
    return candidates.some((candidate) => candidate.name === relation.inverse)
      ? []
      : [source.problem([...at, "inverse"], `${target.name} has no belongsTo "${relation.inverse}" pointing to ${spec.name}`)];
  }
  if (candidates.length === 0) {
    return [
      source.problem(
        [...at, "resource"],
        `hasMany needs a matching belongsTo on ${target.name}: add relations: { ${toSnake(spec.name)}: { type: belongsTo, resource: ${spec.name} } } to ${target.file}`,
      ),
    ];
  }
  if (candidates.length > 1) {
    return [source.problem(at, `${target.name} has several belongsTo to ${spec.name} (${candidates.map((candidate) => candidate.name).join(", ")}); name the one this hasMany mirrors with inverse:`, "key")];
  }
  return [];
}

/**
 * A relation nested in every response (eagerLoad) of a resource that anonymous callers may read
 * must point at a resource that anonymous callers may see too: otherwise every anonymous read would
 * be refused with 401 (a nested record is shown only to whom its own show action would show it).
 */
function checkPublicEagerLoad(spec: ResourceSpec, source: SpecSource, relation: string, target: ResourceSpec): Problem[] {
  const index = (spec.eagerLoad ?? []).indexOf(relation);
  if (index < 0) return [];
  const publicReads = (spec.auth?.public ?? []).filter((action) => action === "index" || action === "show");
  if (publicReads.length === 0 || (target.auth?.public ?? []).includes("show")) return [];
  return [
    source.problem(
      ["eagerLoad", index],
      `"${relation}" is nested in every response of ${spec.name}, whose ${publicReads.join(" and ")} ${publicReads.length > 1 ? "are" : "is"} public, but ${target.name}'s show is not: anonymous callers would get 401. Add show to auth.public in ${target.file}, or remove "${relation}" from eagerLoad`,
    ),
  ];
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
