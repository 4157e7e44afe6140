import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

/**
 * The generated project's openapi.json as the fuzz suite reads it: every operation with its
 * parameters and request body, and a validator for every response it documents.
 */

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

export type Schema = Record<string, unknown>;

export interface Operation {
  method: string;
  /** The path template, e.g. `/api/patients/{hash}`. */
  path: string;
  operationId: string;
  parameters: { name: string; in: string; schema: Schema }[];
  body: Schema | undefined;
  /** Documented statuses. */
  statuses: Set<number>;
  /** `x-roles`: the roles that may call it, when it is limited to some. */
  roles: string[] | undefined;
  /** `x-owner`: the resource's records are their owners' (the bypass roles reach all). */
  owner: { relation: string; bypass: string[] } | undefined;
  /** `x-writable-by`: payload keys only these roles may send (the server sets them for the others). */
  writableBy: Record<string, string[]>;
  /** The record's fields only some roles see (`x-visible-to` in its schema): field → those roles. */
  visibleTo: Record<string, string[]>;
  /** With tenancy: the operation works in the tenant its X-Tenant header names. */
  tenanted: boolean;
  /** The response body does not match the document for that status: a list of problems, empty when it does. */
  check(status: number, body: unknown): string[];
}

const methods = ["get", "post", "put", "patch", "delete"];

export function readDocument(document: Schema): Operation[] {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(document, "openapi.json");
  const components = (document.components ?? {}) as { responses?: Record<string, Schema>; schemas?: Record<string, Schema> };
  const resolve = (value: Schema): Schema => {
    const ref = value.$ref;
    if (typeof ref !== "string") return value;
    const [, group, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
    return ((components as Record<string, Record<string, Schema>>)[group!] ?? {})[name!] ?? {};
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
    const shared = ((item.parameters ?? []) as Schema[]).map(resolve) as Operation["parameters"];
    for (const method of methods) {
      const operation = item[method] as Schema | undefined;
      if (!operation) continue;
      const responses = operation.responses as Record<string, Schema>;
      // By status as the document writes it: "404", or a range such as "4XX".
      const validators = new Map<string, ((body: unknown) => string[]) | null>();
      for (const [status, response] of Object.entries(responses)) {
        const schema = ((resolve(response).content as Record<string, { schema?: Schema }> | undefined)?.["application/json"]?.schema) ?? null;
        if (schema === null) validators.set(status, null);
        else {
          const validate = ajv.compile(schema.$ref ? { $ref: `openapi.json${schema.$ref}` } : { ...schemaWithRefsInto(schema) });
          validators.set(status, (body) => (validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`)));
        }
      }
      const requestBody = operation.requestBody as Schema | undefined;
      // An operation whose body is not JSON (an upload's bytes) is driven without one.
      const jsonBody = (requestBody?.content as Record<string, { schema: Schema }> | undefined)?.["application/json"];
      const bodySchema = jsonBody ? resolve(jsonBody.schema) : undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(operation.operationId),
        parameters: [...shared, ...((operation.parameters ?? []) as Schema[]).map(resolve)] as Operation["parameters"],
        tenanted: [...shared, ...((operation.parameters ?? []) as Schema[]).map(resolve)].some((parameter) => parameter.in === "header" && parameter.name === "X-Tenant"),
        body: bodySchema,
        statuses: new Set([...validators.keys()].filter((status) => /^\d+$/.test(status)).map(Number)),
        roles: Array.isArray(operation["x-roles"]) ? (operation["x-roles"] as string[]) : undefined,
        owner: (operation["x-owner"] as Operation["owner"]) ?? undefined,
        visibleTo: visibleFields(responses, resolve),
        writableBy: (operation["x-writable-by"] as Record<string, string[]> | undefined) ?? {},
        check(status, body) {
          // An exact status first, then its range (OpenAPI 3.1 §4.8.16.2).
          const validator = validators.has(String(status)) ? validators.get(String(status)) : validators.get(`${Math.floor(status / 100)}XX`);
          if (validator === undefined) return [`status ${status} is not documented`];
          return validator === null ? [] : validator(body);
        },
      });
    }
  }
  return operations;
}

/** The fields of the record a success answers with (`data`, or each item of it) that carry x-visible-to. */
function visibleFields(responses: Record<string, Schema>, resolve: (value: Schema) => Schema): Record<string, string[]> {
  const success = responses["200"] ?? responses["201"];
  const schema = success ? ((resolve(success).content as Record<string, { schema?: Schema }> | undefined)?.["application/json"]?.schema ?? {}) : {};
  const data = ((resolve(schema).properties ?? {}) as Record<string, Schema>).data ?? {};
  const record = resolve((data.items as Schema | undefined) ?? data);
  const visible: Record<string, string[]> = {};
  for (const [field, property] of Object.entries((record.properties ?? {}) as Record<string, Schema>))
    if (Array.isArray(property["x-visible-to"])) visible[field] = property["x-visible-to"] as string[];
  return visible;
}

/** Inline schemas may still hold `#/components/...` refs: point them into the added document. */
function schemaWithRefsInto(schema: unknown): Schema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/')) as Schema;
}
