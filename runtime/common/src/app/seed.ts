// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { parseArgs } from "node:util";
import type { AnyResource } from "../resource/descriptor.js";
import { completedForService, serverSetValues } from "../resource/server-set.js";
import { ResourceService, type AnyService } from "../resource/service.js";
import { connectDatabase, explainOpenFailure, type Database } from "../db/database.js";
import { Conflict, describeFieldErrors, ValidationFailed } from "../base/errors.js";
import { recordEventsAs } from "../data/outbox.js";
import { examplePayload, isRelationKey, uniqueRoom, type PayloadSchema } from "../base/examples.js";
import { migrationsPath, pendingMigrations } from "../db/migrations.js";
import { settingSource } from "../base/project-files.js";
import {
  columnsOf,
  relationOfKind,
  relationsOfKind,
  Table,
  type AnyTable,
  type StoredRow,
  type TableSpec,
} from "../data/table.js";
import { listOf, messageOf, propertyOf } from "../base/records.js";

/** A resource as the seeder needs it: its descriptor and its create rules (from its .resource.json). */
export interface Seedable {
  resource: AnyResource;
  rules: PayloadSchema;
  /** Its unique fields (the declaration's `unique`): those never get repeating lifelike text. */
  unique?: Readonly<Record<string, unknown>>;
}

export interface SeedOptions {
  /** Records per resource. */
  count: number;
  /** Decides every value: the same seed on the same database gives the same records. */
  seed: number;
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
function parentsFirst(seedables: readonly Seedable[]): Seedable[] {
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
): Promise<number> {
  const seed = resource.seed;
  if (!seed) return 0;
  const kind = columnsOf(resource.table)[seed.by];
  for (const [index, row] of seed.rows.entries()) {
    const value = row[seed.by];
    const key = kind === "date" || kind === "datetime" ? new Date(String(value)) : value;
    const [existing] = await table.findMany({
      where: { [seed.by]: key } as never,
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
      else await service.create(serverSet(resource.validate.create({ ...row }), true));
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

/**
 * Fills the database with `count` records of every resource, through the resources' own services
 * and create rules, as the API would: parents before children, each child pointing at a parent
 * chosen at random (so a parent gets many), one in ten records of a soft-delete resource deleted
 * (where nothing restricts it). Deterministic for a seed and a database state; running it again
 * adds records (its numbers continue after the rows already there), and a unique value already
 * taken is drawn again, so it never fails on one.
 */
export async function seedDatabase(
  db: Database,
  seedables: readonly Seedable[],
  options: SeedOptions,
): Promise<SeedReport[]> {
  const tables = new Map<TableSpec, AnyTable>();
  const tableOf = (spec: TableSpec) => {
    let table = tables.get(spec);
    if (!table) tables.set(spec, (table = new Table(db, spec)));
    return table;
  };
  const reports: SeedReport[] = [];
  for (const seedable of parentsFirst(seedables)) {
    const { resource } = seedable;
    const table = tableOf(resource.table);
    const service = new ResourceService(resource, table, tableOf);
    const report: SeedReport = {
      table: resource.table.name,
      upserted: 0,
      created: 0,
      softDeleted: 0,
    };
    reports.push(report);
    // Counted before the fixed rows: the numbers drawn depend on the rows there before this run.
    const existing = await table.count({ withTrashed: true });
    const { parents, skipped } = await parentPools(seedable, tableOf);
    report.upserted = await upsertFixedRows(resource, service, table);
    if (skipped) {
      report.skipped = skipped;
      continue;
    }
    // A unique field of few values leaves room for that many records, not `count`.
    const room = uniqueRoom(seedable.rules, seedable.unique ?? {});
    const count = room
      ? Math.min(options.count, Math.max(0, room.values - existing))
      : options.count;
    const sized = { ...options, count };
    const created = await createRecords(
      seedable,
      service,
      parents,
      existing,
      sized,
      room !== undefined,
    );
    report.created = created.length;
    if (room && created.length < options.count)
      report.limited = `${room.field} is unique and its rules allow ${room.values} values`;
    if (resource.table.softDelete) report.softDeleted = await softDeleteSome(service, created);
  }
  return reports;
}

/**
 * The hashes each belongsTo payload key may point at (the newest live parents), and why the
 * resource is skipped when a relation it must fill has no parent at all.
 */
async function parentPools(
  { resource, rules }: Seedable,
  tableOf: (spec: TableSpec) => AnyTable,
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
    const rows = await tableOf(relation.target()).findMany({
      orderBy: [{ id: "desc" }],
      limit: parentPool,
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
        created.push(
          await service.create(completedForService(resource, validated, given, undefined)),
        );
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

/** Whether no resource has a row yet, soft-deleted ones included. */
async function allEmpty(db: Database, seedables: readonly Seedable[]): Promise<boolean> {
  for (const { resource } of seedables)
    if ((await new Table(db, resource.table).count({ withTrashed: true })) > 0) return false;
  return true;
}

const usage = "usage: npm run db:seed -- [--count 20] [--seed 1] [--if-empty]";

/** `npm run db:seed`: its arguments, the database, and a line per table. Resolves to the exit code. */
export async function runSeedCommand(
  args: readonly string[],
  databaseUrl: string,
  fromEnvFile: ReadonlySet<string>,
  moduleUrl: string,
  seedables: readonly Seedable[],
): Promise<number> {
  // Seeds are not traffic: receivers skip what they write unless they ask for seeds.
  recordEventsAs("seed");
  const parsed = seedArguments(args);
  if (typeof parsed === "string") {
    process.stderr.write(`${parsed}\n${usage}\n`);
    return 2;
  }
  const { options, ifEmpty } = parsed;
  let db: Database;
  try {
    db = await connectDatabase(databaseUrl, 1);
  } catch (error) {
    const source = settingSource("DATABASE_URL", fromEnvFile);
    process.stderr.write(`${explainOpenFailure(databaseUrl, source, error)}\n`);
    return 1;
  }
  try {
    const pending = await pendingMigrations(db, migrationsPath(moduleUrl));
    if (pending.length > 0) {
      process.stderr.write(
        `The database lacks ${pending.join(", ")}: run \`npm run db:migrate\` first.\n`,
      );
      return 1;
    }
    if (ifEmpty && !(await allEmpty(db, seedables))) {
      process.stdout.write("The database holds records already: nothing seeded (--if-empty).\n");
      return 0;
    }
    let reports: SeedReport[];
    try {
      reports = await seedDatabase(db, seedables, options);
    } catch (error) {
      if (!(error instanceof SeedRowRefused)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    for (const report of reports) process.stdout.write(`${reportLine(report)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

/** `--count`, `--seed` and `--if-empty`, or what is wrong with them. */
function seedArguments(
  args: readonly string[],
): { options: SeedOptions; ifEmpty: boolean } | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        count: { type: "string" },
        seed: { type: "string" },
        "if-empty": { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    return messageOf(error);
  }
  const options = { count: Number(values.count ?? 20), seed: Number(values.seed ?? 1) };
  if (!Number.isInteger(options.count) || options.count < 1 || options.count > 10_000)
    return "--count must be a whole number from 1 to 10000";
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 1_000_000)
    return "--seed must be a whole number from 0 to 1000000";
  return { options, ifEmpty: values["if-empty"] === true };
}

/** What was seeded in one table, as `npm run db:seed` prints it. */
function reportLine(report: SeedReport): string {
  const fixed = report.upserted > 0 ? `${report.upserted} fixed rows upserted, ` : "";
  const deleted = report.softDeleted > 0 ? ` (${report.softDeleted} of them soft-deleted)` : "";
  const limited = report.limited ? `, not more: ${report.limited}` : "";
  return report.skipped
    ? `${report.table}: ${fixed}none (${report.skipped})`
    : `${report.table}: ${fixed}${report.created} created${deleted}${limited}`;
}
