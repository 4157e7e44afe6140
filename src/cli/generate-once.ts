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
import { dependencyChanges, dependencyNotice, packageJsonOnDisk } from "./dependencies.js";
import { asJson } from "./json-output.js";
import { nextSteps } from "./next-steps.js";
import { outputDir } from "./output-dir.js";
import { notice, step, styleFor } from "./style.js";

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
  /** With --check or --dry-run: one JSON document on stdout instead of prose (asJson). */
  json?: boolean;
  /** Write the code only, and say when the schema is ahead of the migrations (--watch). */
  noMigration?: boolean;
}

/** One `hashapi generate`: write (or check, or preview) the project and its next migration. */
export async function generateOnce(specsDir: string, flags: GenerateFlags): Promise<ExitCode> {
  if (flags.json) {
    const result = (): Promise<{ exitCode: ExitCode; json: object }> => (flags.check ? checkResult : dryRunResult)(specsDir, flags);
    return asJson(result, ({ exitCode, json }) => ({ ...json, exitCode }));
  }
  if (flags.check) return sayCheck(specsDir, await checkResult(specsDir, flags));
  if (flags.dryRun) return sayDryRun(await dryRunResult(specsDir, flags), flags);
  return write(specsDir, flags);
}

/** What every mode starts from: the model, where its project is, and the migrations written so far. */
async function prepare(specsDir: string, flags: GenerateFlags) {
  const model = await loadModel(specsDir, notice);
  const out = outputDir(specsDir, flags.out, model.out);
  const history = await readMigrationHistory(out);
  assertSameProvider(history, model.database.provider);
  const schema = prismaSchemaFile(model).content;
  // Files read from `out` while formatting, not read again by the check or the write.
  const reads = new Map<string, string>();
  // Prisma's diff (a second process, ≈ 1.5 s) runs while this one renders and formats.
  const planNext = (acceptDataLoss: boolean) => {
    const plan = planMigration({ history, schema, provider: model.database.provider, label: flags.migrationName, source: model.source, evolution: model.evolution, acceptDataLoss });
    plan.catch(() => undefined); // awaited later; meanwhile a failure must not be "unhandled"
    return plan;
  };
  const render = () => step("rendering and formatting the project", renderModel(model, { previousOutput: out, reads }));
  return { model, out, history, schema, reads, planNext, render };
}

/** `--check`: drift of the files, and whether the schema is ahead of the migrations (and how risky). */
async function checkResult(specsDir: string, flags: GenerateFlags) {
  const { model, out, history, schema, reads, render } = await prepare(specsDir, flags);
  const report = await checkOutput(out, await render(), reads);
  const migrationPending = schemaAheadOfMigrations(history, schema);
  const risky = migrationPending ? assessMigration(history.latestSnapshot, schema, model.database.provider, model.evolution).assessment.risky : [];
  const upToDate = isClean(report) && !migrationPending;
  const { missing, orphaned, orphanedUser } = report;
  const changed = report.changed.map((change) => change.path);
  return { out, report, migrationPending, risky, exitCode: (upToDate ? 0 : 1) as ExitCode, json: { upToDate, out, missing, changed, orphaned, orphanedUser, migrationPending, risky } };
}

function sayCheck(specsDir: string, { out, report, migrationPending, risky, exitCode }: Awaited<ReturnType<typeof checkResult>>): ExitCode {
  if (exitCode === 0) {
    process.stdout.write(`${out} is up to date with ${specsDir}.\n`);
    return 0;
  }
  if (!isClean(report)) process.stdout.write(formatDriftReport(report));
  if (migrationPending) {
    process.stdout.write("stale     prisma/schema.prisma has changes that no migration covers; run `hashapi generate` to write one\n");
    if (risky.length > 0) process.stdout.write(`That migration would change stored rows (it needs --accept-data-loss):\n${describeRiskyChanges(risky)}\n`);
  }
  return 1;
}

/** `--dry-run`: what writing would change, and the migration it would write (planned as if consent were given). */
async function dryRunResult(specsDir: string, flags: GenerateFlags) {
  const { out, reads, planNext, render } = await prepare(specsDir, flags);
  const migration = planNext(true);
  const map = await render();
  const plan = await step("computing the migration (prisma migrate diff)", migration);
  const changes = await previewOutput(out, createFileMap([...map.values(), ...plan.files]), { force: flags.force ?? false, reads });
  const file = plan.files.find((candidate) => candidate.path.endsWith("/migration.sql"));
  const dependenciesChanged = dependencyChanges(packageJsonOnDisk(out), map.get("package.json")?.content ?? "");
  const json = {
    dryRun: true,
    out,
    dependenciesChanged,
    changes: changes.filter((change) => change.kind !== "unchanged").map(({ kind, path }) => ({ kind, path })),
    migration: file ? { path: file.path, sql: plan.sql, risky: plan.risky, refusedWithoutConsent: plan.risky.length > 0 && !flags.acceptDataLoss } : null,
  };
  return { changes, plan, dependenciesChanged, out, exitCode: 0 as ExitCode, json };
}

function sayDryRun({ changes, plan, dependenciesChanged, out }: Awaited<ReturnType<typeof dryRunResult>>, flags: GenerateFlags): ExitCode {
  process.stdout.write("Dry run: nothing is written.\n");
  process.stdout.write(formatChangeSet(changes, { paint }));
  process.stdout.write(describeMigration(plan, flags.acceptDataLoss === true));
  process.stdout.write(dependencyNotice(out, dependenciesChanged));
  return 0;
}

/** The real run: writes what changed and the next migration (none with --watch after its first run). */
async function write(specsDir: string, flags: GenerateFlags): Promise<ExitCode> {
  const { out, history, schema, reads, planNext, render } = await prepare(specsDir, flags);
  const migration = flags.noMigration ? Promise.resolve(null) : planNext(flags.acceptDataLoss === true);
  const map = await render();
  const plan = await step("computing the migration (prisma migrate diff)", migration);
  const full: FileMap = createFileMap([...map.values(), ...(plan?.files ?? [])]);
  const packageBefore = packageJsonOnDisk(out);
  const changes = await writeOutput(out, full, { force: flags.force ?? false, reads, pruneCustom: flags.pruneCustom ?? false });
  process.stdout.write(formatChangeSet(changes, { onlyChanges: true, paint }));
  if (plan && plan.risky.length > 0)
    process.stdout.write(`The new migration changes stored rows (--accept-data-loss):\n${describeRiskyChanges(plan.risky)}\n`);
  process.stdout.write(nextSteps(out, changes, plan));
  process.stdout.write(dependencyNotice(out, dependencyChanges(packageBefore, full.get("package.json")?.content ?? "")));
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
