import { operatorsOf, type FilterKind, type FilterOperator } from "../model/list-operators.js";
import type { PayloadKey } from "../model/validation.js";
import { hashTypeName, linkTypeName, pivotTypeName } from "../model/client-names.js";
import { kindOf } from "../model/relations/kinds.js";
import { tsTypeOf } from "../model/output-schema.js";
import { payloadWriters } from "../model/payload-writers.js";
import type {
  BelongsToManyModel,
  ProjectModel,
  RelationModel,
  ResourceModel,
} from "../model/types.js";

/*
 * The typed client's own module (client/src/index.ts): every resource's types written out
 * concretely from the model (no inference over values, so tsc stays fast on many resources) and
 * `createClient`, which binds each collection to the runtime's routes (runtime/client/src/core.ts).
 * The runtime is imported as a namespace, so no name a resource gives a type can clash with it
 * (the names this module declares are checked at validation: src/model/client-names.ts).
 */

const pivotType = (resource: ResourceModel, relation: BelongsToManyModel) => pivotTypeName(resource.names.pascal, relation.name);
const linkType = (resource: ResourceModel, relation: BelongsToManyModel) => linkTypeName(resource.names.pascal, relation.name);
const quoted = (text: string) => JSON.stringify(text);

/**
 * Filters whose operators are a kind's whole set are written once per project as a generic type
 * (a text field's, a range's); a field whose spec narrowed them gets its own literal type.
 */
const sharedFilters = [
  { name: "TextFilter", about: "a text field's (string, enum, uuid)", operators: operatorsOf.string },
  { name: "RangeFilter", about: "an ordered field's (number, decimal, date, datetime)", operators: operatorsOf.integer },
] as const;

const sameOperators = (left: readonly FilterOperator[], right: readonly FilterOperator[]) =>
  left.length === right.length && left.every((op) => right.includes(op));
const union = (items: readonly string[]) => (items.length === 0 ? "never" : items.join(" | "));
const doc = (text: string | undefined) => (text === undefined ? "" : `  /** ${text} */\n`);
const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const roles = (list: readonly string[]) => (list.length === 0 ? "no role" : list.join(", "));

export function buildClientModule(model: ProjectModel): string {
  const resources = [...model.resources, ...(model.user.managed ? [model.user.managed] : [])];
  const parts = [
    `import * as core from "./core.js";\n`,
    `export * from "./core.js";\n`,
    `/** A user's public id, as belongsTo relations to User and /api/auth/me give it. */\nexport type UserHash = \`USR_\${string}\`;\n`,
    `/** The project's roles, most privileged first. */\nexport type UserRole = ${union(model.auth.roles.map(quoted))};\n`,
    ...(model.tenancy ? [`/** The roles within a tenant (hashapi.yaml tenancy.roles), most privileged first. */\nexport type TenantRole = ${union(model.tenancy.roles.map(quoted))};\n`] : []),
    meType(model),
    ...sharedFilters.map(
      (shared) =>
        `/** ${capitalized(shared.about)} list filter: each operator with its operand (\`V\`, the field's value). */\nexport type ${shared.name}<V> = {\n${shared.operators.map((op) => `  ${op}?: ${operandType(op, "V")};\n`).join("")}};\n`,
    ),
    ...model.resources.map((resource) => resourceTypes(resource)),
    ...(model.user.managed ? [resourceTypes(model.user.managed, true)] : []),
    createClientFunction(resources, model),
  ];
  return parts.join("\n");
}

function meType(model: ProjectModel): string {
  const extra = model.user.extraFields.map((field) => `  ${field.name}: ${tsTypeOf(field)};\n`).join("");
  return [
    `/** The signed-in user, as GET /api/auth/me answers. */\nexport interface CurrentUser {\n  hash: UserHash;\n  name: string;\n  email: string;\n  role: UserRole;\n${extra}}\n`,
    `/** A user loaded through a belongsTo relation to User. */\nexport interface RelatedUser {\n  hash: UserHash;\n  name: string;\n${extra}}\n`,
  ].join("\n");
}

function resourceTypes(resource: ResourceModel, builtInUsers = false): string {
  const ownHash = hashTypeName({ names: resource.names, ...(builtInUsers ? { builtIn: true as const } : {}) });
  const p = resource.names.pascal;
  return [
    ...recordTypes(resource, ownHash, builtInUsers),
    ...payloadTypes(resource),
    ...listTypes(resource),
    `/** Everything the client's routes of ${resource.collection} are typed by. */\nexport interface ${p}Types extends core.ResourceTypes {\n  Record: ${p};\n  Hash: ${ownHash};\n  Create: ${p}Create;\n  Update: ${p}Update;\n  Params: ${p}Params;\n  Relation: ${p}Relation;\n  Loaded: ${p}Loaded;\n}\n`,
  ].join("\n");
}

/** The record's hash, the record nested in another's, its pivots, its loaded relations, and as its routes output it. */
function recordTypes(resource: ResourceModel, ownHash: string, builtInUsers: boolean): string[] {
  const p = resource.names.pascal;
  const visibleTo = resource.declaration.visibleTo ?? {};
  const out: string[] = [];
  if (!builtInUsers) out.push(`/** The public id of ${resource.names.aLabel}. */\nexport type ${p}Hash = \`${resource.prefix}_\${string}\`;\n`);

  // The record as output inside another's (its own relations as hashes), then as its own routes output it.
  const keys = resource.serializer.flatMap((key): string[] => {
    const seenBy = visibleTo[key.key];
    const optional = seenBy ? "?" : "";
    const note = seenBy ? doc(`Output only to ${roles(seenBy)}.`) : "";
    switch (key.kind) {
      case "publicId":
        return [`  ${key.key}: ${ownHash};\n`];
      case "field":
        return [`${note}  ${key.key}${optional}: ${tsTypeOf(key.field)};\n`];
      case "timestamp":
        return [`  ${key.key}: ${key.key === "deleted_at" ? "string | null" : "string"};\n`];
      default: {
        // A relation output only when loaded is in <Resource>Loaded.
        const unloaded = kindOf(key.relation).unloaded;
        return unloaded ? [`${note}  ${key.key}${optional}: ${unloaded.clientType(key.relation)};\n`] : [];
      }
    }
  });
  out.push(`/** ${capitalized(resource.names.aLabel)} as it is nested in another record (its own relations as hashes). */\nexport interface ${p}Nested {\n${keys.join("")}}\n`);
  for (const relation of resource.belongsToMany)
    out.push(`/** The values of a link of ${relation.name}, on each linked record as \`pivot\`. */\nexport interface ${pivotType(resource, relation)} {\n${relation.pivotFields.map((field) => `  ${field.name}: ${tsTypeOf(field)};\n`).join("")}}\n`);
  // The relations a caller can see loaded: those `with` may name, and the eager ones.
  const loadable = resource.relations.filter((relation) => resource.withable.includes(relation.name) || resource.eagerLoad.includes(relation.name));
  out.push(`/** What each relation is when \`with\` (or eager loading) loads it. */\nexport interface ${p}Loaded {\n${loadable.map((relation) => `  ${relation.name}: ${loadedType(resource, relation)};\n`).join("")}}\n`);
  const eager = resource.eagerLoad;
  out.push(
    eager.length === 0
      ? `/** ${capitalized(resource.names.aLabel)} as its routes output it. */\nexport type ${p} = ${p}Nested;\n`
      : `/** ${capitalized(resource.names.aLabel)} as its routes output it (${eager.join(", ")} always loaded). */\nexport type ${p} = Omit<${p}Nested, ${union(eager.map(quoted))}> & Pick<${p}Loaded, ${union(eager.map(quoted))}>;\n`,
  );
  return out;
}

/** What creates, updates and links accept. */
function payloadTypes(resource: ResourceModel): string[] {
  const p = resource.names.pascal;
  const writableBy = payloadWriters(resource.declaration);
  return [
    payloadType(`${p}Create`, `What POST /api/${resource.collection} accepts.`, resource, resource.validation.create.payload, writableBy),
    payloadType(`${p}Update`, `What PATCH /api/${resource.collection}/{hash} accepts.`, resource, resource.validation.update.payload, writableBy),
    ...resource.belongsToMany.map((relation) => {
      const payload = resource.pivotPayloads.find((entry) => entry.name === relation.name)?.validation.payload ?? [];
      return payloadType(linkType(resource, relation), `The body of PUT /api/${resource.collection}/{hash}/${relation.name}/{related}.`, resource, payload, {});
    }),
  ];
}

/** A list's parameters: relations, sort keys, filters with their operators. */
function listTypes(resource: ResourceModel): string[] {
  const p = resource.names.pascal;
  const filters = resource.filters.map((filter) => {
    const value = filterValueType(resource, filter);
    const shared = sharedFilters.find((candidate) => sameOperators(candidate.operators, filter.operators));
    const operators = filter.operators.map((op) => `${op}?: ${operandType(op, value)}`).join("; ");
    const type = shared ? `${shared.name}<${value}>` : `{ ${operators} }`;
    const note = filter.visibleTo ? doc(`Only ${roles(filter.visibleTo)} may filter by it.`) : "";
    return `${note}  ${filter.name}?: ${type};\n`;
  });
  const params = [
    `  filter?: ${p}Filter;\n`,
    ...(resource.search.length > 0 ? [`  /** Every word in some of: ${resource.search.join(", ")}. */\n  search?: string;\n`] : []),
    `  sort?: readonly ${p}SortKey[];\n`,
    `  with?: readonly ${p}Relation[];\n`,
    `  page?: number;\n  perPage?: number;\n`,
    `  /** Cursor mode: "" for the first page, then a page's \`meta.next_cursor\` or \`prev_cursor\`. */\n  cursor?: string;\n`,
    ...(resource.softDelete ? [`  withTrashed?: boolean;\n`, `  onlyTrashed?: boolean;\n`] : []),
  ];
  return [
    `export type ${p}Relation = ${union(resource.withable.map(quoted))};\n`,
    `export type ${p}SortKey = ${union(resource.sortable.flatMap((field) => [quoted(field), quoted(`-${field}`)]))};\n`,
    `/** The list filters, each with its field's operators: \`filter: { name: { contains: "sil" } }\`. */\nexport type ${p}Filter = {\n${filters.join("")}};\n`,
    `export interface ${p}Params {\n${params.join("")}}\n`,
  ];
}

function loadedType(resource: ResourceModel, relation: RelationModel): string {
  return kindOf(relation).loaded.clientType(resource, relation);
}

/** A payload's keys: relations by their target's hash type, fields only some roles may send noted. */
function payloadType(name: string, summary: string, resource: ResourceModel, payload: readonly PayloadKey[], writableBy: Record<string, string[]>): string {
  // A key no role may send (what the server sets, without bypass roles) is no part of the payload.
  const lines = payload.filter((key) => writableBy[key.key]?.length !== 0).map((key) => {
    const relation = resource.relations.find((candidate) => candidate.name === key.key);
    const type = relation ? relationPayloadType(key.tsType, relation) : key.tsType;
    const writers = writableBy[key.key];
    const note = writers ? doc(`Only ${roles(writers)} may send it: the server refuses it from others.`) : "";
    return `${note}  ${key.key}${key.optional ? "?" : ""}: ${type};\n`;
  });
  return `/** ${summary} */\nexport interface ${name} {\n${lines.join("")}}\n`;
}

function relationPayloadType(tsType: string, relation: RelationModel): string {
  const hash = hashTypeName(relation.target);
  if (relation.kind === "belongsToMany") return tsType === "string[]" ? `${hash}[]` : tsType.replace("hash: string", `hash: ${hash}`);
  return tsType.replace(/^string/, hash);
}

function filterValueType(resource: ResourceModel, filter: ResourceModel["filters"][number]): string {
  const kinds: Record<Exclude<FilterKind, "enum" | "relation">, string> = {
    string: "string",
    uuid: "string",
    integer: "number",
    decimal: "number | string",
    date: "string",
    datetime: "string",
    boolean: "boolean",
  };
  if (filter.kind === "enum") return union((filter.values ?? []).map(quoted));
  if (filter.kind === "relation") {
    const relation = resource.relations.find((candidate) => candidate.name === filter.name);
    return relation ? hashTypeName(relation.target) : "string";
  }
  return kinds[filter.kind];
}

function operandType(op: FilterOperator, value: string): string {
  if (op === "null") return "boolean";
  if (op === "in" || op === "nin") return `readonly (${value})[]`;
  if (op === "between") return `readonly [${value}, ${value}]`;
  if (op === "contains" || op === "starts_with" || op === "ends_with") return "string";
  return value;
}

/**
 * The client's groups of routes beyond the resources', each as its type and the core function that
 * makes it: the account routes the project serves (the reset with `mail:`, sign-up with
 * `auth.signup`, …), and with tenancy the members' routes.
 */
function routeGroups(model: Pick<ProjectModel, "mail" | "auth" | "tenancy">): { accountParts: string[][]; tenantParts: string[][] } {
  const invites = model.auth.acceptsInvitations;
  const accountParts = [
    ...(model.mail ? [["PasswordResetRoutes", "passwordResetClient"]] : []),
    ...(model.auth.signup ? [["SignupRoutes", "signupClient"]] : []),
    ...(model.auth.signup?.verify ? [["VerificationRoutes", "verificationClient"]] : []),
    ...(model.auth.mfa ? [["SecondFactorRoutes", "secondFactorClient"]] : []),
    ...(model.auth.invitations ? [["InvitationRoutes<UserRole>", "invitationsClient<UserRole>"]] : invites ? [["AcceptanceRoutes", "acceptanceClient"]] : []),
    ...(model.tenancy && invites ? [["JoinRoutes<TenantRole>", "joinClient<TenantRole>"]] : []),
  ];
  const tenantParts = model.tenancy ? [["MemberRoutes<TenantRole>", "membersClient<TenantRole>"], ...(invites ? [["MemberInvitationRoutes<TenantRole>", "memberInvitationsClient<TenantRole>"]] : [])] : [];
  return { accountParts, tenantParts };
}

/** A resource's file fields as a union of their names, or undefined without any. */
function fileFields(resource: ResourceModel): string | undefined {
  const names = resource.fields.filter((field) => field.file).map((field) => quoted(field.name));
  return names.length === 0 ? undefined : names.join(" | ");
}

function createClientFunction(resources: readonly ResourceModel[], model: Pick<ProjectModel, "mail" | "auth" | "tenancy">): string {
  const shapes = resources.map((resource) => {
    const p = resource.names.pascal;
    const parts = [`core.ResourceRoutes<${p}Types>`];
    if (resource.softDelete) parts.push(`core.RestoreRoute<${p}Types>`);
    if (resource.audit) parts.push(`core.HistoryRoute<${p}Types>`);
    if (fileFields(resource)) parts.push(`core.UploadRoutes<${fileFields(resource)}>`);
    if (resource.belongsToMany.length > 0)
      parts.push(`{ ${resource.belongsToMany.map((relation) => `${relation.name}: core.LinkedRoutes<${p}Types["Hash"], ${relation.target.names.pascal}Types, ${linkType(resource, relation)}>`).join("; ")} }`);
    return `  ${resource.names.pluralCamel}: ${parts.join(" & ")};\n`;
  });
  const members = resources.map((resource) => {
    const p = resource.names.pascal;
    const path = quoted(`/api/${resource.collection}`);
    const parts = [`...core.resourceClient<${p}Types>(transport, ${path})`];
    if (resource.softDelete) parts.push(`...core.restorable<${p}Types>(transport, ${path})`);
    if (resource.audit) parts.push(`...core.audited<${p}Types>(transport, ${path})`);
    if (fileFields(resource)) parts.push(`...core.uploadable<${fileFields(resource)}>(transport, ${quoted(resource.collection)})`);
    for (const relation of resource.belongsToMany)
      parts.push(
        `${relation.name}: core.linkedClient<${p}Types["Hash"], ${relation.target.names.pascal}Types, ${linkType(resource, relation)}>(transport, ${path}, ${quoted(relation.name)})`,
      );
    return `    ${resource.names.pluralCamel}: { ${parts.join(", ")} },\n`;
  });
  const { accountParts, tenantParts } = routeGroups(model);
  const membersType = tenantParts.map(([type]) => `core.${type}`).join(" & ");
  const membersValue = `{ ${tenantParts.map(([, make]) => `...core.${make}(transport)`).join(", ")} }`;
  const login = model.auth.mfa ? "CurrentUser, core.Session | core.MfaChallenge" : "CurrentUser";
  const authType = [`core.AuthRoutes<${login}>`, ...accountParts.map(([type]) => `core.${type}`)].join(" & ");
  const authValue = accountParts.length === 0 ? `core.authClient<${login}>(transport)` : `{ ${[`...core.authClient<${login}>(transport)`, ...accountParts.map(([, make]) => `...core.${make}(transport)`)].join(", ")} }`;
  return `/** The API's client: \`auth\`, and each collection's routes, typed by this project's specs. */
export interface ApiClient {
  /** Replaces the bearer token the client sends (undefined: none). */
  setToken(token: string | undefined): void;${model.tenancy ? `
  /** The tenant later calls work in: a ${model.tenancy.resource.names.pascal}'s public id, sent as X-Tenant (undefined: none). */
  setTenant(tenant: string | undefined): void;` : ""}
  auth: ${authType};${model.tenancy ? `
  /** The members of the tenant the client works in, their invitations, and the caller's tenants. */
  members: ${membersType};` : ""}
${shapes.join("")}}

/**
 * The API's client. Declared as ApiClient rather than inferred, so its declaration file names each
 * resource's types instead of spelling every route out again.
 *
 *   const api = createClient({ baseUrl: "http://127.0.0.1:3000" });
 *   await api.auth.login({ email, password });
 *   const page = unwrap(await api.${resources[0]?.names.pluralCamel ?? "users"}.list({ perPage: 20 }));
 */
export function createClient(options: core.ClientOptions): ApiClient {
  const transport = new core.Transport(options);
  return {
    setToken: (token) => transport.setToken(token),${model.tenancy ? `
    setTenant: (tenant) => transport.setTenant(tenant),` : ""}
    auth: ${authValue},${model.tenancy ? `
    members: ${membersValue},` : ""}
${members.join("")}  };
}
`;
}
