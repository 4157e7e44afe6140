// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { CurrentUser } from "../auth/auth.service.js";
import type { NestedReader } from "../http/nested-access.js";
import type { EventReaders } from "../events/attempts.js";
import type { Actor } from "../data/outbox.js";
import { hashPrefix } from "../base/hash-id.js";
import { tenantOfRow, type AnyTable, type StoredRow, type TableSpec } from "../data/table.js";
import { quote } from "../db/sql.js";
import { everyField, type Viewer } from "./field-access.js";
import type { OwnerSettings } from "./ownership.js";
import type { Serializer } from "./serializer.js";
import { isRecord } from "../base/records.js";
import { fileMetadata } from "../files/files.js";
import type { StoredFile } from "../files/uploads.js";

/*
 * One gate for every exit. Whatever leaves the service about a record (a response, its history, a
 * webhook's or a handler's payload, and what comes later: mail, files, an admin page) shows its
 * reader what a show of that record shows them under the current specs, whenever the data was
 * written: a field hidden, narrowed or removed since is absent from old events too, because an
 * event's changes are filtered here by the keys the record outputs now (renames rewrite stored
 * events in their migration, so an old key is never a new field's). A key this gate does not know
 * is never shown: it fails closed.
 */

/** Who reads what leaves the service. */
export type Reader =
  /** A request's caller: a signed-in user, or nobody (undefined). */
  | { readonly kind: "caller"; readonly user: CurrentUser | undefined }
  /**
   * A webhook's `as:` role: a user of that role who owns no record. With tenancy it reads each
   * tenant's record in that tenant (a bypass role as the first tenant role), and with `tenants`
   * only the records of those tenants (public ids).
   */
  | { readonly kind: "role"; readonly role: string; readonly tenants?: readonly string[] }
  /**
   * The service's own code (event handlers, jobs): every field a record outputs; a tenant's job or
   * handler (`tenant`, an id) reads that tenant's records only.
   */
  | { readonly kind: "system"; readonly tenant?: number | null };

export const systemReader = { kind: "system" } as const satisfies Reader;

/** What an exit sends of an event: the record now, and what changed, as its reader sees them. */
export interface EventView {
  /** The record as the reader reads it now; null once it is gone (or trashed, for a role). */
  readonly record: Record<string, unknown> | null;
  /** The event's changes without the keys the reader may not see. */
  readonly changes: Record<string, unknown>;
  /** With tenancy: the public id of the record's tenant, null for a record of none. */
  readonly tenant?: string | null;
}

/** One belongsToMany's links as its events carry them: the relation's key and its pivot fields'. */
export interface ExitLinks {
  readonly keys: readonly string[];
  /** Who may list the related records: the related resource's index (public, roles). */
  readonly listPublic: boolean;
  readonly listRoles?: readonly string[];
  /**
   * The related resource narrows by record (an owner, or a policy with a scope): its hashes are
   * shown only to readers that reach every record (the system, the owner's bypass roles).
   */
  readonly narrowed: false | { readonly bypass: readonly string[] };
}

/** What the gate knows of one resource (or of the built-in users). */
export interface ExitSubject {
  readonly table: TableSpec;
  /** Its public ids' prefix (`PAT`), which names it in an event (a renamed resource keeps it). */
  readonly prefix: string;
  /** The keys its events record: what it outputs but its public id and timestamps. */
  readonly recorded: readonly string[];
  readonly hiddenFrom: (viewer: Viewer) => ReadonlySet<string> | undefined;
  /** Who may show one of its records (auth.public, auth.roles.show, the policy, ownership). */
  readonly reader: NestedReader;
  readonly owner?: OwnerSettings;
  /** Its policy decides per record (a scope, or a show of its own): a gone record cannot be asked. */
  readonly decidesPerRecord: boolean;
  readonly links: readonly ExitLinks[];
  readonly serialize: Serializer;
  /** Its file fields: an event's value of one is shown as metadata, never its key or a URL. */
  readonly files?: ReadonlySet<string>;
}

/** The viewer a reader's fields are decided for. */
export function viewerOf(reader: Reader): Viewer {
  if (reader.kind === "system") return everyField;
  return reader.kind === "role" ? reader.role : reader.user?.role;
}

/**
 * A webhook's role as the user the policies are asked about: it owns nothing; for a tenant's
 * record, it works in that tenant (`tenant`, the record's) with that role.
 */
function roleUser(role: string, tenant?: number | null): CurrentUser {
  const user = { id: -1, hash: "", name: "", email: "", role };
  if (tenant === undefined || tenant === null) return user;
  return { ...user, platformRole: role, tenant: { id: tenant, hash: "", role, bypass: false } };
}

/** hashapi.yaml's `tenancy` as the gate reads tenants' records (auth/memberships.ts). */
export interface ExitTenancy {
  readonly table: string;
  readonly roles: readonly string[];
  readonly bypass: readonly string[];
}

/** The user a reader stands for in a policy's questions (none for the system, which is not asked). */
function userOf(reader: Reader): CurrentUser | undefined {
  return reader.kind === "role"
    ? roleUser(reader.role)
    : reader.kind === "caller"
      ? reader.user
      : undefined;
}

export class ExitGate {
  private readonly byPrefix = new Map<string, ExitSubject>();
  private readonly keyCache = new Map<ExitSubject, Map<Viewer, ReadonlySet<string>>>();
  /** A webhook's `tenants` as ids, read once (a tenant's id never changes). */
  private readonly tenantIdCache = new Map<string, Promise<ReadonlySet<number>>>();
  /** Tenants' public ids by id, read once each (neither ever changes). */
  private readonly tenantHashCache = new Map<number, Promise<string | null>>();

  constructor(
    subjects: readonly ExitSubject[],
    private readonly tableOf: (spec: TableSpec) => AnyTable,
    private readonly tenancy?: ExitTenancy,
  ) {
    for (const subject of subjects) this.byPrefix.set(subject.prefix, subject);
  }

  /** The resource a record's hash belongs to (its prefix survives a resource's rename). */
  subjectOf(hash: string): ExitSubject | undefined {
    return this.byPrefix.get(hashPrefix(hash));
  }

  /** The resource whose public ids start with `prefix`. */
  subjectWithPrefix(prefix: string): ExitSubject | undefined {
    return this.byPrefix.get(prefix);
  }

  /**
   * Whether a role may ever receive a resource's events: it may show the resource's records
   * (auth.roles.show), and reaches more than its own (a role owns nothing: an owned resource is
   * for its owner's bypass roles only).
   */
  roleMayRead(subject: ExitSubject, asRole: string): boolean {
    const role = this.roleIn(subject, asRole);
    const { showRoles } = subject.reader;
    if (showRoles !== undefined && !showRoles.includes(role)) return false;
    return subject.owner === undefined || subject.owner.bypass.includes(role);
  }

  /** The stored keys of `subject`'s events a reader may see. */
  visibleKeys(subject: ExitSubject, reader: Reader): ReadonlySet<string> {
    const viewer = viewerOf(reader);
    let cache = this.keyCache.get(subject);
    if (cache === undefined) this.keyCache.set(subject, (cache = new Map()));
    let keys = cache.get(viewer);
    if (keys === undefined) {
      const hidden = subject.hiddenFrom(viewer);
      keys = new Set([
        ...subject.recorded.filter((key) => !hidden?.has(key)),
        ...subject.links
          .filter((links) => mayListLinks(links, viewer))
          .flatMap((links) => links.keys),
      ]);
      // Roles are few; a viewer beyond them (a role since removed) is decided again each time.
      if (cache.size < 64) cache.set(viewer, keys);
    }
    return keys;
  }

  /** An event's changes as a reader may see them: only the keys the record shows it now. */
  changes(
    subject: ExitSubject,
    reader: Reader,
    changes: Readonly<Record<string, unknown>>,
  ): Record<string, unknown> {
    const keys = this.visibleKeys(subject, reader);
    const shown: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changes))
      if (keys.has(key)) shown[key] = subject.files?.has(key) ? fileChange(value) : value;
    return shown;
  }

  /**
   * Who wrote, as a reader may see it: users are readable by signed-in readers only (as related
   * users are in every response), so a caller without a token learns that a user wrote, not who
   * (`{ hash: null, name: null }`); null stays the mark of seeds and scripts.
   */
  actor(reader: Reader, actor: Actor | { hash: string; name: string | null } | null) {
    if (actor === null) return null;
    if (reader.kind === "caller" && reader.user === undefined) return { hash: null, name: null };
    return actor;
  }

  /**
   * The events of one record as a webhook's role or the system reads them: the record is read once
   * (trashed ones too, so that access is decided on them), then each event's view is made from it.
   * A view is null when the reader gets nothing of the event: a resource it may not show, a record
   * outside its reach or refused by the policy. A role gets the record as its show would (null once
   * trashed or gone), the system every field it outputs (null once gone).
   */
  async viewer(
    reader: Exclude<Reader, { kind: "caller" }>,
    hash: string,
  ): Promise<(changes: Readonly<Record<string, unknown>>) => EventView | null> {
    const subject = this.subjectOf(hash);
    const nothing = () => null;
    if (subject === undefined) return nothing;
    const tenanted = this.tenancy !== undefined && subject.table.tenantColumn !== undefined;
    if (reader.kind === "role") {
      if (!this.roleMayRead(subject, reader.role)) return nothing;
      // A webhook limited to tenants hears their records only, none of the platform's.
      if (reader.tenants && !tenanted) return nothing;
      reader = { ...reader, role: this.roleIn(subject, reader.role) };
    }
    const row = (await this.tableOf(subject.table).findOne({ hash })) as StoredRow | null;
    if (row === null) {
      // Gone: nothing is left for a policy that decides per record (or a tenant) to look at.
      if (reader.kind === "role" && reader.tenants) return nothing;
      const blind = reader.kind === "role" && (subject.decidesPerRecord || tenanted);
      const gone = reader;
      return (changes) => ({
        record: null,
        changes: blind ? {} : this.changes(subject, gone, changes),
      });
    }
    if (reader.kind === "system" && tenanted && reader.tenant != null)
      if (tenantOfRow(subject.table, row) !== reader.tenant) return nothing;
    if (reader.kind === "role") {
      const tenant = tenanted ? tenantOfRow(subject.table, row) : null;
      if (reader.tenants && !(await this.tenantIds(subject, reader.tenants)).has(tenant ?? -1))
        return nothing;
      if (!(await this.roleReaches(subject, reader.role, row, tenant))) return nothing;
    }
    const seen = reader;
    const trashed =
      subject.table.softDelete && (row as { deleted_at?: unknown }).deleted_at != null;
    const record =
      trashed && reader.kind === "role" ? null : subject.serialize(row, [], viewerOf(reader));
    const tenant = tenanted ? { tenant: await this.tenantHash(subject, row) } : {};
    return (changes) => ({ record, changes: this.changes(subject, seen, changes), ...tenant });
  }

  /** The role a webhook reads a subject's records as: a bypass role reads a tenant's as its first role. */
  private roleIn(subject: ExitSubject, role: string): string {
    const tenancy = this.tenancy;
    if (!tenancy || subject.table.tenantColumn === undefined) return role;
    return tenancy.bypass.includes(role) ? tenancy.roles[0]! : role;
  }

  /** The public id of a tenanted record's tenant. */
  private tenantHash(subject: ExitSubject, row: StoredRow): Promise<string | null> {
    if (subject.table.tenantColumn === "id") return Promise.resolve(String(row.hash));
    const id = tenantOfRow(subject.table, row);
    if (id === null) return Promise.resolve(null);
    return readOnce(this.tenantHashCache, id, () => {
      const sql = this.tableOf(subject.table).sql;
      const text = `SELECT "hash" FROM ${quote(this.tenancy!.table)} WHERE "id" = ${sql.dialect.placeholder(1)}`;
      return sql.get(text, [id]).then((found) => (found ? String(found.hash) : null));
    });
  }

  /** The ids of the tenants a webhook is limited to (an unknown public id is no tenant). */
  private tenantIds(subject: ExitSubject, hashes: readonly string[]): Promise<ReadonlySet<number>> {
    return readOnce(this.tenantIdCache, hashes.join(","), () => {
      const sql = this.tableOf(subject.table).sql;
      const list = hashes.map((_hash, index) => sql.dialect.placeholder(index + 1)).join(", ");
      const text = `SELECT "id" FROM ${quote(this.tenancy!.table)} WHERE "hash" IN (${list || "NULL"})`;
      return sql.all(text, hashes).then((rows) => new Set(rows.map((row) => Number(row.id))));
    });
  }

  /** One event as a webhook's role or the system reads it (see viewer). */
  async view(
    reader: Exclude<Reader, { kind: "caller" }>,
    event: { readonly hash: string; readonly changes: Readonly<Record<string, unknown>> },
  ): Promise<EventView | null> {
    return (await this.viewer(reader, event.hash))(event.changes);
  }

  /** Whether a role's user (who owns nothing) reaches `row` and its policy lets it show it. */
  private async roleReaches(
    subject: ExitSubject,
    role: string,
    row: StoredRow,
    tenant: number | null,
  ): Promise<boolean> {
    const user = roleUser(role, tenant);
    const scope = subject.reader.scope?.(user);
    if (scope !== undefined) {
      const reached = await this.tableOf(subject.table).findOne({ hash: String(row.hash) }, [], {
        scope,
      });
      if (reached === null) return false;
    }
    return (await subject.reader.mayShow?.(user, row)) ?? true;
  }

  /** The user a reader stands for, for the checks of a route that serves it. */
  static userOf = userOf;
}

/**
 * What `read` gives for `key`, read once and kept in `cache` (tenants' ids and public ids never
 * change); a read that failed (the database away) is not kept, so the next asks again.
 */
function readOnce<Key, Value>(
  cache: Map<Key, Promise<Value>>,
  key: Key,
  read: () => Promise<Value>,
): Promise<Value> {
  let value = cache.get(key);
  if (value === undefined) {
    value = read().catch((error: unknown) => {
      cache.delete(key);
      throw error;
    });
    cache.set(key, value);
  }
  return value;
}

/** A file field's change, `[before, after]`, as metadata only (exits show no key or URL). */
function fileChange(change: unknown): unknown {
  const metadata = (value: unknown) =>
    isRecord(value) ? fileMetadata(value as unknown as StoredFile) : null;
  return Array.isArray(change) ? change.map(metadata) : metadata(change);
}

/** Whether a viewer may see the related records a link event names. */
function mayListLinks(links: ExitLinks, viewer: Viewer): boolean {
  if (viewer === everyField) return true;
  if (viewer === undefined) return links.listPublic && links.narrowed === false;
  if (links.listRoles !== undefined && !links.listRoles.includes(viewer)) return false;
  return links.narrowed === false || links.narrowed.bypass.includes(viewer);
}

/**
 * The gate as deliveries ask it (events/attempts.ts): a webhook reads as its `as:` role, a
 * handler as the service itself.
 */
export function eventReaders(gate: ExitGate): EventReaders {
  const readerOf = (receiver: object): Exclude<Reader, { kind: "caller" }> => {
    if (!("as" in receiver) || typeof receiver.as !== "string") return systemReader;
    const tenants = "tenants" in receiver ? (receiver.tenants as readonly string[]) : undefined;
    return { kind: "role", role: receiver.as, ...(tenants ? { tenants } : {}) };
  };
  return {
    mayHear(receiver, hash) {
      const subject = gate.subjectOf(hash);
      if (subject === undefined) return false;
      return !("as" in receiver) || gate.roleMayRead(subject, receiver.as);
    },
    viewer: (receiver, hash) => gate.viewer(readerOf(receiver), hash),
    read: async (hash, tenant) => {
      const reader = tenant == null ? systemReader : { kind: "system" as const, tenant };
      return (await gate.view(reader, { hash, changes: {} }))?.record ?? null;
    },
  };
}
