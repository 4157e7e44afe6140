import { findSpecsDir } from "../specs-dir.js";
import type { Command } from "commander";
import { readMigrationHistory } from "../../migrate/history.js";
import { planMigration } from "../../migrate/plan.js";
import { writeMigrationFiles } from "../../migrate/write.js";
import { prismaSchemaFile } from "../../emit/index.js";
import { loadModel } from "../../pipeline/generate.js";
import { outputDir } from "../output-dir.js";
import { notice } from "../style.js";
import type { ExitCode } from "../main.js";

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
      const flags = { ...given, specs: findSpecsDir(given.specs) };
      const model = await loadModel(flags.specs, notice);
      const out = outputDir(flags.specs, flags.out, model.out);
      const { files } = await planMigration({
        history: await readMigrationHistory(out),
        schema: prismaSchemaFile(model).content,
        provider: model.database.provider,
        label: flags.name,
        source: model.source,
        evolution: model.evolution,
        acceptDataLoss: flags.acceptDataLoss === true,
      });
      if (files.length === 0) {
        process.stdout.write("The migrations already cover the schema; nothing to write.\n");
        return setExit(0);
      }
      await writeMigrationFiles(out, files);
      for (const file of files) process.stdout.write(`create ${file.path}\n`);
      setExit(0);
    });
}
