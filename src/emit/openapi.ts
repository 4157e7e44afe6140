import { filterParameters, searchAndCursorParameters } from "./list-parameters.js";
import { payloadWriters } from "../model/payload-writers.js";
import { exampleHash, hashPattern } from "../model/hash-format.js";
import { fieldType } from "../model/field-types.js";
import { type JsonSchema } from "../model/json-schema.js";
import type { BelongsToManyModel, ProjectModel, ResourceModel } from "../model/types.js";
import { toPascal } from "../model/naming.js";
import { maxNestedPerParent } from "../model/list-operators.js";
import { backgroundPaths, backgroundSchemas } from "./openapi-background.js";
import { badRequest, bodyErrors, json, listResponseSchema, postBodyErrors, ref, responseRef, successRecord } from "./openapi-parts.js";

/**
 * The OpenAPI 3.1 document of a generated project, built from the model alone: request bodies are
 * the very JSON Schemas the generated validators compile, responses the serializers' output schemas.
 */
export function buildOpenApi(project: ProjectModel): object {
  const schemas: Record<string, JsonSchema> = {
    Error: envelopeError(),
    ValidationError: {
      ...envelopeError(),
      required: ["type", "status", "message", "errors"],
      properties: { ...envelopeError().properties, errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } } },
    },
    Message: {
      type: "object",
      required: ["type", "status", "message"],
      properties: { type: { const: "success" }, status: { type: "integer" }, message: { type: "string" } },
      additionalProperties: false,
    },
    Links: {
      type: "object",
      required: ["first", "last", "prev", "next"],
      properties: {
        first: { type: "string", format: "uri" },
        last: { type: "string", format: "uri" },
        prev: { type: ["string", "null"], format: "uri" },
        next: { type: ["string", "null"], format: "uri" },
      },
      additionalProperties: false,
    },
    Meta: {
      type: "object",
      required: ["current_page", "from", "last_page", "path", "per_page", "to", "total"],
      properties: {
        current_page: { type: "integer", minimum: 1 },
        from: { type: ["integer", "null"] },
        last_page: { type: "integer", minimum: 1 },
        path: { type: "string", format: "uri" },
        per_page: { type: "integer", minimum: 1 },
        to: { type: ["integer", "null"] },
        total: { type: "integer", minimum: 0 },
      },
      additionalProperties: false,
    },
    CursorLinks: {
      type: "object",
      required: ["prev", "next"],
      properties: {
        prev: { type: ["string", "null"], format: "uri" },
        next: { type: ["string", "null"], format: "uri" },
      },
      additionalProperties: false,
    },
    CursorMeta: {
      type: "object",
      required: ["path", "per_page", "next_cursor", "prev_cursor"],
      properties: {
        path: { type: "string", format: "uri" },
        per_page: { type: "integer", minimum: 1 },
        next_cursor: { type: ["string", "null"] },
        prev_cursor: { type: ["string", "null"] },
      },
      additionalProperties: false,
    },
    User: {
      type: "object",
      required: ["hash", "name", "email", "role", ...project.user.extraFields.map((field) => field.name)],
      properties: {
        hash: { type: "string", pattern: hashPattern("USR"), examples: [exampleHash("USR")] },
        name: { type: "string" },
        email: { type: "string", format: "email" },
        role: { type: "string", enum: [...project.auth.roles], description: "one of hashapi.yaml's auth.roles, read on every request", examples: [project.auth.roles[0]] },
        ...Object.fromEntries(project.user.extraFields.map((field) => [field.name, field.outputSchema])),
      },
      additionalProperties: false,
    },
    Token: {
      type: "object",
      required: ["access_token", "token_type", "expires_in"],
      properties: { access_token: { type: "string" }, token_type: { const: "Bearer" }, expires_in: { type: "integer", examples: [project.auth.ttl] } },
      additionalProperties: false,
    },
    LoginPayload: {
      type: "object",
      required: ["email", "password"],
      properties: { email: { type: "string", format: "email", maxLength: 255 }, password: { type: "string", minLength: 1, maxLength: 1024 } },
      additionalProperties: false,
    },
  };
  // Only when a resource points at users: an unused component would be noise (and a lint warning).
  if (project.resources.some((resource) => resource.serializer.some((entry) => entry.kind === "belongsTo" && entry.relation.target.builtIn)))
    schemas.RelatedUser = {
      type: "object",
      description: "A user a record points at (a belongsTo to User), when loaded: never their e-mail, role or password",
      required: ["hash", "name", ...project.user.extraFields.map((field) => field.name)],
      properties: {
        hash: { type: "string", pattern: hashPattern("USR"), examples: [exampleHash("USR")] },
        name: { type: "string" },
        ...Object.fromEntries(project.user.extraFields.map((field) => [field.name, field.outputSchema])),
      },
      additionalProperties: false,
    };
  // Only when a resource keeps a history: an unused component would be noise.
  if (project.resources.some((resource) => resource.audit)) schemas.HistoryEntry = historyEntrySchema();
  const paths: Record<string, object> = { ...authPaths() };
  for (const resource of project.resources) {
    schemas[resource.names.pascal] = recordSchema(resource, project.resources, true);
    schemas[`${resource.names.pascal}CreatePayload`] = resource.validation.create.schema;
    schemas[`${resource.names.pascal}UpdatePayload`] = resource.validation.update.schema;
    Object.assign(paths, resourcePaths(resource, project), manyToManyPaths(resource, project));
  }
  const managed = project.user.managed;
  if (managed) {
    // The record is the User above (what /api/auth/me shows); the payloads are the users' own.
    schemas.UserCreatePayload = managed.validation.create.schema;
    schemas.UserUpdatePayload = managed.validation.update.schema;
    Object.assign(paths, managedUserPaths(managed, project));
  }
  Object.assign(schemas, backgroundSchemas(project));
  Object.assign(paths, backgroundPaths(project));
  withConnectionErrors(paths);
  if (project.rateLimit) withRequestLimits(paths);
  return {
    openapi: "3.1.0",
    info: {
      title: project.name,
      version: "0.1.0",
      description: "Generated by hashapi. Every response is a JSON envelope; identifiers are public hashes.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    // Relative: "Try it out" on the reference page calls the server that served the document, on
    // whatever host and port it runs, instead of sending the token to a pinned address.
    servers: [{ url: "/", description: "the server that serves this document" }],
    security: [{ bearer: [] }],
    tags: [
      { name: "auth", description: "Authentication" },
      ...(managed ? [{ name: "users", description: "Users (auth.users.manage)" }] : []),
      ...project.resources.map((resource) => ({ name: resource.collection, description: capitalize(resource.names.pluralLabel) })),
    ],
    paths,
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } }, schemas, responses: errorResponses(project) },
  };
}

/**
 * Adds the `4XX` range to every operation: the answers the HTTP server gives before a route is
 * chosen (408, 417, 431, …) are in the envelope too, and a contract checker must never meet an
 * undocumented one. Statuses an operation documents itself keep their own entry.
 */
function withConnectionErrors(paths: Record<string, object>): void {
  for (const item of Object.values(paths) as Record<string, { responses?: Record<string, unknown> }>[])
    // A path item also holds its shared `parameters`: only operations have responses.
    for (const operation of Object.values(item)) if (operation.responses) operation.responses["4XX"] = responseRef("ClientError");
}

/** Paths a request limit never counts (runtime http/authenticate.ts): probes, this document, login's own throttle. */
const uncountedPaths = new Set(["/api/health", "/api/health/live", "/api/health/ready", "/api/openapi.json", "/api/auth/login", "/api/auth/refresh"]);

/** hashapi.yaml's or a resource's `rateLimit`: every counted operation may answer 429 with Retry-After. */
function withRequestLimits(paths: Record<string, object>): void {
  for (const [path, item] of Object.entries(paths) as [string, Record<string, { responses?: Record<string, unknown> }>][]) {
    if (uncountedPaths.has(path)) continue;
    for (const operation of Object.values(item)) if (operation.responses) operation.responses["429"] = responseRef("TooManyRequests");
  }
}

function envelopeError(): JsonSchema {
  return {
    type: "object",
    required: ["type", "status", "message"],
    properties: { type: { const: "error" }, status: { type: "integer" }, message: { type: "string" } },
    additionalProperties: false,
  };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function errorResponses(project: ProjectModel): Record<string, object> {
  const error = (description: string, message: string, headers?: object) => ({
    description,
    ...(headers ? { headers } : {}),
    content: json(ref("Error"), { type: "error", status: Number(description.slice(0, 3)), message }),
  });
  void project;
  return {
    BadRequest: error("400 malformed request: JSON body, body encoding, Host header or path encoding", "Malformed JSON body."),
    Unauthenticated: error("401 missing or invalid token", "Unauthenticated.", { "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } } }),
    Forbidden: error("403 the caller's role may not perform the action (auth.roles), or the policy denies it", "This action is unauthorized."),
    NotFound: error("404 no live record with that hash", "Resource not found."),
    Conflict: error("409 referenced by other records (delete), or a record it points at is deleted (restore)", "Resource is referenced by other records."),
    PayloadTooLarge: error("413 body over 100 kB", "Payload too large."),
    UnsupportedMediaType: error("415 body is not JSON", "Unsupported media type."),
    ValidationFailed: {
      description: "422 validation failed",
      content: json(ref("ValidationError"), { type: "error", status: 422, message: "The given data was invalid.", errors: { name: ["The name field is required."] } }),
    },
    TooManyAttempts: error("429 too many login attempts", "Too many attempts.", { "Retry-After": { schema: { type: "integer" } } }),
    ...(project.rateLimit ? { TooManyRequests: error("429 past a request limit (rateLimit): try again after Retry-After seconds", "Too many requests.", { "Retry-After": { schema: { type: "integer", minimum: 1 } } }) } : {}),
    MethodNotAllowed: error("405 known path, other method (see the Allow header)", "Method not allowed.", { Allow: { schema: { type: "string" } } }),
    ServerError: error("500 unexpected error", "Server Error"),
    NotReady: error("503 the database does not answer, a migration is pending, or (readiness) the process is draining for a shutdown", "The service is not ready.", { "Retry-After": { schema: { type: "integer" } } }),
    ClientError: {
      description:
        "Any other client error, answered by the HTTP server before a route is chosen: 408 request timeout, 417 an Expect other than 100-continue, 431 header fields too large, 400 for CONNECT or a missing or repeated Host",
      content: json(ref("Error"), { type: "error", status: 431, message: "Request header fields too large." }),
    },
  };
}

/** A health probe: public, 200 with its status word, 503 when it can be not ready. */
function probe(operationId: string, summary: string, status: string, canBeUnready: boolean): object {
  const up = { description: status, content: successRecord({ type: "object", properties: { status: { const: status } }, required: ["status"] }, 200) };
  return { get: { operationId, tags: ["auth"], summary, security: [], responses: { "200": up, ...(canBeUnready ? { "503": responseRef("NotReady") } : {}), ...badRequest, "405": responseRef("MethodNotAllowed"), "500": responseRef("ServerError") } } };
}

function authPaths(): Record<string, object> {
  const noStore = { "Cache-Control": { schema: { type: "string", const: "no-store" } } };
  const tokenResponse = { description: "a token", headers: noStore, content: successRecord(ref("Token"), 200) };
  return {
    "/api/health": probe("health", "Health check: the database answers and every migration is applied", "ok", true),
    "/api/health/live": probe("liveness", "Liveness: the process answers (never asks the database)", "live", false),
    "/api/health/ready": probe("readiness", "Readiness: as /api/health, and 503 while the process drains for a shutdown", "ready", true),
    "/api/openapi.json": { get: { operationId: "openapi", tags: ["auth"], summary: "This document", security: [], responses: { "200": { description: "the OpenAPI document", content: { "application/json": { schema: { type: "object" } } } }, ...badRequest, "405": responseRef("MethodNotAllowed") } } },
    "/api/auth/login": {
      post: {
        operationId: "login",
        tags: ["auth"],
        summary: "Log in with e-mail and password",
        security: [],
        requestBody: { required: true, content: json(ref("LoginPayload")) },
        responses: { "200": tokenResponse, "401": { description: "invalid credentials", content: json(ref("Error"), { type: "error", status: 401, message: "Invalid credentials." }) }, "422": responseRef("ValidationFailed"), "429": responseRef("TooManyAttempts"), ...badRequest, ...bodyErrors, "500": responseRef("ServerError") },
      },
    },
    "/api/auth/me": { get: { operationId: "me", tags: ["auth"], summary: "The current user (bare, without envelope)", responses: { "200": { description: "the user", headers: noStore, content: json(ref("User")) }, ...badRequest, "401": responseRef("Unauthenticated"), "500": responseRef("ServerError") } } },
    "/api/auth/refresh": { post: { operationId: "refresh", tags: ["auth"], summary: "A new token for a token inside the refresh window (may be expired); revokes it", responses: { "200": tokenResponse, ...badRequest, "401": responseRef("Unauthenticated"), ...postBodyErrors, "500": responseRef("ServerError") } } },
    "/api/auth/logout": { post: { operationId: "logout", tags: ["auth"], summary: "Revoke the presented token", responses: { "200": { description: "logged out", headers: noStore, content: json(ref("Message"), { type: "success", status: 200, message: "Successfully logged out." }) }, ...badRequest, "401": responseRef("Unauthenticated"), ...postBodyErrors, "500": responseRef("ServerError") } } },
  };
}

function resourcePaths(resource: ResourceModel, project: ProjectModel): Record<string, object> {
  const name = resource.names.pascal;
  const tags = [resource.collection];
  // Per operation: who may call it. Public ones take no token; those limited to roles say which (x-roles, for tools).
  // Fields only some roles may send, said where they are sent (the payload schemas stay the validators' own).
  // What the server sets (`set:`) is sent by its bypass roles only.
  const writers = Object.entries(payloadWriters(resource.declaration)).map(([name, roles]) => ({ name, roles }));
  const when = (set: { on: string }) => (set.on === "write" ? "on every write" : "on create");
  const toCaller = resource.belongsTo.filter((relation) => relation.setByCaller);
  const toNow = resource.fields.filter((field) => field.setByServer);
  const setNote =
    (toCaller.length === 0 ? "" : ` Set by the server to the caller: ${toCaller.map((relation) => `${relation.name} (${when(relation.setByCaller!)})`).join("; ")}.`) +
    (toNow.length === 0 ? "" : ` Set by the server to the current time: ${toNow.map((field) => `${field.name} (${when(field.setByServer!)})`).join("; ")}.`);
  const writing = writers.length === 0 ? undefined : { "x-writable-by": Object.fromEntries(writers.map((writer) => [writer.name, writer.roles])), note: `Fields only some roles may send (422 "prohibited" for the others): ${writers.map((writer) => `${writer.name} (${writer.roles.join(", ") || "none"})`).join("; ")}.${setNote}` };
  // Ownership, on every operation of an owned resource: who reaches which records.
  const owner = resource.owner;
  const ownerPath = owner ? (owner.through ? `${owner.through}.${owner.column.replace(/_id$/, "")}` : owner.payloadKey!) : "";
  const owned = owner
    ? {
        "x-owner": { relation: ownerPath, bypass: owner.bypass },
        note: `Callers reach only the records they own (through ${ownerPath}); another's record is a 404, exactly as a missing one${owner.bypass.length > 0 ? `. The roles ${owner.bypass.join(", ")} reach every record` : ""}.`,
      }
    : undefined;
  const security = (action: keyof ResourceModel["actions"]) => {
    const { public: isPublic, roles } = resource.actions[action];
    const writes = action === "store" || action === "update" ? writing : undefined;
    const notes: string[] = [];
    if (roles !== undefined) notes.push(roles.length === 0 ? "No role may call this operation (403)." : `Only for the roles ${roles.join(", ")}; 403 for the others, before anything is read.`);
    if (writes) notes.push(writes.note);
    if (owned) notes.push(owned.note);
    return {
      ...(isPublic ? { security: [{}, { bearer: [] }] } : {}),
      ...(roles !== undefined && !isPublic ? { "x-roles": roles } : {}),
      ...(writes ? { "x-writable-by": writes["x-writable-by"] } : {}),
      ...(owned ? { "x-owner": owned["x-owner"] } : {}),
      ...(notes.length > 0 ? { description: notes.join(" ") } : {}),
    };
  };
  // Public actions list 401 too: a token that is presented must be valid (docs/decisions.md), and a
  // relation to a non-public resource cannot be nested for an anonymous caller.
  const auth = { ...badRequest, "401": responseRef("Unauthenticated") };
  const example = exampleRecord(resource, project.resources, true);
  const hashParameter = { name: "hash", in: "path", required: true, description: `public identifier, e.g. ${resource.exampleHash}`, schema: { type: "string", examples: [resource.exampleHash] } };
  const withParameter = withParameterOf(resource);
  const listParameters = listParametersOf(resource, project);
  const listSchema = listResponseSchema(ref(name));
  const paths: Record<string, object> = {
    [`/api/${resource.collection}`]: {
      get: { operationId: `list${resource.names.pluralPascal}`, tags, summary: `List ${resource.names.pluralLabel}`, ...security("index"), parameters: listParameters, responses: { "200": { description: "a page", content: json(listSchema) }, ...auth, "403": responseRef("Forbidden"), "422": responseRef("ValidationFailed"), "500": responseRef("ServerError") } },
      post: { operationId: `create${name}`, tags, summary: `Create ${resource.names.aLabel}`, ...security("store"), requestBody: { required: true, content: json(ref(`${name}CreatePayload`)) }, responses: { "201": { description: "created", content: successRecord(ref(name), 201, example) }, ...auth, "403": responseRef("Forbidden"), "422": responseRef("ValidationFailed"), ...bodyErrors, "500": responseRef("ServerError") } },
    },
    [`/api/${resource.collection}/{hash}`]: {
      parameters: [hashParameter],
      get: { operationId: `show${name}`, tags, summary: `Show ${resource.names.aLabel}`, ...security("show"), parameters: [withParameter], responses: { "200": { description: "the record", content: successRecord(ref(name), 200, example) }, ...auth, "403": responseRef("Forbidden"), "404": responseRef("NotFound"), "422": responseRef("ValidationFailed"), "500": responseRef("ServerError") } },
      put: updateOperation("put"),
      patch: updateOperation("patch"),
      delete: { operationId: `delete${name}`, tags, summary: `Delete ${resource.names.aLabel}${resource.softDelete ? " (soft)" : ""}`, ...security("destroy"), responses: { "200": { description: "deleted", content: json(ref("Message"), { type: "success", status: 200, message: "Resource deleted." }) }, ...auth, "403": responseRef("Forbidden"), "404": responseRef("NotFound"), "409": responseRef("Conflict"), "500": responseRef("ServerError") } },
    },
  };
  if (resource.softDelete) {
    paths[`/api/${resource.collection}/{hash}/restore`] = {
      parameters: [hashParameter],
      post: { operationId: `restore${name}`, tags, summary: `Restore a soft-deleted ${resource.names.label}`, ...security("restore"), responses: { "200": { description: "restored", content: successRecord(ref(name), 200, example) }, ...auth, "403": responseRef("Forbidden"), "404": responseRef("NotFound"), "409": responseRef("Conflict"), ...postBodyErrors, "500": responseRef("ServerError") } },
    };
  }
  if (resource.audit) {
    const kept = resource.audit.retainDays === null ? "" : ` Events older than ${resource.audit.retainDays} days are deleted.`;
    paths[`/api/${resource.collection}/{hash}/history`] = {
      parameters: [hashParameter],
      get: { operationId: `history${name}`, tags, summary: `The history of ${resource.names.aLabel}: its events, newest first`, ...security("show"), description: `Readable by whoever may show the record (soft-deleted or not); changes to fields the caller may not see are left out.${kept}`, parameters: listParametersOf(resource, project).filter((parameter) => ["page", "per_page", "cursor"].includes((parameter as { name: string }).name)), responses: { "200": { description: "a page of events", content: json(listResponseSchema(ref("HistoryEntry"))) }, ...auth, "403": responseRef("Forbidden"), "404": responseRef("NotFound"), "422": responseRef("ValidationFailed"), "500": responseRef("ServerError") } },
    };
  }
  return paths;

  function updateOperation(method: "put" | "patch") {
    return {
      operationId: `${method === "put" ? "replace" : "update"}${name}`,
      tags,
      summary: `Update ${resource.names.aLabel} (only the sent fields change)`,
      ...security("update"),
      requestBody: { required: true, content: json(ref(`${name}UpdatePayload`)) },
      responses: { "200": { description: "the updated record", content: successRecord(ref(name), 200, example) }, ...auth, "403": responseRef("Forbidden"), "404": responseRef("NotFound"), "422": responseRef("ValidationFailed"), ...bodyErrors, "500": responseRef("ServerError") },
    };
  }
}

/**
 * /api/users: a resource's routes, plus what only users have: a manager gives and edits roles up
 * to its own, and the last user of the first role is never deleted nor demoted (409).
 */
function managedUserPaths(users: ResourceModel, project: ProjectModel): Record<string, object> {
  const paths = resourcePaths(users, project) as Record<string, Record<string, { description?: string; responses: Record<string, object> }>>;
  const first = project.auth.roles[0]!;
  const rules = `A manager may not create, edit, delete nor give a role above its own (403 for such a user, 422 on role). The last ${first} can be neither deleted nor given another role (409). Passwords are never output; e-mails are stored lower-cased and unique regardless of case.`;
  for (const path of Object.values(paths))
    for (const [method, operation] of Object.entries(path)) {
      if (method === "parameters") continue;
      operation.description = operation.description ? `${operation.description} ${rules}` : rules;
      if (method === "put" || method === "patch") operation.responses["409"] = responseRef("Conflict");
    }
  return paths;
}

/**
 * One serialized record. A belongsTo is the related hash, or the related record when eager or asked
 * for with `?with=`; a hasMany appears only when asked for.
 */
function recordSchema(resource: ResourceModel, resources: ResourceModel[], nest: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const entry of resource.serializer) {
    if (entry.kind === "belongsTo") {
      const target = resources.find((candidate) => candidate.name === entry.relation.target.name);
      const hash: JsonSchema = { type: "string", pattern: hashPattern(entry.relation.target.prefix) };
      // A built-in user, when loaded, is the RelatedUser schema (public id, name and user fields).
      // A nested record's own belongsTo are hashes only: built when nesting, so that a relation back
      // to the same resource (a review's parent review, A → B → A) ends there.
      const loaded = () => (target ? recordSchema(target, resources, false) : ref("RelatedUser"));
      const options: JsonSchema[] = !nest ? [hash] : entry.relation.eager ? [loaded()] : [hash, loaded()];
      if (!entry.relation.required) options.push({ type: "null" });
      const schema = options.length === 1 ? options[0]! : { anyOf: options };
      const set = entry.relation.setByCaller;
      // Set by the server from the caller (`set:`): read-only to clients, but for its bypass roles.
      properties[entry.key] = set ? { ...schema, readOnly: true, description: `Set by the server to the caller ${set.on === "write" ? "on every create and update" : "when the record is created"}${set.bypass.length > 0 ? `; the roles ${set.bypass.join(", ")} may name another user` : ""}.` } : schema;
    } else if (entry.kind === "publicId") {
      properties[entry.key] = { type: "string", pattern: hashPattern(resource.prefix), examples: [resource.exampleHash] };
    } else if (entry.kind === "field") {
      const { visibleTo, setByServer: set } = entry.field;
      // Set by the server to the current time (`set:`): read-only to clients, but for its bypass roles.
      const schema = set ? { ...entry.field.outputSchema, readOnly: true, description: `Set by the server to the current time ${set.on === "write" ? "on every create and update" : "when the record is created"}${set.bypass.length > 0 ? `; the roles ${set.bypass.join(", ")} may send a value of their own` : ""}.` } : entry.field.outputSchema;
      // A field some roles do not see is absent from their responses: described, never required.
      properties[entry.key] = visibleTo ? { ...schema, "x-visible-to": visibleTo, description: `Only in responses to the roles ${visibleTo.join(", ")}.` } : schema;
      if (visibleTo) continue;
    } else if (entry.kind === "timestamp") {
      properties[entry.key] = entry.key === "deleted_at" ? { type: ["string", "null"], format: "date-time" } : { type: "string", format: "date-time" };
    }
    if (entry.kind !== "hasMany" && entry.kind !== "belongsToMany") required.push(entry.key);
  }
  if (nest) {
    // Lists a client may nest with ?with= (a belongsTo is a key of the record already, above).
    for (const relation of resource.relations) {
      if (relation.kind === "belongsTo" || !resource.withable.includes(relation.name)) continue;
      const target = resources.find((candidate) => candidate.name === relation.target.name)!;
      const items = relation.kind === "hasMany" ? recordSchema(target, resources, false) : linkedRecordSchema(relation, target, resources);
      const rest = relation.kind === "hasMany" ? `GET /api/${target.collection} filtered by this record` : `GET /api/${resource.collection}/{hash}/${relation.name}`;
      properties[relation.name] = { type: "array", items, maxItems: maxNestedPerParent, description: `At most ${maxNestedPerParent}, the first in list order; ${rest} serves the rest.` };
    }
  }
  return { type: "object", properties, required, additionalProperties: false };
}

/** `?with=`: the relations a client may nest. */
function withParameterOf(resource: ResourceModel): object {
  return { name: "with", in: "query", description: `comma-separated relations to nest: ${resource.withable.join(", ") || "(none)"}`, schema: { type: "string" } };
}

/** One event of a record's history (runtime resource/history.ts). */
function historyEntrySchema(): JsonSchema {
  return {
    type: "object",
    required: ["event", "at", "actor", "changes"],
    properties: {
      event: { type: "string", description: "<resource>.created, .updated, .deleted, .restored, or <resource>.<relation>.attached / .detached", examples: ["medical_record.updated"] },
      at: { type: "string", format: "date-time" },
      actor: {
        anyOf: [
          { type: "object", required: ["hash", "name"], properties: { hash: { type: "string", pattern: hashPattern("USR") }, name: { type: ["string", "null"] } }, additionalProperties: false },
          { type: "object", required: ["hash", "name"], properties: { hash: { type: "null" }, name: { type: "null" } }, additionalProperties: false },
          { type: "null" },
        ],
        description: "who wrote, as they were named then; { hash: null, name: null } to a caller without a token (a user wrote; users are shown to signed-in callers only); null for seeds and scripts",
      },
      changes: {
        type: "object",
        description: "per output key the caller may see now, [before, after] as records output them (a belongsTo as its hash; a link's pivot fields as <relation>.<field>)",
        additionalProperties: { type: "array", minItems: 2, maxItems: 2 },
      },
    },
    additionalProperties: false,
  };
}

/** Every parameter of a resource's list: pages, sort, relations, trash, filters, search, cursor. */
function listParametersOf(resource: ResourceModel, project: ProjectModel): object[] {
  return [
    { name: "page", in: "query", schema: { type: "integer", minimum: 1, maximum: 2_147_483_647, default: 1 } },
    { name: "per_page", in: "query", schema: { type: "integer", minimum: 1, maximum: project.pagination.maxPerPage, default: project.pagination.defaultPerPage } },
    { name: "sort", in: "query", description: `comma-separated fields, "-" for descending: ${resource.sortable.join(", ")}`, schema: { type: "string" } },
    withParameterOf(resource),
    ...(resource.softDelete ? [{ name: "with_trashed", in: "query", description: "include soft-deleted records (signed-in users only)", schema: { type: "boolean", default: false } }] : []),
    ...resource.filters.flatMap(filterParameters),
    ...searchAndCursorParameters(resource),
  ];
}

/** A record read through a belongsToMany: the related record, with its link's `pivot` when the relation has fields. */
/** `nest`: the record as the relation's own list answers it, with what `?with=` and eager loads nest. */
function linkedRecordSchema(relation: BelongsToManyModel, target: ResourceModel, resources: ResourceModel[], nest = false): JsonSchema {
  const record = recordSchema(target, resources, nest);
  if (relation.pivotFields.length === 0) return record;
  const pivot: JsonSchema = {
    type: "object",
    properties: Object.fromEntries(relation.pivotFields.map((field) => [field.name, field.outputSchema])),
    required: relation.pivotFields.map((field) => field.name),
    additionalProperties: false,
    description: "the link's own fields",
  };
  return { ...record, properties: { ...record.properties, pivot }, required: [...(record.required ?? []), "pivot"] };
}

/**
 * A belongsToMany's routes: the linked records as a list (the related resource's list query), and
 * linking (`PUT`, its body the pivot's fields) and unlinking (`DELETE`) one related record.
 */
function manyToManyPaths(resource: ResourceModel, project: ProjectModel): Record<string, object> {
  const paths: Record<string, object> = {};
  const hashParameter = { name: "hash", in: "path", required: true, description: `public identifier, e.g. ${resource.exampleHash}`, schema: { type: "string", examples: [resource.exampleHash] } };
  const auth = { ...badRequest, "401": responseRef("Unauthenticated"), "403": responseRef("Forbidden"), "404": responseRef("NotFound"), "500": responseRef("ServerError") };
  for (const relation of resource.belongsToMany) {
    const target = project.resources.find((candidate) => candidate.name === relation.target.name)!;
    // Named as the pivot model is (build.ts): DoctorSpecialties.
    const operation = `${resource.names.pascal}${toPascal(relation.name)}`;
    const item = linkedRecordSchema(relation, target, project.resources);
    const pivot = resource.pivotPayloads.find((entry) => entry.name === relation.name)!.validation.schema;
    // The list takes the related resource's own list query, `?with=` included.
    const list = listResponseSchema(linkedRecordSchema(relation, target, project.resources, true));
    const readPublic = resource.actions.show.public && target.actions.index.public;
    // Roles the route is limited to, as the router checks them (runtime resource/routes.ts): both lists.
    const readRoles = readPublic ? undefined : bothRoles(resource.actions.show.roles, target.actions.index.roles);
    const writeRoles = bothRoles(resource.actions.update.roles, target.actions.show.roles);
    const relatedParameter = { name: "related", in: "path", required: true, description: `the ${target.names.label}'s public identifier, e.g. ${target.exampleHash}`, schema: { type: "string", examples: [target.exampleHash] } };
    paths[`/api/${resource.collection}/{hash}/${relation.name}`] = {
      parameters: [hashParameter],
      get: { operationId: `list${operation}`, tags: [resource.collection], summary: `List the ${target.names.pluralLabel} linked to ${resource.names.aLabel}`, description: `Needs show on the ${resource.names.label} and index on ${target.names.pluralLabel}. The ${target.names.pluralLabel}' own list query applies.`, ...(readPublic ? { security: [{}, { bearer: [] }] } : {}), ...(readRoles ? { "x-roles": readRoles } : {}), parameters: listParametersOf(target, project), responses: { "200": { description: "a page of linked records", content: json(list) }, ...auth, "422": responseRef("ValidationFailed") } },
    };
    paths[`/api/${resource.collection}/{hash}/${relation.name}/{related}`] = {
      parameters: [hashParameter, relatedParameter],
      put: { operationId: `attach${operation}`, tags: [resource.collection], summary: `Link a ${target.names.label} (idempotent: linking again rewrites the pivot fields sent)`, description: `Needs update on the ${resource.names.label} and show on the ${target.names.label}.`, ...(writeRoles ? { "x-roles": writeRoles } : {}), requestBody: { required: false, content: json(pivot) }, responses: { "200": { description: "the linked record", content: successRecord(item, 200) }, ...auth, "422": responseRef("ValidationFailed"), ...bodyErrors } },
      delete: { operationId: `detach${operation}`, tags: [resource.collection], summary: `Unlink a ${target.names.label} (404 when not linked)`, description: `Needs update on the ${resource.names.label} and show on the ${target.names.label}.`, ...(writeRoles ? { "x-roles": writeRoles } : {}), responses: { "200": { description: "unlinked", content: json(ref("Message"), { type: "success", status: 200, message: "Resource detached." }) }, ...auth } },
    };
  }
  return paths;
}

/** The roles two role lists both allow; undefined when neither limits the roles. */
function bothRoles(first: string[] | undefined, second: string[] | undefined): string[] | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return first.filter((role) => second.includes(role));
}

function exampleRecord(resource: ResourceModel, resources: ResourceModel[], nest: boolean): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const entry of resource.serializer) {
    switch (entry.kind) {
      case "publicId":
        record[entry.key] = resource.exampleHash;
        break;
      case "field":
        record[entry.key] = exampleOutput(entry.field);
        break;
      case "belongsTo": {
        const target = resources.find((candidate) => candidate.name === entry.relation.target.name);
        const userHash = exampleHash("USR");
        if (!target) record[entry.key] = entry.relation.eager && nest ? { hash: userHash, name: "Ada Admin" } : userHash;
        else record[entry.key] = entry.relation.eager && nest ? exampleRecord(target, resources, false) : target.exampleHash;
        break;
      }
      case "timestamp":
        record[entry.key] = entry.key === "deleted_at" ? null : "2026-01-15T09:30:00.000Z";
        break;
      default:
        break;
    }
  }
  return record;
}

function exampleOutput(field: ResourceModel["fields"][number]): unknown {
  return fieldType(field.type).output.example(field);
}
