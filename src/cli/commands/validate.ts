import { findSpecsDir } from "../specs-dir.js";
import type { Command } from "commander";
import { loadValidSpecs } from "../../pipeline/generate.js";
import type { ExitCode } from "../exit-code.js";
import { asJson } from "../json-output.js";
import { notice } from "../style.js";

export function registerValidate(program: Command, setExit: (code: ExitCode) => void): void {
  program
    .command("validate")
    .description("Check a specs folder and report every problem with file, line and column.")
    .argument("[specs]", "specs folder", "specs")
    .option("--json", "print the result as JSON (for CI tools): { valid, resources } or { valid, problems }")
    .addHelpText(
      "after",
      `
Examples:
  $ hashapi validate
  $ hashapi validate path/to/specs
  $ hashapi validate --json                # { "valid": false, "problems": [{ "file", "line", ... }] }

Exit codes: 0 valid, 1 invalid, 2 usage error.`,
    )
    .action(async (requested: string, flags: { json?: boolean }) => {
      const specsDir = findSpecsDir(requested);
      if (flags.json) return setExit(await asJson(() => loadValidSpecs(specsDir, notice), (specs) => ({ valid: true, resources: specs.resources.map((resource) => resource.name) })));
      const specs = await loadValidSpecs(specsDir, notice);
      process.stdout.write(
        `${specsDir}: ${specs.resources.length} resource${specs.resources.length === 1 ? "" : "s"}, valid.\n`,
      );
      setExit(0);
    });
}
