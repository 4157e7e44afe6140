// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { emptyFieldErrors, ValidationFailed, type FieldErrors } from "../base/errors.js";
import { isRecord, ownValue } from "../base/records.js";
import { pivotColumns, type Link } from "../data/relations/belongs-to-many.js";
import { toDate } from "../data/serialize.js";
import { takenFields, type UniqueFields } from "./unique-fields.js";
import { withinTenant, type TenantRule } from "./tenancy.js";
import type { Sql } from "../db/sql.js";
import {
  bothScopes,
  columnsOf,
  relationOfKind,
  type AnyTable,
  type Reach,
  type TableSpec,
} from "../data/table.js";

/** A belongsTo payload key whose record must also match `where` (an owned resource's parent). */
export interface ParentRule {
  readonly relation: string;
  readonly where: Readonly<Record<string, unknown>>;
}

/**
 * A valid payload as the table stores it: relation hashes resolved to the related rows' ids (each
 * locked live inside the write's transaction when asked), dates as Dates, and each belongsToMany
 * key's links. Every hash that names no row the caller may link is a 422 on its own key.
 */
export class PayloadColumns {
  private readonly kinds: ReturnType<typeof columnsOf>;

  constructor(
    private readonly spec: TableSpec,
    /** The table of a related resource, to find the record a payload's hash names. */
    private readonly tableOf: (spec: TableSpec) => AnyTable,
    /** belongsTo payload key → its "The selected … is invalid." message. */
    private readonly missingMessages: Readonly<Record<string, string>> = {},
  ) {
    this.kinds = columnsOf(spec);
  }

  /** The payload's keys that link through a belongsToMany (written after the row). */
  linking(payload: object): string[] {
    return Object.keys(payload).filter((key) => relationOfKind(this.spec, key, "belongsToMany"));
  }

  /** Whether the payload names a belongsTo's record. */
  references(payload: object): boolean {
    return Object.keys(payload).some((key) => relationOfKind(this.spec, key, "belongsTo"));
  }

  /**
   * Payload → columns: relation hashes become foreign keys (422 when unknown), dates become Dates.
   * With `lock`, each related record found is locked live until the transaction ends.
   */
  async columns(
    payload: object,
    sql: Sql,
    options: { lock?: "share"; parent?: ParentRule; tenant?: Pick<TenantRule, "id"> } = {},
  ): Promise<Record<string, unknown>> {
    const { lock, parent, tenant } = options;
    const data: Record<string, unknown> = {};
    const errors = emptyFieldErrors();
    for (const [key, value] of Object.entries(payload)) {
      // Links are written after the row.
      if (relationOfKind(this.spec, key, "belongsToMany")) continue;
      const relation = relationOfKind(this.spec, key, "belongsTo");
      if (relation) {
        // Only a record of the writer's tenant: another's is as unknown as a missing one.
        const target = relation.target();
        const scope = bothScopes(
          parent?.relation === key ? { where: parent.where } : undefined,
          withinTenant(target.tenantColumn, tenant),
        );
        const id =
          typeof value === "string"
            ? await this.tableOf(target).within(sql).liveId(value, lock, scope)
            : null;
        if (value !== null && id === null)
          errors[key] = [this.missingMessages[key] ?? "The selected relation is invalid."];
        data[relation.foreignKey] = id;
      } else {
        const kind = this.kinds[key];
        data[key] = kind === "date" || kind === "datetime" ? toDate(value) : value;
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    return data;
  }

  /**
   * The related rows each belongsToMany payload key names, locked live in the write's transaction
   * and within the caller's reach there: 422 on `<relation>.<index>` for an unknown, deleted,
   * unreachable or repeated hash.
   */
  async links(
    payload: object,
    names: readonly string[],
    sql: Sql,
    reach: Readonly<Record<string, Reach | undefined>> = {},
    tenant?: Pick<TenantRule, "id">,
  ): Promise<Map<string, Link[]>> {
    const links = new Map<string, Link[]>();
    const errors = emptyFieldErrors();
    for (const name of names) {
      const relation = relationOfKind(this.spec, name, "belongsToMany");
      const items = ownValue(payload, name);
      if (!relation || !Array.isArray(items)) continue;
      const targetSpec = relation.target();
      const target = this.tableOf(targetSpec).within(sql);
      const seen = new Set<string>();
      const named: { key: string; hash: string; pivot: Record<string, unknown> }[] = [];
      for (const [index, item] of items.entries()) {
        const { hash, ...pivot } = isRecord(item) ? item : { hash: item };
        const key = `${name}.${index}`;
        if (typeof hash !== "string") {
          errors[key] = [`The selected ${key} is invalid.`];
          continue;
        }
        if (seen.has(hash)) {
          errors[key] = [`The ${key} field has a duplicate value.`];
          continue;
        }
        seen.add(hash);
        named.push({ key, hash, pivot });
      }
      // One statement for the relation's records, not one per item.
      const within = bothScopes(reach[name], withinTenant(targetSpec.tenantColumn, tenant));
      const ids = await target.liveIds([...seen], "share", within);
      const wanted: Link[] = [];
      for (const { key, hash, pivot } of named) {
        const id = ids.get(hash);
        if (id === undefined) errors[key] = [`The selected ${key} is invalid.`];
        else wanted.push({ id, pivot: pivotColumns(relation, pivot) });
      }
      links.set(name, wanted);
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    return links;
  }

  /**
   * columns() and links() together: what both find wrong in one ValidationFailed (a client sees
   * every unknown record of a payload at once), with `unique` values already taken added to it;
   * else the row's columns and its links.
   */
  async resolve(
    payload: object,
    sql: Sql,
    options: {
      lock?: "share";
      parent?: ParentRule;
      reach?: Readonly<Record<string, Reach | undefined>>;
      unique?: { table: AnyTable; fields: UniqueFields; exceptId?: number };
      tenant?: Pick<TenantRule, "id">;
    } = {},
  ): Promise<{ data: Record<string, unknown>; links: Map<string, Link[]> }> {
    const errors = emptyFieldErrors();
    const collect = async <T,>(check: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await check();
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        Object.assign(errors, error.errors);
        return undefined;
      }
    };
    const data = await collect(() => this.columns(payload, sql, options));
    const links = await collect(() =>
      this.links(payload, this.linking(payload), sql, options.reach, options.tenant),
    );
    if (data !== undefined && links !== undefined) return { data, links };
    const { unique } = options;
    if (unique) {
      const reported = new Set(Object.keys(errors));
      const taken = await takenFields(
        unique.table,
        unique.fields,
        payload,
        unique.exceptId,
        reported,
      );
      Object.assign(errors, taken);
    }
    throw new ValidationFailed(errors);
  }

  /** What resolve() would refuse in the payload, read without locks: none is an empty FieldErrors. */
  async problems(
    payload: object,
    sql: Sql,
    options: {
      parent?: ParentRule;
      reach?: Readonly<Record<string, Reach | undefined>>;
      tenant?: Pick<TenantRule, "id">;
    },
  ): Promise<FieldErrors> {
    try {
      await this.resolve(payload, sql, options);
      return emptyFieldErrors();
    } catch (error) {
      if (error instanceof ValidationFailed) return error.errors;
      throw error;
    }
  }
}
