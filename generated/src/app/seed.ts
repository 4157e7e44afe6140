// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { parseArgs } from "node:util";
import { connectDatabase, explainOpenFailure, type Database } from "../db/database.js";
import { recordEventsAs } from "../data/outbox.js";
import { migrationsPath, pendingMigrations } from "../db/migrations.js";
import { settingSource } from "../base/project-files.js";
import { Table, type AnyTable, type TableSpec } from "../data/table.js";
import { messageOf } from "../base/records.js";
import { tenantColumnOf } from "../resource/tenancy.js";
import {
  parentsFirst,
  seedResource,
  SeedRowRefused,
  type Seedable,
  type SeedOptions,
  type SeedReport,
} from "./seed-records.js";

export { SeedRowRefused, type Seedable, type SeedOptions, type SeedReport };

/**
 * Fills the database with `count` records of every resource, through the resources' own services
 * and create rules, as the API would: parents before children, each child pointing at a parent
 * chosen at random (so a parent gets many), one in ten records of a soft-delete resource deleted
 * (where nothing restricts it). With tenancy, `tenants` tenants are made and each gets `count`
 * records of every tenanted resource, pointing at its own records only; global resources are
 * seeded once. Deterministic for a seed and a database state; running it again adds records (its
 * numbers continue after the rows already there), and a unique value already taken is drawn again,
 * so it never fails on one.
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
  const column = (seedable: Seedable) => tenantColumnOf(seedable.resource.tenant);
  const tenantsOf = seedables.find((seedable) => column(seedable) === "id");
  const reports = new Map<string, SeedReport>();
  const add = ({ rows: _rows, ...report }: SeedReport & { rows: unknown[] }) => {
    const sum = reports.get(report.table);
    if (!sum) return void reports.set(report.table, report);
    for (const key of ["upserted", "created", "softDeleted"] as const) sum[key] += report[key];
    sum.skipped ??= report.skipped;
    sum.limited ??= report.limited;
  };
  for (const seedable of parentsFirst(seedables.filter((item) => column(item) === undefined)))
    add(await seedResource(seedable, tableOf, options));
  if (tenantsOf === undefined) return [...reports.values()];
  const made = await seedResource(tenantsOf, tableOf, { ...options, count: options.tenants ?? 2 });
  add(made);
  const members = parentsFirst(
    seedables.filter((item) => ![undefined, "id"].includes(column(item))),
  );
  for (const tenant of made.rows)
    for (const seedable of members)
      add(
        await seedResource(seedable, tableOf, options, {
          id: tenant.id,
          column: column(seedable)!,
        }),
      );
  return [...reports.values()];
}

/** Whether no resource has a row yet, soft-deleted ones included. */
async function allEmpty(db: Database, seedables: readonly Seedable[]): Promise<boolean> {
  for (const { resource } of seedables)
    if ((await new Table(db, resource.table).count({ withTrashed: true })) > 0) return false;
  return true;
}

const usage = "usage: npm run db:seed -- [--count 20] [--seed 1] [--tenants 2] [--if-empty]";

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
        tenants: { type: "string" },
        "if-empty": { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    return messageOf(error);
  }
  const options = {
    count: Number(values.count ?? 20),
    seed: Number(values.seed ?? 1),
    tenants: Number(values.tenants ?? 2),
  };
  if (!Number.isInteger(options.count) || options.count < 1 || options.count > 10_000)
    return "--count must be a whole number from 1 to 10000";
  if (!Number.isInteger(options.seed) || options.seed < 0 || options.seed > 1_000_000)
    return "--seed must be a whole number from 0 to 1000000";
  if (!Number.isInteger(options.tenants) || options.tenants < 1 || options.tenants > 1_000)
    return "--tenants must be a whole number from 1 to 1000";
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
