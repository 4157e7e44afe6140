import { resolve } from "node:path";
import { formatChangeSet, formatDriftReport, isClean, type ChangeKind } from "../output/index.js";
import { checkProject, describeRiskyChanges, previewProject, writeProject, type CheckResult, type MigrationPlan, type PreviewResult, type ProjectOptions } from "../pipeline/project.js";
import type { ExitCode } from "./exit-code.js";
import { dependencyNotice } from "./dependencies.js";
import { asJson } from "./json-output.js";
import { nextSteps } from "./next-steps.js";
import { notice, step, styleFor, timedStep } from "./style.js";

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
  /** Each step's time on stderr (`timedStep`), and the whole run's. */
  verbose?: boolean;
}

/** One `hashapi generate`: write (or check, or preview) the project and its next migration. */
export async function generateOnce(specsDir: string, flags: GenerateFlags): Promise<ExitCode> {
  if (!flags.verbose) return generateRun(specsDir, flags);
  return timedStep("generate, in all", generateRun(specsDir, flags));
}

async function generateRun(specsDir: string, flags: GenerateFlags): Promise<ExitCode> {
  const progress = flags.verbose ? timedStep : step;
  const options: ProjectOptions & { force?: boolean; pruneCustom?: boolean } = { ...flags, notice, progress };
  if (flags.json) {
    return asJson(
      async () => (flags.check ? checkJson(await checkProject(specsDir, options)) : previewJson(await previewProject(specsDir, options), flags)),
      (json) => json,
    );
  }
  if (flags.check) return sayCheck(specsDir, await checkProject(specsDir, options));
  if (flags.dryRun) return sayDryRun(await previewProject(specsDir, options), flags);
  return write(specsDir, options, flags);
}

const upToDate = (result: CheckResult) => isClean(result.report) && !result.migrationPending;

function checkJson(result: CheckResult) {
  const { out, report, migrationPending, risky } = result;
  const { missing, orphaned, orphanedUser } = report;
  const changed = report.changed.map((change) => change.path);
  return { upToDate: upToDate(result), out, missing, changed, orphaned, orphanedUser, migrationPending, risky, exitCode: (upToDate(result) ? 0 : 1) as ExitCode };
}

function sayCheck(specsDir: string, result: CheckResult): ExitCode {
  const { out, report, migrationPending, risky } = result;
  if (upToDate(result)) {
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

function previewJson({ out, changes, plan, dependenciesChanged }: PreviewResult, flags: GenerateFlags) {
  const file = plan.files.find((candidate) => candidate.path.endsWith("/migration.sql"));
  return {
    dryRun: true,
    out,
    dependenciesChanged,
    changes: changes.filter((change) => change.kind !== "unchanged").map(({ kind, path }) => ({ kind, path })),
    migration: file ? { path: file.path, sql: plan.sql, risky: plan.risky, refusedWithoutConsent: plan.risky.length > 0 && !flags.acceptDataLoss } : null,
    exitCode: 0 as ExitCode,
  };
}

function sayDryRun({ changes, plan, dependenciesChanged, out }: PreviewResult, flags: GenerateFlags): ExitCode {
  process.stdout.write("Dry run: nothing is written.\n");
  process.stdout.write(formatChangeSet(changes, { paint }));
  process.stdout.write(describeMigration(plan, flags.acceptDataLoss === true));
  process.stdout.write(dependencyNotice(out, dependenciesChanged));
  return 0;
}

/** The real run: writes what changed and the next migration, then says what to do next. */
async function write(specsDir: string, options: ProjectOptions & { force?: boolean; pruneCustom?: boolean }, flags: GenerateFlags): Promise<ExitCode> {
  // A type check needs the rendered files: never the record of a clean run instead (clean-record.ts).
  const { out, model, files, changes, plan, dependenciesChanged } = await writeProject(specsDir, { ...options, render: flags.typecheck === true });
  process.stdout.write(formatChangeSet(changes, { onlyChanges: true, paint }));
  if (plan.risky.length > 0) process.stdout.write(`The new migration changes stored rows (--accept-data-loss):\n${describeRiskyChanges(plan.risky)}\n`);
  process.stdout.write(nextSteps(out, changes, plan, model?.auth.declaresRoles ? model.auth.roles[0] : undefined));
  process.stdout.write(dependencyNotice(out, dependenciesChanged));
  if (flags.typecheck) {
    // Loaded only here: ts-morph alone costs every other command 0.4 s of start-up.
    const { describeTypeProblems, typecheckOutput } = await import("../typecheck/run.js");
    const problems = await typecheckOutput(resolve(out), files);
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
