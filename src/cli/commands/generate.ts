import { resolve } from "node:path";
import { Option, type Command } from "commander";
import { readMigrationHistory } from "../../migrate/history.js";
import { assertSameProvider, assessMigration, planMigration, schemaAheadOfMigrations, type MigrationPlan } from "../../migrate/plan.js";
import { describeRiskyChanges } from "../../migrate/refusals.js";
import {
  checkOutput,
  createFileMap,
  formatChangeSet,
  formatDriftReport,
  isClean,
  previewOutput,
  writeOutput,
  type FileMap,
} from "../../output/index.js";
import { prismaSchemaFile } from "../../emit/index.js";
import { loadModel, renderModel } from "../../pipeline/generate.js";
import { nextSteps } from "../next-steps.js";
import { notice, outputDir } from "../output-dir.js";
import type { ExitCode } from "../main.js";

interface GenerateFlags {
  out?: string;
  typecheck?: boolean;
  check?: boolean;
  dryRun?: boolean;
  migrationName?: string;
  force?: boolean;
  acceptDataLoss?: boolean;
  pruneCustom?: boolean;
}

export function registerGenerate(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("generate")
    .description("Render the specs into a complete Express + Prisma project (and its next migration).")
    .argument("[specs]", "specs folder", "specs")
    .option("-o, --out <dir>", "output directory (default: out: in hashapi.yaml, else generated/)")
    .addOption(new Option("--check", "regenerate in memory and fail (exit 1) on any drift").conflicts("dryRun"))
    .option("--dry-run", "print what would change, write nothing")
    .option("--migration-name <label>", "label of the migration written when the schema changed", "update")
    .option("--force", "write into a non-empty directory that is not a hashapi output")
    .option("--accept-data-loss", "write a migration that drops, narrows or constrains columns or tables holding rows")
    .option("--prune-custom", "delete your src/custom/ files of resources whose spec was removed")
    .option("--typecheck", "type-check the result with your files in src/custom/ (needs the project's npm install)")
    .addHelpText(
      "after",
      `
Examples:
  $ hashapi generate                         # specs/ -> generated/
  $ hashapi generate specs --out api         # another output directory
  $ hashapi generate --dry-run               # list the changes, write nothing
  $ hashapi generate --check                 # CI: exit 1 when generated/ is stale
  $ hashapi generate --migration-name add_phone
  $ hashapi generate --typecheck             # also report your overrides that a spec change broke
  $ hashapi generate --accept-data-loss      # after reading the list of rows a migration would lose

Only files whose bytes change are written; files generated before and no longer generated are
deleted; user-owned files (src/custom/**) are created once and never touched again (those of a
removed resource make generate stop, naming them, until --prune-custom). A migration that would drop,
narrow or constrain stored data is refused with the list of what it would do, until
--accept-data-loss; renamedFrom: in a spec turns a drop + add into a rename.
Exit codes: 0 ok, 1 invalid specs or drift, 2 usage error.`,
    )
    .action(async (specsDir: string, flags: GenerateFlags) => {
      const model = await loadModel(specsDir, notice);
      const out = outputDir(specsDir, flags.out, model.out);
      const history = await readMigrationHistory(out);
      assertSameProvider(history, model.database.provider);
      const schema = prismaSchemaFile(model).content;
      // Prisma's diff (a second process, ≈ 1.5 s) runs while this one renders and formats. A dry run
      // plans as if consent were given, to show the SQL beside the list of what it would change.
      const migration: Promise<MigrationPlan | null> = flags.check
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
      const map = await renderModel(model, { previousOutput: out, reads });

      if (flags.check) {
        const report = await checkOutput(out, map, reads);
        const migrationsStale = schemaAheadOfMigrations(history, schema);
        if (isClean(report) && !migrationsStale) {
          process.stdout.write(`${out} is up to date with ${specsDir}.\n`);
          return setExit(0);
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
        return setExit(1);
      }

      const plan = await migration;
      const full: FileMap = createFileMap([...map.values(), ...(plan?.files ?? [])]);
      if (flags.dryRun) {
        process.stdout.write("Dry run: nothing is written.\n");
        process.stdout.write(formatChangeSet(await previewOutput(out, full, { force: flags.force ?? false, reads })));
        if (plan) process.stdout.write(describeMigration(plan, flags.acceptDataLoss === true));
        return setExit(0);
      }
      const changes = await writeOutput(out, full, { force: flags.force ?? false, reads, pruneCustom: flags.pruneCustom ?? false });
      process.stdout.write(formatChangeSet(changes, { onlyChanges: true }));
      if (plan && plan.risky.length > 0)
        process.stdout.write(`The new migration changes stored rows (--accept-data-loss):\n${describeRiskyChanges(plan.risky)}\n`);
      process.stdout.write(nextSteps(out, changes, plan));
      if (flags.typecheck) {
        // Loaded only here: ts-morph alone costs every other command 0.4 s of start-up.
        const { describeTypeProblems, typecheckOutput } = await import("../../typecheck/run.js");
        const problems = await typecheckOutput(resolve(out), map);
        if (problems.length > 0) {
          process.stderr.write(describeTypeProblems(problems));
          return setExit(1);
        }
        process.stdout.write("Type check passed.\n");
      }
      setExit(0);
    });
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
