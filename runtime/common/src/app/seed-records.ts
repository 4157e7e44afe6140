// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AnyResource } from "../resource/descriptor.js";
import { completedForService, serverSetValues } from "../resource/server-set.js";
import { ResourceService, type AnyService, type WriteRules } from "../resource/service.js";
import { withinTenant } from "../resource/tenancy.js";
import { Conflict, describeFieldErrors, ValidationFailed } from "../base/errors.js";
import { examplePayload, isRelationKey, uniqueRoom, type PayloadSchema } from "../base/examples.js";
import {
  columnsOf,
  relationOfKind,
  relationsOfKind,
  type AnyTable,
  type StoredRow,
  type TableSpec,
} from "../data/table.js";
import { listOf, propertyOf } from "../base/records.js";

/*
 * How `npm run db:seed` makes the records of one resource (app/seed.ts runs it for every resource,
 * and with tenancy for every tenant): through the resource's own service and create rules.
 */

/** A resource as the seeder needs it: its descriptor and its create rules (from its .resource.json). */
export interface Seedable {
  resource: AnyResource;
  rules: PayloadSchema;
  /** Its unique fields (the declaration's `unique`): those never get repeating lifelike text. */
  unique?: Readonly<Record<string, unknown>>;
}

export interface SeedOptions {
  /** Records per resource (per tenant, for a tenant's resource). */
  count: number;
  /** Decides every value: the same seed on the same database gives the same records. */
  seed: number;
  /** With tenancy: the tenants made, each with `count` records of every tenanted resource. */
  tenants?: number;
}

/** With tenancy: the tenant records are seeded into (its id, and the column a record holds it in). */
export interface SeedTenant {
  readonly id: number;
  readonly column: string;
}

export interface SeedReport {
  table: string;
  /** The spec's fixed `seed:` rows, created or updated by their unique field. */
  upserted: number;
  created: number;
  softDeleted: number;
  /** Why nothing was created (a required relation with no record to point at). */
  skipped?: string;
  /** Why fewer were created than asked: a unique field whose rules allow only so many values. */
  limited?: string;
}

/** A small deterministic generator (mulberry32): the same seed, the same choices. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Parents before children: each resource after those its belongsTo relations point at. */
export function parentsFirst(seedables: readonly Seedable[]): Seedable[] {
  const ordered: Seedable[] = [];
  const placed = new Set<TableSpec>();
  const place = (item: Seedable, path: Set<TableSpec>) => {
    const spec = item.resource.table;
    if (placed.has(spec) || path.has(spec)) return;
    path.add(spec);
    for (const [, relation] of relationsOfKind(spec, "belongsTo")) {
      const parent = seedables.find((candidate) => candidate.resource.table === relation.target());
      if (parent) place(parent, path);
    }
    placed.add(spec);
    ordered.push(item);
  };
  for (const item of seedables) place(item, new Set());
  return ordered;
}

/** A `seed:` row of the specs that the resource's own rules refuse: which one, and why. */
export class SeedRowRefused extends Error {}

/**
 * The spec's fixed rows (`seed:`): each created, or updated when a record (even a soft-deleted one)
 * already has its unique value, through the resource's own create or update rules.
 */
async function upsertFixedRows(
  resource: AnyResource,
  service: AnyService,
  table: AnyTable,
  tenant?: SeedTenant,
): Promise<number> {
  const seed = resource.seed;
  if (!seed) return 0;
  const kind = columnsOf(resource.table)[seed.by];
  for (const [index, row] of seed.rows.entries()) {
    const value = row[seed.by];
    const key = kind === "date" || kind === "datetime" ? new Date(String(value)) : value;
    const [existing] = await table.findMany({
      where: { [seed.by]: key, ...(tenant ? { [tenant.column]: tenant.id } : {}) } as never,
      withTrashed: true,
      limit: 1,
    });
    // What the server sets (`set:` dates) is set here as a controller would set it: a fixed row
    // names only what its author wrote, and a required server-set date would otherwise be missing.
    const serverSet = <T extends object>(payload: T, creating: boolean) =>
      serverSetValues(resource.setByServer, resource.table.columns, payload, {
        creating,
        callerHash: undefined,
        now: new Date(),
      });
    try {
      if (existing)
        await service.update(existing, serverSet(resource.validate.update({ ...row }), false));
      else
        await service.create(
          serverSet(resource.validate.create({ ...row }), true),
          [],
          inTenant(tenant),
        );
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      const problems = describeFieldErrors(error.errors);
      throw new SeedRowRefused(
        `seed row ${index + 1} of ${resource.table.name} (${seed.by} ${JSON.stringify(value)}) was refused: ${problems.join("; ")}`,
      );
    }
  }
  return seed.rows.length;
}

// Attempts at one record before giving up on it (another value when a unique one was taken).
const attemptsPerRecord = 5;
// Parents a child may point at, per relation: the newest this many live records.
const parentPool = 1_000;

/** The rules of a seeded record's write: in its tenant (no member to hold: seeds are the service's own). */
function inTenant(tenant: SeedTenant | undefined): WriteRules {
  if (tenant === undefined) return {};
  const column = tenant.column === "id" ? {} : { column: tenant.column };
  return { tenant: { id: tenant.id, ...column, member: async () => {} } };
}

/**
 * Seeds one resource: its fixed rows, then `count` records pointing at parents drawn at random
 * (in `tenant`, for a tenant's resource), one in ten soft-deleted where it has soft delete.
 */
export async function seedResource(
  seedable: Seedable,
  tableOf: (spec: TableSpec) => AnyTable,
  options: SeedOptions,
  tenant?: SeedTenant,
): Promise<SeedReport & { rows: StoredRow[] }> {
  const { resource } = seedable;
  const table = tableOf(resource.table);
  const service = new ResourceService(resource, table, tableOf);
  const report = { table: resource.table.name, upserted: 0, created: 0, softDeleted: 0 };
  const scope = tenant ? withinTenant(tenant.column, tenant) : undefined;
  const existing = await table.count({ withTrashed: true, ...(scope ? { scope } : {}) });
  const { parents, skipped } = await parentPools(seedable, tableOf, tenant);
  report.upserted = await upsertFixedRows(resource, service, table, tenant);
  if (skipped) return { ...report, skipped, rows: [] };
  const room = uniqueRoom(seedable.rules, seedable.unique ?? {});
  const count = room ? Math.min(options.count, Math.max(0, room.values - existing)) : options.count;
  const sized = { ...options, count };
  const created = await createRecords(
    seedable,
    service,
    parents,
    existing,
    sized,
    room !== undefined,
    tenant,
  );
  const limited =
    room && created.length < options.count
      ? { limited: `${room.field} is unique and its rules allow ${room.values} values` }
      : {};
  const softDeleted = resource.table.softDelete ? await softDeleteSome(service, created) : 0;
  return { ...report, ...limited, created: created.length, softDeleted, rows: created };
}

/**
 * The hashes each belongsTo payload key may point at (the newest live parents), and why the
 * resource is skipped when a relation it must fill has no parent at all.
 */
async function parentPools(
  { resource, rules }: Seedable,
  tableOf: (spec: TableSpec) => AnyTable,
  tenant?: SeedTenant,
): Promise<{ parents: Record<string, string[]>; skipped?: string }> {
  // Relations a controller fills from the caller (a direct owner, `set:`) are optional in the create
  // rules, but the seed has no caller: it needs a user to point them at, like a required one.
  const required = new Set([
    ...listOf(propertyOf(rules.schema, "required")).map(String),
    ...Object.entries(resource.setByServer ?? {})
      .filter(([, set]) => set.from === "caller")
      .map(([key]) => key),
    ...(resource.owner?.payloadKey ? [resource.owner.payloadKey] : []),
  ]);
  const parents: Record<string, string[]> = {};
  let skipped: string | undefined;
  // The create rules' relation keys, and those the server fills even where the rules leave them out.
  const keys = new Set([
    ...Object.entries(rules.schema.properties ?? {})
      .filter(([, property]) => isRelationKey(property))
      .map(([key]) => key),
    ...required,
  ]);
  for (const key of keys) {
    const relation = relationOfKind(resource.table, key, "belongsTo");
    if (!relation) continue;
    // A tenant's record points at records of its own tenant only.
    const target = relation.target();
    const scope = tenant ? withinTenant(target.tenantColumn, tenant) : undefined;
    const rows = await tableOf(target).findMany({
      orderBy: [{ id: "desc" }],
      limit: parentPool,
      ...(scope ? { scope } : {}),
    });
    parents[key] = rows.map((row) => row.hash);
    if (parents[key]!.length === 0 && required.has(key))
      skipped = `no ${relation.target().name} to point ${key} at`;
  }
  return skipped === undefined ? { parents } : { parents, skipped };
}

/**
 * `options.count` records through the service's own create, each pointing at parents drawn at
 * random; numbers continue after the rows already there, and a unique value already taken is drawn
 * again (a retry jumps past this run's range; with `fewValues`, one whose every retry collides ends
 * the run: the field's values are spent).
 */
async function createRecords(
  { resource, rules, unique }: Seedable,
  service: AnyService,
  parents: Readonly<Record<string, string[]>>,
  existing: number,
  options: SeedOptions,
  /** A unique field of few values: once every attempt at a record collides, the room is full. */
  fewValues = false,
  tenant?: SeedTenant,
): Promise<StoredRow[]> {
  const pick = random(options.seed * 31 + existing);
  const created: StoredRow[] = [];
  for (let index = 0; index < options.count; index += 1) {
    for (let attempt = 0; attempt < attemptsPerRecord; attempt += 1) {
      const n = options.seed * 1_000_003 + existing + index + attempt * (options.count + 7_919);
      const payload: Record<string, unknown> = examplePayload(rules, n, unique ?? {});
      // Parents of relations the rules leave out (the server fills them) are given after validation.
      const filledByServer: Record<string, unknown> = {};
      for (const [key, hashes] of Object.entries(parents)) {
        if (hashes.length === 0) continue;
        const listed = Object.hasOwn(rules.schema.properties ?? {}, key);
        (listed ? payload : filledByServer)[key] = hashes[Math.floor(pick() * hashes.length)];
      }
      try {
        const validated = resource.validate.create(payload);
        const given = { ...payload, ...filledByServer };
        const completed = completedForService(resource, validated, given, undefined);
        created.push(await service.create(completed, [], inTenant(tenant)));
        break;
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        if (attempt < attemptsPerRecord - 1) continue;
        if (fewValues) return created;
        throw error;
      }
    }
  }
  return created;
}

/** Soft-deletes one in ten of `created` (where nothing restricts it): how many were. */
async function softDeleteSome(service: AnyService, created: readonly StoredRow[]): Promise<number> {
  let deleted = 0;
  for (const row of created.filter((_, index) => index % 10 === 9)) {
    try {
      await service.destroy(row);
      deleted += 1;
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
  }
  return deleted;
}
