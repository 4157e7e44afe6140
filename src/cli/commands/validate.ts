import type { Command } from "commander";
import { loadValidSpecs } from "../../pipeline/generate.js";
import type { ExitCode } from "../main.js";
import { notice } from "../output-dir.js";

export function registerValidate(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("validate")
    .description("Check a specs folder and report every problem with file, line and column.")
    .argument("[specs]", "specs folder", "specs")
    .addHelpText(
      "after",
      `
Examples:
  $ hashapi validate
  $ hashapi validate path/to/specs

Exit codes: 0 valid, 1 invalid, 2 usage error.`,
    )
    .action(async (specsDir: string) => {
      const specs = await loadValidSpecs(specsDir, notice);
      process.stdout.write(
        `${specsDir}: ${specs.resources.length} resource${specs.resources.length === 1 ? "" : "s"}, valid.\n`,
      );
      setExit(0);
    });
}
