// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { FilterKind } from "../http/list-query.js";
import type { TableSpec } from "../lib/table.js";
import type { PayloadValidator } from "../lib/validation.js";

export type ActionName = "index" | "store" | "show" | "update" | "destroy" | "restore";

/**
 * Everything the runtime needs to serve one resource, as the specs decided it. Each resource's
 * `<name>.resource.ts` declares one with `defineResource`; the service, controller, serializer and
 * routes in this folder do the rest.
 */
export interface ResourceDescriptor<Model = any, Row = any, Create = any, Update = any> {
  /** Path segment under /api: `medical-records`. */
  readonly collection: string;
  /** Public id prefix: `MRE` in `MRE_7KX9MQ2B`. */
  readonly prefix: string;
  readonly table: TableSpec<Model, Row>;
  readonly validate: {
    readonly create: PayloadValidator<Create>;
    readonly update: PayloadValidator<Update>;
  };
  /** Unique fields and the message for a value another record holds. */
  readonly unique?: Readonly<Record<string, string>>;
  /** belongsTo payload keys and the message for a hash that finds no live record. */
  readonly exists?: Readonly<Record<string, string>>;
  readonly list: {
    readonly sortable: readonly string[];
    readonly filters: Readonly<Record<string, FilterKind>>;
    /** Relations a client may ask for with `?with=`. */
    readonly relations: readonly string[];
  };
  /** Relations every response nests. */
  readonly eagerLoad?: readonly string[];
  /**
   * The output allow-list, in order; nothing else of a record is ever output. `hash` or
   * `public_id` (no field may have either name) is the record's public id.
   */
  readonly output: readonly string[];
  /** Decimal places of each decimal field's output string. */
  readonly scales?: Readonly<Record<string, number>>;
  /** Actions listed under auth.public: they need no token. */
  readonly publicActions?: readonly ActionName[];
}

/** A resource's descriptor, its types taken from its table and its validators. */
export function defineResource<Model, Row, Create, Update>(
  table: TableSpec<Model, Row>,
  resource: Omit<ResourceDescriptor<Model, Row, Create, Update>, "table">,
): ResourceDescriptor<Model, Row, Create, Update> {
  return { table, ...resource };
}

/** Whether an output key is the public id. */
export function isPublicIdKey(key: string): boolean {
  return key === "hash" || key === "public_id";
}
