import { exampleHash, hashPattern } from "../model/hash-format.js";
import type { JsonSchema } from "../model/json-schema.js";
import type { ProjectModel } from "../model/types.js";
import { json, ref } from "./openapi-parts.js";

/*
 * openapi.json's components that do not vary per resource: the envelope's schemas (an error, a
 * message, a page's links and meta), the signed-in user, tokens, login, a history entry, and the
 * error responses operations refer to.
 */

/** The components every document has: the envelope's schemas, the user, tokens, and a history entry or related user where used. */
export function sharedSchemas(project: ProjectModel): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {
    ...envelopeSchemas(),
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
    AuthSession: {
      type: "object",
      required: ["hash", "created_at", "last_used_at", "user_agent", "ip", "current"],
      properties: {
        hash: { type: "string", examples: ["SES_7KX9MQ2B"] },
        created_at: { type: "string", format: "date-time", description: "the login" },
        last_used_at: { type: "string", format: "date-time", description: "the last refresh (or the login)" },
        user_agent: { type: ["string", "null"] },
        ip: { type: ["string", "null"], description: "the client's address at the login (as TRUST_PROXY reports it)" },
        current: { type: "boolean", description: "the session of the token this request came with" },
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
  return schemas;
}

/** The envelope's own schemas: an error, a 422's, a message, a page's links and meta in both modes. */
function envelopeSchemas(): Record<string, JsonSchema> {
  return {
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
    ...pageSchemas(),
  };
}

/** A page's links and meta, in page-number and in cursor mode. */
function pageSchemas(): Record<string, JsonSchema> {
  return {
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
  };
}

function envelopeError(): JsonSchema {
  return {
    type: "object",
    required: ["type", "status", "message"],
    properties: { type: { const: "error" }, status: { type: "integer" }, message: { type: "string" } },
    additionalProperties: false,
  };
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

/** The error responses operations refer to (components.responses). */
export function errorResponses(project: ProjectModel): Record<string, object> {
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
    ...(project.rateLimit || project.mail || project.auth.mfa ? { TooManyRequests: error("429 past a request limit (rateLimit, or the account routes' mail limits): try again after Retry-After seconds", "Too many requests.", { "Retry-After": { schema: { type: "integer", minimum: 1 } } }) } : {}),
    MethodNotAllowed: error("405 known path, other method (see the Allow header)", "Method not allowed.", { Allow: { schema: { type: "string" } } }),
    ServerError: error("500 unexpected error", "Server Error"),
    ...(project.files ? { ServiceBusy: error("503 too many uploads at once in this process (storage.concurrentUploads): try again after Retry-After seconds", "Too many uploads at once: try again shortly.", { "Retry-After": { schema: { type: "integer", minimum: 1 } } }) } : {}),
    NotReady: error("503 the database does not answer, a migration is pending, or (readiness) the process is draining for a shutdown", "The service is not ready.", { "Retry-After": { schema: { type: "integer" } } }),
    ClientError: {
      description:
        "Any other client error, answered by the HTTP server before a route is chosen: 408 request timeout, 417 an Expect other than 100-continue, 431 header fields too large, 400 for CONNECT or a missing or repeated Host",
      content: json(ref("Error"), { type: "error", status: 431, message: "Request header fields too large." }),
    },
  };
}
