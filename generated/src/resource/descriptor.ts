// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import {
  filterKinds,
  isFilterOperator,
  operatorsOf,
  type FilterKind,
  type FilterOperator,
} from "../data/list-operators.js";
import { relationsOfKind, type StoredRow, type TableSpec } from "../data/table.js";
import {
  compileValidator,
  type ActionRules,
  type MessageList,
  type PayloadRules,
  type PayloadValidator,
  type PayloadValidators,
} from "../base/validation.js";
import { actionNames, isActionName, type ActionName } from "./actions.js";
import type { OwnerSettings } from "./ownership.js";
import type { FileRules } from "../files/file-rules.js";
import type { TenantSettings } from "./tenancy.js";

export { actionNames, type ActionName };

/**
 * What the specs decided for one resource, with the words a filter kind and an action are written
 * in: the runtime's own types in a descriptor, any string in the JSON a declaration is read from.
 */
interface ResourceSettings<Filter extends string, Action extends string, Operator extends string> {
  /** Path segment under /api: `medical-records`. */
  readonly collection: string;
  /** Public id prefix: `MRE` in `MRE_7KX9MQ2B`. */
  readonly prefix: string;
  /** Unique fields and the message for a value another record holds. */
  readonly unique?: Readonly<Record<string, string>>;
  /** belongsTo payload keys and the message for a hash that finds no live record. */
  readonly exists?: Readonly<Record<string, string>>;
  readonly list: {
    readonly sortable: readonly string[];
    readonly filters: Readonly<Record<string, Filter>>;
    /** The values each enum filter accepts. */
    readonly values?: Readonly<Record<string, readonly string[]>>;
    /** Fields whose spec narrows their operators (`filter: [eq, in]`); the others take their kind's. */
    readonly operators?: Readonly<Record<string, readonly Operator[]>>;
    /** The fields `?search=` looks in (`search: true`). */
    readonly search?: readonly string[];
    /** Relations a client may ask for with `?with=`. */
    readonly relations: readonly string[];
  };
  /** Relations every response nests. */
  readonly eagerLoad?: readonly string[];
  /** `audit:` in the spec: the history route, and how long its events are kept (days; none: for ever). */
  readonly audit?: { readonly retainDays?: number };
  /**
   * The output allow-list, in order; nothing else of a record is ever output. `hash` or
   * `public_id` (no field may have either name) is the record's public id.
   */
  readonly output: readonly string[];
  /**
   * `type: file` fields and their rules (files/file-rules.ts): stored as JSON (the object's key,
   * name, size and type), output as `{ name, size, type, url }` (the URL for responses only).
   */
  readonly files?: Readonly<Record<string, FileRules>>;
  /** Decimal places of each decimal field's output string. */
  readonly scales?: Readonly<Record<string, number>>;
  /** Actions listed under auth.public: they need no token. */
  readonly publicActions?: readonly Action[];
  /** Fields only these roles see: absent from the others' responses, not filterable or sortable by them. */
  readonly visibleTo?: Readonly<Record<string, readonly string[]>>;
  /** Fields only these roles may send: 422 "The … field is prohibited." for the others. */
  readonly writableBy?: Readonly<Record<string, readonly string[]>>;
  /** `owner:`: callers reach only their own records, except the bypass roles (see ownership.ts). */
  readonly owner?: OwnerSettings;
  /**
   * With tenancy: `column` holds each record's tenant (`id` on the tenant resource), or the records
   * are shared by every tenant (`global`); see tenancy.ts.
   */
  readonly tenant?: TenantSettings;
  /** With tenancy: unique fields unique across every tenant (`unique: global`); the others are per tenant. */
  readonly uniqueAcrossTenants?: readonly string[];
  /**
   * Payload keys the server sets (`set:`): a belongsTo User to the caller (`from: "caller"`), a
   * date or datetime to the current time (`from: "clock"`); on create, or on every create and
   * update (`on`); payloads may name them for the `bypass` roles only. Typed as strings: the
   * declaration is imported JSON, whose strings TypeScript widens.
   */
  readonly setByServer?: Readonly<
    Record<
      string,
      { readonly on: string; readonly from: string; readonly bypass: readonly string[] }
    >
  >;
  /** auth.roles: per action, the roles that may perform it (403 for the others, before any read). */
  readonly roles?: Readonly<Partial<Record<Action, readonly string[]>>>;
  /** Per belongsToMany, the rules of its attach route's body (the pivot's fields). */
  readonly pivots?: Readonly<Record<string, ActionRules>>;
  /** The spec's fixed records, which `npm run db:seed` upserts by the unique field `by`. */
  readonly seed?: {
    readonly by: string;
    readonly rows: readonly Readonly<Record<string, unknown>>[];
  };
}

/**
 * Everything the runtime needs to serve one resource, as the specs decided it. Each resource's
 * `<name>.resource.ts` declares one with `defineResource` from its `<name>.resource.json`; the
 * service, controller, serializer and routes in this folder do the rest.
 */
export interface ResourceDescriptor<
  Model = object,
  Row = StoredRow,
  Create = object,
  Update = object,
> extends ResourceSettings<FilterKind, ActionName, FilterOperator> {
  readonly table: TableSpec<Model, Row>;
  readonly validate: PayloadValidators<Create, Update>;
  /** Per belongsToMany, the validator of its attach route's body. */
  readonly validateLink: Readonly<Record<string, PayloadValidator<Record<string, unknown>>>>;
}

/**
 * A resource of any type, for code that serves every resource alike (the registry, field access,
 * seeds): each resource's own row and payload types stay in its own files.
 */
export type AnyResource = ResourceDescriptor;

/**
 * `<name>.resource.json` as `hashapi generate` writes it: plain JSON (its validation schemas are the
 * ones openapi.json publishes), read once at start-up.
 */
export interface ResourceDeclaration extends ResourceSettings<string, string, string> {
  /** Read by the resource's `<name>.validator.ts` (payloadValidators), which types the payloads. */
  readonly validation: PayloadRules;
}

const filterKindNames: ReadonlySet<string> = new Set<string>(filterKinds);

/**
 * A resource's descriptor: its row types from its table, its settings from its declaration, its
 * typed validators from `<name>.validator.ts`. A declaration edited by hand into something the
 * runtime cannot serve stops the start-up here, with the table's name, instead of failing a request.
 */
export function defineResource<Model, Row extends StoredRow, Create, Update>(
  table: TableSpec<Model, Row>,
  declaration: ResourceDeclaration,
  validate: PayloadValidators<Create, Update>,
): ResourceDescriptor<Model, Row, Create, Update> {
  const {
    validation: _readByTheValidators,
    list,
    publicActions,
    roles,
    pivots,
    ...settings
  } = declaration;
  for (const [name] of relationsOfKind(table, "belongsToMany"))
    if (!pivots || !Object.hasOwn(pivots, name))
      refuse(table, `relation ${name} has no pivot rules`);
  const filters = filterKindsOf(table, list);
  for (const field of list.search ?? [])
    if (!Object.hasOwn(table.columns, field)) refuse(table, `search field ${field} is no column`);
  const actions = publicActions?.map((action) =>
    isActionName(action) ? action : refuse(table, `public action "${action}" is not an action`),
  );
  const actionRoles =
    roles &&
    Object.fromEntries(
      Object.entries(roles).map(([action, allowed]) =>
        isActionName(action) && Array.isArray(allowed)
          ? [action, allowed]
          : refuse(table, `roles of "${action}" are not a list of roles of an action`),
      ),
    );
  return {
    table,
    ...settings,
    list: { ...list, filters, operators: narrowedOperators(table, list, filters) },
    ...(actions ? { publicActions: actions } : {}),
    ...(actionRoles ? { roles: actionRoles } : {}),
    // Kept as data beside their validators: the generated link tests make pivot values from them.
    ...(pivots ? { pivots } : {}),
    validate,
    validateLink: Object.fromEntries(
      Object.entries(pivots ?? {}).map(([name, rules]) => [
        name,
        compileValidator<Record<string, unknown>>(rules.schema, rules.messages as MessageList),
      ]),
    ),
  };
}

/** The declaration's filters with their kinds checked (an enum's values listed). */
function filterKindsOf(
  table: { readonly name: string },
  list: ResourceDeclaration["list"],
): Readonly<Record<string, FilterKind>> {
  return Object.fromEntries(
    Object.entries(list.filters).map(([field, kind]) => {
      if (!isFilterKind(kind)) refuse(table, `filter ${field} has an unknown kind "${kind}"`);
      if (kind === "enum" && !Array.isArray(list.values?.[field]))
        refuse(table, `enum filter ${field} lists no values`);
      return [field, kind];
    }),
  );
}

/** The fields whose operators the spec narrowed, each operator one its filter's kind takes. */
function narrowedOperators(
  table: { readonly name: string },
  list: ResourceDeclaration["list"],
  filters: Readonly<Record<string, FilterKind>>,
): Readonly<Record<string, readonly FilterOperator[]>> | undefined {
  if (list.operators === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(list.operators).map(([field, operators]) => {
      const kind = Object.hasOwn(filters, field) ? filters[field] : undefined;
      if (kind === undefined) return refuse(table, `operators of ${field}, which is no filter`);
      const taken = operators.map((operator) =>
        isFilterOperator(operator) && operatorsOf[kind].includes(operator)
          ? operator
          : refuse(table, `filter ${field} cannot take the operator "${operator}"`),
      );
      return [field, taken];
    }),
  );
}

function isFilterKind(name: string): name is FilterKind {
  return filterKindNames.has(name);
}

function refuse(table: { readonly name: string }, problem: string): never {
  throw new Error(`The declaration of table ${table.name} cannot be served: ${problem}.`);
}

/** Whether an output key is the public id. */
export function isPublicIdKey(key: string): boolean {
  return key === "hash" || key === "public_id";
}
