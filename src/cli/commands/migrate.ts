import { findSpecsDir } from "../specs-dir.js";
import type { Command } from "commander";
import { writeNextMigration } from "../../pipeline/project.js";
import { notice, step } from "../style.js";
import type { ExitCode } from "../exit-code.js";

export function registerMigrate(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("migrate")
    .description("Write the next migration only: the difference between the last migrated schema and the specs.")
    .option("-n, --name <label>", "label of the new migration", "update")
    .option("-s, --specs <dir>", "specs folder", "specs")
    .option("-o, --out <dir>", "output directory (default: out: in hashapi.yaml, else generated/)")
    .option("--accept-data-loss", "write a migration that drops, narrows or constrains columns or tables holding rows")
    .addHelpText(
      "after",
      `
Examples:
  $ hashapi migrate --name add_phone
  $ hashapi migrate --specs specs --out generated

No database is needed: the SQL comes from Prisma's schema engine (WebAssembly, no download).
Existing migrations are never rewritten. \`hashapi generate\` does the same as part of a full run.`,
    )
    .action(async (given: { name: string; specs: string; out?: string; acceptDataLoss?: boolean }) => {
      const written = await writeNextMigration(findSpecsDir(given.specs), { out: given.out, migrationName: given.name, acceptDataLoss: given.acceptDataLoss, notice, progress: step });
      if (written.length === 0) process.stdout.write("The migrations already cover the schema; nothing to write.\n");
      for (const path of written) process.stdout.write(`create ${path}\n`);
      setExit(0);
    });
}
