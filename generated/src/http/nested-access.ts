// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { CurrentUser } from "../auth/auth.service.js";
import { Forbidden, Unauthenticated } from "../base/errors.js";
import { propertyOf } from "../base/records.js";
import type { RowScope, StoredRow } from "../data/table.js";

/**
 * Who may see a record of one resource nested inside another's response (`?with=` or eagerLoad):
 * exactly who may see it through its own show action. Without this, a public resource would hand
 * anonymous callers the private records it is related to.
 */
export interface NestedReader {
  /** The related resource's show action is listed under auth.public. */
  readonly public: boolean;
  /** The roles its show is limited to (auth.roles.show), if it is. */
  readonly showRoles?: readonly string[];
  /**
   * The related resource's policy.show for one nested record; absent when that policy keeps the
   * default show (every record), so a page of nested records is not asked one by one.
   */
  readonly mayShow?: (
    user: CurrentUser | undefined,
    record: StoredRow,
  ) => boolean | Promise<boolean>;
  /** The related resource's policy.scope, when it has one: nested lists hold only what it reaches. */
  scope?(user: CurrentUser | undefined): RowScope | readonly RowScope[] | undefined;
  /**
   * An owned resource's: whether the caller owns every one of `records` (a page's belongsTo
   * records, asked at once). Nested lists need no such check: their scope already holds.
   */
  owns?(user: CurrentUser | undefined, records: readonly object[]): Promise<boolean>;
}

/** What a nested reader asks of the related resource (its policy, with its ownership). */
export interface NestedPolicy {
  show(user: CurrentUser | undefined, record: StoredRow): boolean | Promise<boolean>;
  scope?(user: CurrentUser | undefined): RowScope | readonly RowScope[] | undefined;
  owns?(user: CurrentUser | undefined, records: readonly object[]): Promise<boolean>;
}

/** relation name → the reader of the resource it points at. */
export type NestedReaders = Readonly<Record<string, NestedReader>>;

/** showsEvery: the policy's show is the default one, which allows every record. */
export function nestedReader(
  isPublic: boolean,
  policy: NestedPolicy,
  showRoles: readonly string[] | undefined,
  showsEvery: boolean,
): NestedReader {
  return {
    public: isPublic,
    ...(showRoles ? { showRoles } : {}),
    ...(showsEvery ? {} : { mayShow: (user, record) => policy.show(user, record) }),
    ...(policy.scope ? { scope: (user) => policy.scope!(user) } : {}),
    ...(policy.owns ? { owns: (user, records) => policy.owns!(user, records) } : {}),
  };
}

/**
 * The relations a response nests (the resource's eager ones, then those requested, once each),
 * checked before anything is loaded: an anonymous caller may nest only relations whose resource
 * shows itself publicly (401 otherwise), a signed-in one only those whose show its role may perform
 * (403 otherwise).
 */
export function loadableRelations(
  readers: NestedReaders,
  eager: readonly string[],
  requested: readonly string[],
  user: CurrentUser | undefined,
): string[] {
  if (eager.length === 0 && requested.length === 0) return [];
  const relations = [...new Set([...eager, ...requested])];
  if (user === undefined && relations.some((relation) => !readers[relation]?.public))
    throw new Unauthenticated();
  const roleRefused = (relation: string) => {
    const roles = readers[relation]?.showRoles;
    return roles !== undefined && (user === undefined || !roles.includes(user.role));
  };
  if (relations.some(roleRefused)) throw new Forbidden();
  return relations;
}

/** Whether the caller may show records of the related resource at all: public, or its role allowed. */
export function mayShowResource(reader: NestedReader, user: CurrentUser | undefined): boolean {
  if (user === undefined) return reader.public;
  return reader.showRoles === undefined || reader.showRoles.includes(user.role);
}

/**
 * What linking the related records a payload names (`names`, its belongsToMany keys) takes: the
 * caller's role must show each of those resources (403 otherwise), and only records within its
 * reach there may be linked (each relation's scope, undefined for all).
 */
export function linkScopes(
  nested: NestedReaders,
  names: readonly string[],
  user: CurrentUser | undefined,
): Record<string, ReturnType<NonNullable<NestedReader["scope"]>>> {
  const links: Record<string, ReturnType<NonNullable<NestedReader["scope"]>>> = {};
  for (const name of names) {
    const reader = nested[name];
    if (!reader || !mayShowResource(reader, user)) throw new Forbidden();
    links[name] = reader.scope?.(user);
  }
  return links;
}

/**
 * After loading: every nested record must pass its own resource's show policy, and a nested
 * belongsTo record of an owned resource must be the caller's (403 otherwise). Nothing to wait for
 * (no relation whose records are asked one by one or whose owner is checked): no promise at all.
 */
export function assertMayRead(
  readers: NestedReaders,
  rows: readonly object[],
  relations: readonly string[],
  user: CurrentUser | undefined,
): void | Promise<void> {
  let asks = false;
  for (const relation of relations) {
    const reader = readers[relation];
    if (!reader) throw new Forbidden();
    if (reader.mayShow !== undefined || reader.owns !== undefined) asks = true;
  }
  if (asks) return askEachRecord(readers, rows, relations, user);
}

async function askEachRecord(
  readers: NestedReaders,
  rows: readonly object[],
  relations: readonly string[],
  user: CurrentUser | undefined,
): Promise<void> {
  for (const relation of relations) {
    // assertMayRead found a reader for each relation before asking.
    const reader = readers[relation]!;
    const { mayShow } = reader;
    // A page's belongsTo records (one each), whose ownership is asked once for the whole page.
    const single: object[] = [];
    for (const row of rows) {
      const nested = propertyOf(row, relation);
      if (nested === null || nested === undefined) continue;
      if (!Array.isArray(nested)) single.push(nested);
      if (mayShow === undefined) continue;
      for (const record of (Array.isArray(nested) ? nested : [nested]) as StoredRow[]) {
        // A verdict that is not a promise is not awaited: a page nests dozens of records.
        const verdict = mayShow(user, record);
        if (!(typeof verdict === "boolean" ? verdict : await verdict)) throw new Forbidden();
      }
    }
    if (reader.owns && single.length > 0 && !(await reader.owns(user, single)))
      throw new Forbidden();
  }
}
