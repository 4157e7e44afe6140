import type { JsonSchema } from "../model/json-schema.js";

/*
 * The pieces every part of openapi.json is written with: references, the envelope of a record and
 * of a page, and the error responses most operations share.
 */

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
export const json = (schema: object, example?: unknown) => ({ "application/json": { schema, ...(example === undefined ? {} : { example }) } });
export const badRequest = { "400": responseRef("BadRequest") };
export const bodyErrors = { "413": responseRef("PayloadTooLarge"), "415": responseRef("UnsupportedMediaType") };
/** A POST without a documented body still has its body parsed and checked (json-body.ts). */
export const postBodyErrors = { ...bodyErrors, "422": responseRef("ValidationFailed") };

export function successRecord(schema: object, status: number, example?: unknown) {
  return json(
    { type: "object", required: ["type", "status", "data"], properties: { type: { const: "success" }, status: { const: status }, data: schema }, additionalProperties: false },
    example === undefined ? undefined : { type: "success", status, data: example },
  );
}

/** A page of records: the envelope, and the links and meta of either pagination mode. */
export function listResponseSchema(items: object): object {
  return {
    type: "object",
    required: ["type", "status", "data", "links", "meta"],
    properties: { type: { const: "success" }, status: { const: 200 }, data: { type: "array", items }, links: { anyOf: [ref("Links"), ref("CursorLinks")] }, meta: { anyOf: [ref("Meta"), ref("CursorMeta")] } },
    additionalProperties: false,
    description: "page-number mode: Links and Meta; with ?cursor=: CursorLinks and CursorMeta",
  };
}

export type { JsonSchema };
