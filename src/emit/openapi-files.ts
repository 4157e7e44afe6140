import type { ProjectModel, ResourceModel } from "../model/types.js";
import { badRequest, bodyErrors, json, ref, responseRef, successRecord } from "./openapi-parts.js";

/*
 * openapi.json for file fields (docs/api-contract.md "Files"): a create or update of a resource
 * with file fields also takes multipart/form-data; the two-phase upload's routes; the `local`
 * driver's own PUT and download routes.
 */

/** A create or update's request content: JSON, and multipart where the resource has file fields. */
export function writeContent(resource: ResourceModel, payload: string): object {
  const files = resource.fields.filter((field) => field.file);
  if (files.length === 0) return json(ref(payload));
  const parts = Object.fromEntries(files.map((field) => [field.name, { type: "string", contentMediaType: "application/octet-stream", description: fileDescription(field.file!) }]));
  return {
    ...json(ref(payload)),
    "multipart/form-data": {
      schema: {
        type: "object",
        description: "The payload's fields as JSON in `payload` (or each as a text part, a string), and each file as a part named by its field; the write stores them as it attaches a two-phase upload.",
        properties: { payload: { type: "string", contentMediaType: "application/json", description: `the ${payload} as JSON` }, ...parts },
      },
      encoding: { payload: { contentType: "application/json" } },
    },
  };
}

function fileDescription(rules: NonNullable<ResourceModel["fields"][number]["file"]>): string {
  const types = [...(rules.mimes ?? []), ...(rules.mimetypes ?? [])];
  const kinds = rules.image ? "an image" : types.length > 0 ? `of type ${types.join(", ")}` : "any type but HTML and SVG";
  return `a file, ${kinds}, at most ${Math.floor(rules.maxBytes / 1024)} KB (its type is read from its bytes)`;
}

/** The responses a write with files may add: a full gate of uploads (503). */
export function fileWriteResponses(resource: ResourceModel): object {
  return resource.fields.some((field) => field.file) ? { "503": responseRef("ServiceBusy") } : {};
}

/** The uploads' routes, and the `local` driver's own; none without file fields. */
export function filePaths(project: ProjectModel): Record<string, object> {
  if (!project.files) return {};
  const tags = ["files"];
  const collections = project.files.collections;
  const upload = { type: "object", required: ["upload", "url", "method", "expires_at"], properties: { upload: { type: "string", pattern: "^upl_[a-z2-7]{26}$", description: "the token a create or update names the file by" }, url: { type: "string", description: "where to PUT the bytes: this service's own URL (local driver) or the bucket's presigned one (s3)" }, method: { const: "PUT" }, expires_at: { type: "string", format: "date-time" } } };
  const token = { name: "token", in: "path", required: true, schema: { type: "string", pattern: "^upl_[a-z2-7]{26}$" } };
  const signed = [
    { name: "expires", in: "query", required: true, schema: { type: "string" } },
    { name: "signature", in: "query", required: true, schema: { type: "string" } },
  ];
  return {
    "/api/uploads": {
      post: {
        operationId: "askForUpload",
        tags,
        summary: "Ask for an upload: where to PUT a file's bytes, and the token a write then names it by",
        description: "For a caller who may create or update the collection's records and send the field. The bytes are typed and checked against the field's rules once they are stored; a token no write takes is removed after the orphan period.",
        security: [{ bearer: [] }, {}],
        requestBody: { required: true, content: json({ type: "object", required: ["collection", "field", "name"], properties: { collection: { enum: collections }, field: { type: "string" }, name: { type: "string", maxLength: 1024 }, size: { type: "integer", minimum: 0, description: "bytes, when known: refused at once past the field's max" } } }) },
        responses: { "201": { description: "where to PUT the bytes", content: successRecord(upload, 201) }, ...badRequest, "401": responseRef("Unauthenticated"), "403": responseRef("Forbidden"), "422": responseRef("ValidationFailed"), ...bodyErrors, "500": responseRef("ServerError") },
      },
    },
    "/api/uploads/{token}": {
      put: {
        operationId: "putUpload",
        tags,
        summary: "The bytes of an asked-for upload (local driver; with s3 they go to the bucket's URL)",
        security: [],
        parameters: [token, ...signed],
        requestBody: { required: true, content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } } },
        responses: { "200": { description: "stored and checked", content: successRecord({ type: "object", properties: { upload: { type: "string" }, name: { type: "string" }, size: { type: "integer" }, type: { type: "string" } } }, 200) }, "400": responseRef("BadRequest"), "404": responseRef("NotFound"), "422": responseRef("ValidationFailed"), "503": responseRef("ServiceBusy"), "500": responseRef("ServerError") },
      },
    },
    "/api/files/{key}": {
      get: {
        operationId: "downloadFile",
        tags,
        summary: "A stored file, by the signed URL a record's output gave (local driver)",
        description: "Served with X-Content-Type-Options: nosniff and as an attachment (inline for image fields); a URL tampered with, expired or of a file since replaced is the 404 of a missing record.",
        security: [],
        parameters: [{ name: "key", in: "path", required: true, schema: { type: "string", pattern: "^[a-z2-7]{26}$" } }, ...signed],
        responses: { "200": { description: "the file", content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } } }, "404": responseRef("NotFound"), "500": responseRef("ServerError") },
      },
    },
  };
}
