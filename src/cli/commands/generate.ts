import { findSpecsDir } from "../specs-dir.js";
import { Option, type Command } from "commander";
import { UsageError } from "../../errors.js";
import { generateOnce, type GenerateFlags } from "../generate-once.js";
import type { ExitCode } from "../exit-code.js";
import { watchSpecs } from "../watch.js";

export function registerGenerate(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("generate")
    .description("Render the specs into a complete Express + Prisma project (and its next migration).")
    .argument("[specs]", "specs folder", "specs")
    .option("-o, --out <dir>", "output directory (default: out: in hashapi.yaml, else generated/)")
    .addOption(new Option("--check", "regenerate in memory and fail (exit 1) on any drift").conflicts("dryRun"))
    .option("--dry-run", "print what would change, write nothing")
    .option("--json", "with --check or --dry-run: one JSON document on stdout (for CI tools)")
    .option("--migration-name <label>", "label of the migration written when the schema changed", "update")
    .option("--force", "write into a non-empty directory that is not a hashapi output")
    .option("--accept-data-loss", "write a migration that drops, narrows or constrains columns or tables holding rows")
    .option("--prune-custom", "delete your src/custom/ files of resources whose spec was removed")
    .addOption(new Option("--watch", "regenerate on every spec change, with a migration for each saved schema change").conflicts(["check", "dryRun"]))
    .option("--typecheck", "type-check the result with your files in src/custom/ (needs the project's npm install)")
    .option("--verbose", "print each step's time (specs, rendering and formatting, the migration diff, writing) on stderr")
    .addHelpText(
      "after",
      `
Examples:
  $ hashapi generate                         # specs/ -> generated/
  $ hashapi generate specs --out api         # another output directory
  $ hashapi generate --dry-run               # list the changes, write nothing
  $ hashapi generate --check                 # CI: exit 1 when generated/ is stale
  $ hashapi generate --check --json          # the same, as { "upToDate": false, "changed": [...], ... }
  $ hashapi generate --migration-name add_phone
  $ hashapi generate --typecheck             # also report your overrides that a spec change broke
  $ hashapi generate --accept-data-loss      # after reading the list of rows a migration would lose
  $ hashapi generate --watch                 # beside npm run dev: a saved spec is served in about a second

Only files whose bytes change are written; files generated before and no longer generated are
deleted; user-owned files (src/custom/**) are created once and never touched again (those of a
removed resource make generate stop, naming them, until --prune-custom). A migration that would drop,
narrow or constrain stored data is refused with the list of what it would do, until
--accept-data-loss; renamedFrom: in a spec turns a drop + add into a rename.
Exit codes: 0 ok, 1 invalid specs or drift, 2 usage error.`,
    )
    .action(async (requested: string, flags: GenerateFlags) => {
      const specsDir = findSpecsDir(requested);
      if (flags.json && !flags.check && !flags.dryRun) throw new UsageError("--json goes with --check or --dry-run");
      // Every run is a plain generate: a saved schema change gets its migration, which `npm run dev` applies.
      if (flags.watch) return setExit(await watchSpecs(specsDir, () => generateOnce(specsDir, flags)));
      setExit(await generateOnce(specsDir, flags));
    });
}
