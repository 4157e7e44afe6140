import { resolve } from "node:path";
import { readMigrationHistory } from "../migrate/history.js";
import { assertSameProvider, assessMigration, planMigration, schemaAheadOfMigrations, type MigrationPlan } from "../migrate/plan.js";
import { describeRiskyChanges } from "../migrate/refusals.js";
import {
  checkOutput,
  createFileMap,
  formatChangeSet,
  formatDriftReport,
  isClean,
  previewOutput,
  writeOutput,
  type ChangeKind,
  type FileMap,
} from "../output/index.js";
import { prismaSchemaFile } from "../emit/index.js";
import { loadModel, renderModel } from "../pipeline/generate.js";
import type { ExitCode } from "./main.js";
import { asJson } from "./json-output.js";
import { nextSteps } from "./next-steps.js";
import { notice, outputDir } from "./output-dir.js";
import { step, styleFor } from "./style.js";

const style = styleFor(process.stdout);
const paint = (kind: ChangeKind, label: string) =>
  kind === "create" ? style.green(label) : kind === "update" ? style.yellow(label) : kind === "delete" || kind === "orphan-user" ? style.red(label) : style.dim(label);

export interface GenerateFlags {
  out?: string;
  typecheck?: boolean;
  check?: boolean;
  dryRun?: boolean;
  migrationName?: string;
  force?: boolean;
  acceptDataLoss?: boolean;
  pruneCustom?: boolean;
  watch?: boolean;
  /** With --check or --dry-run: one JSON document on stdout instead of prose. */
  json?: boolean;
  /** Write the code only, and say when the schema is ahead of the migrations (--watch). */
  noMigration?: boolean;
}

/** One `hashapi generate`: write (or check, or preview) the project and its next migration. */
export async function generateOnce(specsDir: string, flags: GenerateFlags): Promise<ExitCode> {
  if (flags.json) return asJson(() => generateReport(specsDir, flags), (report) => ({ ...report.document, exitCode: report.exitCode }));
  return generateAndSay(specsDir, flags);
}

/** `--check` and `--dry-run` as data (see `--json`). */
async function generateReport(specsDir: string, flags: GenerateFlags): Promise<{ exitCode: ExitCode; document: object }> {
  const model = await loadModel(specsDir, notice);
  const out = outputDir(specsDir, flags.out, model.out);
  const history = await readMigrationHistory(out);
  assertSameProvider(history, model.database.provider);
  const schema = prismaSchemaFile(model).content;
  const reads = new Map<string, string>();
  if (flags.check) {
    const map = await renderModel(model, { previousOutput: out, reads });
    const report = await checkOutput(out, map, reads);
    const migrationPending = schemaAheadOfMigrations(history, schema);
    const { assessment } = assessMigration(history.latestSnapshot, schema, model.database.provider, model.evolution);
    const upToDate = isClean(report) && !migrationPending;
    const { missing, orphaned, orphanedUser } = report;
    const changed = report.changed.map((change) => change.path);
    return { exitCode: upToDate ? 0 : 1, document: { upToDate, out, missing, changed, orphaned, orphanedUser, migrationPending, risky: migrationPending ? assessment.risky : [] } };
  }
  const [map, plan] = await Promise.all([
    renderModel(model, { previousOutput: out, reads }),
    planMigration({ history, schema, provider: model.database.provider, label: flags.migrationName, source: model.source, evolution: model.evolution, acceptDataLoss: true }),
  ]);
  const changes = await previewOutput(out, createFileMap([...map.values(), ...plan.files]), { force: flags.force ?? false, reads });
  const migration = plan.files.find((file) => file.path.endsWith("/migration.sql"));
  return {
    exitCode: 0,
    document: {
      dryRun: true,
      out,
      changes: changes.filter((change) => change.kind !== "unchanged").map(({ kind, path }) => ({ kind, path })),
      migration: migration ? { path: migration.path, sql: plan.sql, risky: plan.risky, refusedWithoutConsent: plan.risky.length > 0 && !flags.acceptDataLoss } : null,
    },
  };
}

async function generateAndSay(specsDir: string, flags: GenerateFlags): Promise<ExitCode> {
  const model = await loadModel(specsDir, notice);
  const out = outputDir(specsDir, flags.out, model.out);
  const history = await readMigrationHistory(out);
  assertSameProvider(history, model.database.provider);
  const schema = prismaSchemaFile(model).content;
  // Prisma's diff (a second process, ≈ 1.5 s) runs while this one renders and formats. A dry run
  // plans as if consent were given, to show the SQL beside the list of what it would change.
  const migration: Promise<MigrationPlan | null> = flags.check || flags.noMigration
    ? Promise.resolve(null)
    : planMigration({
        history,
        schema,
        provider: model.database.provider,
        label: flags.migrationName,
        source: model.source,
        evolution: model.evolution,
        acceptDataLoss: flags.acceptDataLoss === true || flags.dryRun === true,
      });
  migration.catch(() => undefined); // awaited below; meanwhile a failure must not be "unhandled"
  const reads = new Map<string, string>();
  const map = await step("rendering and formatting the project", renderModel(model, { previousOutput: out, reads }));

  if (flags.check) {
    const report = await checkOutput(out, map, reads);
    const migrationsStale = schemaAheadOfMigrations(history, schema);
    if (isClean(report) && !migrationsStale) {
      process.stdout.write(`${out} is up to date with ${specsDir}.\n`);
      return 0;
    }
    if (!isClean(report)) process.stdout.write(formatDriftReport(report));
    if (migrationsStale) {
      process.stdout.write(
        "stale     prisma/schema.prisma has changes that no migration covers; run `hashapi generate` to write one\n",
      );
      const { assessment } = assessMigration(history.latestSnapshot, schema, model.database.provider, model.evolution);
      if (assessment.risky.length > 0)
        process.stdout.write(`That migration would change stored rows (it needs --accept-data-loss):\n${describeRiskyChanges(assessment.risky)}\n`);
    }
    return 1;
  }

  const plan = await step("computing the migration (prisma migrate diff)", migration);
  const full: FileMap = createFileMap([...map.values(), ...(plan?.files ?? [])]);
  if (flags.dryRun) {
    process.stdout.write("Dry run: nothing is written.\n");
    process.stdout.write(formatChangeSet(await previewOutput(out, full, { force: flags.force ?? false, reads }), { paint }));
    if (plan) process.stdout.write(describeMigration(plan, flags.acceptDataLoss === true));
    return 0;
  }
  const changes = await writeOutput(out, full, { force: flags.force ?? false, reads, pruneCustom: flags.pruneCustom ?? false });
  process.stdout.write(formatChangeSet(changes, { onlyChanges: true, paint }));
  if (plan && plan.risky.length > 0)
    process.stdout.write(`The new migration changes stored rows (--accept-data-loss):\n${describeRiskyChanges(plan.risky)}\n`);
  process.stdout.write(nextSteps(out, changes, plan));
  if (flags.noMigration && schemaAheadOfMigrations(history, schema))
    process.stdout.write("The schema changed: `hashapi generate` (without --watch) writes its migration once you are done editing.\n");
  if (flags.typecheck) {
    // Loaded only here: ts-morph alone costs every other command 0.4 s of start-up.
    const { describeTypeProblems, typecheckOutput } = await import("../typecheck/run.js");
    const problems = await typecheckOutput(resolve(out), map);
    if (problems.length > 0) {
      process.stderr.write(describeTypeProblems(problems));
      return 1;
    }
    process.stdout.write("Type check passed.\n");
  }
  return 0;

}

/** The migration a dry run would write: what it does to stored rows, then its SQL. */
function describeMigration(plan: MigrationPlan, consented: boolean): string {
  const file = plan.files.find((candidate) => candidate.path.endsWith("/migration.sql"));
  if (!file) return "No migration: the migrations already cover the schema.\n";
  const lines: string[] = [];
  if (plan.risky.length > 0)
    lines.push(
      `This migration would change stored rows${consented ? "" : "; generate refuses to write it without --accept-data-loss"}:`,
      describeRiskyChanges(plan.risky),
    );
  lines.push(`SQL of ${file.path}:`, plan.sql.trimEnd(), "");
  return `${lines.join("\n")}\n`;
}
